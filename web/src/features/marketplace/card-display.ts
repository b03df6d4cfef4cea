import type { ListingTag } from '../../../../api/contracts/listings';

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
