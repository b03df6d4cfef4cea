import { adminListingSchema } from '../../../../../api/contracts/admin/listings';
import { readChoice, readPage, tableParams } from '../tables/table-params';
import type { ListingStatus, ListingsQuery } from './api';

/** Every status a listing can have, in the order of its life. */
export const LISTING_STATUSES = adminListingSchema.shape.status.options;

export const STATUS_LABELS: Readonly<Record<ListingStatus, string>> = {
  DRAFT: 'Draft',
  SAVED: 'Saved',
  NFC_BOUND: 'NFC bound',
  LIVE: 'Live',
  SOLD: 'Sold',
  UNSOLD: 'Unsold',
  WITHDRAWN: 'Withdrawn',
};

export const SORTS = [
  { id: 'newest', label: 'Newest', api: 'createdAt,desc' },
  { id: 'oldest', label: 'Oldest', api: 'createdAt,asc' },
  { id: 'title-asc', label: 'Title A to Z', api: 'title,asc' },
  { id: 'title-desc', label: 'Title Z to A', api: 'title,desc' },
  { id: 'price-asc', label: 'Price Low to High', api: 'price,asc' },
  { id: 'price-desc', label: 'Price High to Low', api: 'price,desc' },
  { id: 'ending-soon', label: 'Ending Soon', api: 'endsAt,asc' },
] as const;
export type SortId = (typeof SORTS)[number]['id'];
const SORT_IDS = SORTS.map((sort) => sort.id);

/** The table's state in the URL, as the admin reads it: ?status=LIVE&search=...&sort=price-desc&page=2 beside ?tab=manage. */
export interface ManageState {
  readonly status: ListingStatus | null;
  readonly search: string;
  readonly sort: SortId;
  /** From 0. */
  readonly page: number;
}

export function readManageState(params: URLSearchParams): ManageState {
  return {
    status: readChoice(params, 'status', LISTING_STATUSES),
    search: (params.get('search') ?? '').trim(),
    sort: readChoice(params, 'sort', SORT_IDS) ?? 'newest',
    page: readPage(params),
  };
}

/** Newest first is the default and left out of the URL. */
export function writeManageState(current: URLSearchParams, state: ManageState): URLSearchParams {
  return tableParams(current, { status: state.status, search: state.search, sort: state.sort === 'newest' ? null : state.sort }, state.page);
}

export function toListingsQuery(state: ManageState): ListingsQuery {
  return { status: state.status, search: state.search, sort: SORTS.find((sort) => sort.id === state.sort)!.api, page: state.page };
}
