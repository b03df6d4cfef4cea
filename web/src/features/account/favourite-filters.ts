import type { Favourite } from '../../lib/favourites';

/** "Now live": favourites whose auction is live and has not ended yet (by the saved end time). */
export function liveFavourites(saved: readonly Favourite[], now: number): Favourite[] {
  return saved.filter((item) => item.status === 'LIVE' && (item.endsAt === null || new Date(item.endsAt).getTime() > now));
}
