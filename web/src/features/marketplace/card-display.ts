import type { Listing } from './api';

/** Spec section 2: one achievement badge, the first of these the listing carries. */
const ACHIEVEMENTS = ['HATTRICK', '2 GOALS', 'GOALS', 'ASSISTS', 'MVP'] as const;

/** Spec section 2's route table: by slug, or by id for a listing without one. */
export function listingPath(listing: Pick<Listing, 'id' | 'slug'>): string {
  return listing.slug ? `/marketplace/${listing.slug}` : `/marketplace/listing/${listing.id}`;
}

/** WORN; SIGNED (also for AUTOGRAPHED); then at most one achievement. */
export function cardBadges(tags: readonly string[]): string[] {
  const badges: string[] = [];
  if (tags.includes('WORN')) badges.push('WORN');
  if (tags.includes('SIGNED') || tags.includes('AUTOGRAPHED')) badges.push('SIGNED');
  const achievement = ACHIEVEMENTS.find((tag) => tags.includes(tag));
  if (achievement) badges.push(achievement);
  return badges;
}
