/** The live feed's messages and events, apart from the socket so that machine tests need no DOM. */

/** What /ws/bidding sends about one auction (api/live/messages.ts); dollars as numbers. */
export interface LiveAuctionData {
  readonly currentPrice: number;
  readonly currentLeaderId: string | null;
  readonly status: string;
  readonly minimumBid: number;
  readonly endsAt?: string;
}

export type LiveMessage =
  | { type: 'subscribed'; auctionId: string }
  | { type: 'unsubscribed'; auctionId: string }
  | { type: 'error'; message: string }
  | {
      type: 'bid_placed';
      auctionId: string;
      auctionData: LiveAuctionData & { endsAt: string };
      bidData: { bidId: string; bidderId: string; amount: number; placedAt: string; status: string; kind: string };
    }
  | { type: 'auction_opened'; auctionId: string }
  | { type: 'auction_extended'; auctionId: string; endsAt: string; previousEndsAt: string }
  | { type: 'auction_closed'; auctionId: string; result: string; winnerId: string | null; finalPrice: number | null; closedAt: string }
  | { type: 'auction_cancelled'; auctionId: string; reason: string }
  | { type: 'bid_retracted'; auctionId: string; bidId: string; auctionData: LiveAuctionData };

/** What the feed tells the panel machine. */
export type FeedEvent =
  | { type: 'FEED.SUBSCRIBED' }
  | { type: 'FEED.MESSAGE'; message: LiveMessage }
  | { type: 'FEED.CLOSED'; code: number };

export interface FeedInput {
  readonly auctionId: string;
}

/** The normal close (spec section 9): the only one after which the panel does not reconnect. */
export const NORMAL_CLOSURE = 1000;
