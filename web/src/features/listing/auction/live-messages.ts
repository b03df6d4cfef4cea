/** The live feed's events, apart from the socket so that machine tests need no DOM. */

import type { LiveMessage } from '../../../lib/live-socket';

export type { LiveMessage };

/** What the feed tells the panel machine. */
export type FeedEvent =
  | { type: 'FEED.SUBSCRIBED' }
  | { type: 'FEED.MESSAGE'; message: LiveMessage }
  | { type: 'FEED.CLOSED'; code: number };

export interface FeedInput {
  readonly auctionId: string;
}
