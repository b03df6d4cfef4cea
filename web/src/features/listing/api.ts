import { ApiError, apiRequest } from '../../lib/api-client';

export type { JerseyDetails, Listing } from '../../lib/listing';
import type { Listing } from '../../lib/listing';
import type { Auction } from '../../../../api/contracts/auctions';
import type { Bid as AuctionBid, PlacedBid, Purchase } from '../../../../api/contracts/bids';
import type { ChainOfCustody } from '../../../../api/contracts/custody';
import type { BidReceipt } from '../../../../api/contracts/receipts';
export type { Auction, BidReceipt, ChainOfCustody, PlacedBid, Purchase };

/** A bid in the panel's history, from the history call or a live message: the auction is the panel's own. */
export type Bid = Omit<AuctionBid, 'auctionId'>;

/** The detail page shows the 10 most recent bids. */
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

/** Public; with the session's token when signed in, so that a buyer also sees their own order's steps. */
export function fetchChainOfCustody(uid: string, signal?: AbortSignal): Promise<ChainOfCustody> {
  return apiRequest<ChainOfCustody>(`/api/public/nfc/${encodeURIComponent(uid)}`, { signal, auth: true });
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

/** GET /api/bids/user/receipts: the signed-in user's signed receipts for one auction, in the log's order. */
export function fetchMyReceipts(auctionId: string, signal?: AbortSignal): Promise<BidReceipt[]> {
  return apiRequest<BidReceipt[]>(`/api/bids/user/receipts?${new URLSearchParams({ auctionId })}`, { auth: true, ...(signal ? { signal } : {}) });
}
