import { ApiError, apiRequest } from '../../lib/api-client';

export type { JerseyDetails, Listing } from '../../lib/listing';
import type { Listing } from '../../lib/listing';

/** GET /api/public/listings/{slugOrId}/auction (dollars as numbers). */
export interface Auction {
  readonly auctionId: string;
  readonly listingId: string;
  readonly status: string;
  readonly isActive: boolean;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly currentPrice: number;
  readonly currentLeaderId: string | null;
  readonly minimumBid: number;
  readonly bidCount: number;
  readonly reserveMet: boolean | null;
  readonly buyNowPrice: number | null;
  readonly buyNowAvailable: boolean;
  readonly softClose: { readonly windowSeconds: number; readonly latestEndsAt: string } | null;
  readonly result: string | null;
  readonly winnerId: string | null;
  readonly finalPrice: number | null;
}

/** GET /api/bids/auction/{auctionId}: newest first. */
export interface Bid {
  readonly id: string;
  readonly bidderId: string;
  readonly amount: number;
  readonly placedAt: string;
  readonly status: string;
  readonly kind: string;
}

/** POST /api/bids (201). */
export interface PlacedBid extends Bid {
  readonly maxAmount: number | null;
  readonly auction: {
    readonly currentPrice: number;
    readonly currentLeaderId: string | null;
    readonly status: string;
    readonly minimumBid: number;
    readonly endsAt: string;
  };
}

/** POST /api/bids/buy-now (201): the lot is sold to the buyer at its buy-now price. */
export interface Purchase {
  readonly id: string;
  readonly auctionId: string;
  readonly buyerId: string;
  readonly amount: number;
  readonly purchasedAt: string;
}

/** GET /api/public/nfc/{uid}: the chain of custody, read from the event log. */
export interface ChainOfCustody {
  readonly uid: string;
  readonly status: string;
  readonly listing: { readonly id: string; readonly slug: string; readonly title: string; readonly status: string } | null;
  readonly history: ReadonlyArray<{ readonly event: string; readonly at: string; readonly eventId: string; readonly summary: string }>;
}

/** The bid history the detail page shows (spec section 9). */
export const BID_HISTORY_SIZE = 10;

export function fetchListing(slugOrId: string, signal?: AbortSignal): Promise<Listing> {
  return apiRequest<Listing>(`/api/public/listings/${encodeURIComponent(slugOrId)}`, { signal });
}

/** null when the listing has no auction (404 "No auction available for this item"). */
export async function fetchAuction(slugOrId: string, signal?: AbortSignal): Promise<Auction | null> {
  try {
    return await apiRequest<Auction>(`/api/public/listings/${encodeURIComponent(slugOrId)}/auction`, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code !== 'LISTING_NOT_FOUND') return null;
    throw error;
  }
}

export function fetchBids(auctionId: string, signal?: AbortSignal): Promise<Bid[]> {
  return apiRequest<Bid[]>(`/api/bids/auction/${encodeURIComponent(auctionId)}?limit=${BID_HISTORY_SIZE}&offset=0`, { signal });
}

export function fetchChainOfCustody(uid: string, signal?: AbortSignal): Promise<ChainOfCustody> {
  return apiRequest<ChainOfCustody>(`/api/public/nfc/${encodeURIComponent(uid)}`, { signal });
}

export interface BidRequest {
  readonly auctionId: string;
  readonly amount: number;
  readonly maxAmount: number | null;
  /** One per attempt: a retried request never bids twice. */
  readonly idempotencyKey: string;
}

export function buyNow(request: { auctionId: string; idempotencyKey: string }): Promise<Purchase> {
  return apiRequest<Purchase>('/api/bids/buy-now', { auth: true, body: { auctionId: request.auctionId }, headers: { 'Idempotency-Key': request.idempotencyKey } });
}

export function placeBid(request: BidRequest): Promise<PlacedBid> {
  return apiRequest<PlacedBid>('/api/bids', {
    auth: true,
    body: { auctionId: request.auctionId, amount: request.amount, ...(request.maxAmount === null ? {} : { maxAmount: request.maxAmount }) },
    headers: { 'Idempotency-Key': request.idempotencyKey },
  });
}
