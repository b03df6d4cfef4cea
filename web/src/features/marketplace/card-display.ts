import type { ListingTag } from '../../../../api/contracts/listings';
import type { Listing } from './api';

/** Up to 2 featured lots. */
const FEATURED_COUNT = 2;

/** One achievement badge at most: the first of these the listing carries. */
const ACHIEVEMENTS = ['HATTRICK', '2 GOALS', 'GOALS', 'ASSISTS', 'MVP'] as const satisfies readonly ListingTag[];

/** WORN; SIGNED (also for AUTOGRAPHED); then at most one achievement. */
export function cardBadges(tags: readonly ListingTag[]): ListingTag[] {
  const badges: ListingTag[] = [];
  if (tags.includes('WORN')) badges.push('WORN');
  if (tags.includes('SIGNED') || tags.includes('AUTOGRAPHED')) badges.push('SIGNED');
  const achievement = ACHIEVEMENTS.find((tag) => tags.includes(tag));
  if (achievement) badges.push(achievement);
  return badges;
}

/**
 * Featured: the two most valuable lots with images among those shown. The highest current price is
 * what the marketplace has to show off, and it does not change with the chosen sort order.
 */
export function pickFeatured(items: readonly Listing[]): Listing[] {
  return items
    .filter((listing) => listing.mediaUrls.length > 0)
    .toSorted((a, b) => Number(b.price) - Number(a.price))
    .slice(0, FEATURED_COUNT);
}

/**
 * The images the first screen's largest paint is among: the featured lots' on the plain marketplace
 * (MarketplacePage shows them above the grid), else the first card's.
 */
export function firstScreenImages(items: readonly Listing[], filtered: boolean): string[] {
  const featured = filtered ? [] : pickFeatured(items);
  const leading = featured.length > 0 ? featured : items.slice(0, 1);
  return leading.flatMap((listing) => listing.mediaUrls.slice(0, 1));
}
