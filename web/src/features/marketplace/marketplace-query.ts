import type { ListingCategory, ListingTag } from '../../../../api/contracts/listings';
import type { ListingsRequest } from './api';

/**
 * The marketplace's state lives in the URL (?search=&category=&sort=) so that a reload, a shared
 * link and Back all keep it. This module maps that state to the API's query: a chip to a category
 * or a tag, a sort to "{field},{direction}".
 */

export const SORTS = [
  { id: 'ending-soon', label: 'Ending Soon', api: 'endsAt,asc' },
  { id: 'newest', label: 'Newest', api: 'createdAt,desc' },
  { id: 'oldest', label: 'Oldest', api: 'createdAt,asc' },
  { id: 'price-asc', label: 'Price Low to High', api: 'price,asc' },
  { id: 'price-desc', label: 'Price High to Low', api: 'price,desc' },
  { id: 'title-asc', label: 'Title A to Z', api: 'title,asc' },
  { id: 'title-desc', label: 'Title Z to A', api: 'title,desc' },
] as const;
export type SortId = (typeof SORTS)[number]['id'];
/** Newest first (createdAt descending). */
export const DEFAULT_SORT: SortId = 'newest';

export const CHIPS = [
  { id: 'all', label: 'All' },
  { id: 'jerseys', label: 'Jerseys', category: 'CLOTHING' },
  { id: 'equipment', label: 'Equipment', category: 'EQUIPMENT' },
  { id: 'footwear', label: 'Footwear', category: 'FOOTWEAR' },
  { id: 'accessories', label: 'Accessories', category: 'ACCESSORIES' },
  // Not categories: Signed filters by the tag, Ending Soon sorts by the end.
  { id: 'signed', label: 'Signed', tag: 'SIGNED' },
  { id: 'ending-soon', label: 'Ending Soon', sort: 'ending-soon' },
] as const satisfies ReadonlyArray<{ id: string; label: string; category?: ListingCategory; tag?: ListingTag; sort?: SortId }>;
export type ChipId = (typeof CHIPS)[number]['id'];

export interface MarketplaceState {
  readonly search: string;
  readonly chip: ChipId;
  readonly sort: SortId;
}

const isChip = (value: string | null): value is ChipId => CHIPS.some((chip) => chip.id === value);
const isSort = (value: string | null): value is SortId => SORTS.some((sort) => sort.id === value);

/** Unknown or missing values fall back to the defaults: an old or hand-edited link still opens. */
export function readMarketplaceState(params: URLSearchParams): MarketplaceState {
  const chip = params.get('category');
  const sort = params.get('sort');
  return {
    search: (params.get('search') ?? '').trim(),
    chip: isChip(chip) ? chip : 'all',
    sort: isSort(sort) ? sort : DEFAULT_SORT,
  };
}

/** Defaults are left out, so the plain marketplace stays at /marketplace. */
export function writeMarketplaceState(state: MarketplaceState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('search', state.search.trim());
  if (state.chip !== 'all') params.set('category', state.chip);
  if (state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  return params;
}

/** The Ending Soon chip is a shortcut for that sort: while it is on, it decides the order. */
export function effectiveSort(state: MarketplaceState): SortId {
  const chip = CHIPS.find((candidate) => candidate.id === state.chip);
  return chip && 'sort' in chip ? chip.sort : state.sort;
}

export function toListingsRequest(state: MarketplaceState): ListingsRequest {
  const chip = CHIPS.find((candidate) => candidate.id === state.chip);
  const sort = SORTS.find((candidate) => candidate.id === effectiveSort(state)) ?? SORTS[1];
  return {
    search: state.search.trim(),
    category: chip && 'category' in chip ? chip.category : null,
    tag: chip && 'tag' in chip ? chip.tag : null,
    sort: sort.api,
  };
}

/** Featured lots show on the plain marketplace only: a search or a chip asks for something else. */
export function isFiltered(state: MarketplaceState): boolean {
  return state.search.trim() !== '' || state.chip !== 'all';
}

export function sameRequest(a: ListingsRequest, b: ListingsRequest): boolean {
  return a.search === b.search && a.category === b.category && a.tag === b.tag && a.sort === b.sort;
}
