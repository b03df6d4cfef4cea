import { z } from 'zod';
import type { MediaStorage } from '../media/storage-port';
import { centsOf, toDecimalString, toDollars, toDollarsOrNull } from '../http/money';
import type { AuctionRow, ListingRow } from './queries';

/** A listing as spec section 3 describes it, plus its auction's id and current end. */
export const listingAnswerSchema = z.object({
  id: z.string(),
  ownerId: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.string().describe("The price a buyer sees, in dollars: the auction's current price once bidding has started"),
  category: z.string().describe('CLOTHING, EQUIPMENT, FOOTWEAR or ACCESSORIES'),
  condition: z.string(),
  sportType: z.string().describe('FOOTBALL, BASKETBALL, BASEBALL or SOCCER'),
  mediaUrls: z.array(z.string()),
  status: z.string(),
  slug: z.string(),
  nfcUid: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  playerName: z.string().nullable(),
  teamOrClub: z.string().nullable(),
  leagueOrEvent: z.string().nullable(),
  dateOrSeason: z.string().nullable(),
  size: z.string().nullable(),
  tags: z.array(z.string()),
  jersey: z.record(z.string(), z.unknown()).nullable().describe('Game details from the jersey form, when the item came in through it'),
  auctionId: z.string().nullable(),
  endsAt: z.string().nullable().describe("The auction's current end (soft close included): the card shows the real time left"),
});
export type ListingAnswer = z.infer<typeof listingAnswerSchema>;

/** `media` says where the public fetches each file (deps.mediaStorage). */
export function presentListing(row: ListingRow, media: Pick<MediaStorage, 'publicUrl'>): ListingAnswer {
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    description: row.description,
    price: toDecimalString(centsOf(row.price)),
    category: row.category,
    condition: row.condition,
    sportType: row.sport_type,
    mediaUrls: row.media_ids.map((mediaId) => media.publicUrl(mediaId)),
    status: row.status,
    slug: row.slug,
    nfcUid: row.nfc_uid,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    playerName: row.player_name,
    teamOrClub: row.team_or_club,
    leagueOrEvent: row.league_or_event,
    dateOrSeason: row.date_or_season,
    size: row.size,
    tags: row.tags,
    jersey: row.jersey,
    auctionId: row.auction_id,
    endsAt: row.auction_ends_at?.toISOString() ?? null,
  };
}

const incrementBandAnswer = z.object({ from: z.number(), increment: z.number() });

/** What a bidder may know of an auction. The leader's maximum is never part of it. */
export const auctionAnswerSchema = z.object({
  auctionId: z.string(),
  listingId: z.string(),
  status: z.string().describe('PENDING, ACTIVE, ENDED or CANCELLED; a scheduled auction whose start has come is ACTIVE (the first bid opens it)'),
  isActive: z.boolean().describe('Bids are taken now: ACTIVE and before endsAt'),
  startsAt: z.string(),
  endsAt: z.string().describe('The current end, moved by soft-close extensions'),
  currentPrice: z.number().describe('Dollars'),
  currentLeaderId: z.string().nullable(),
  minimumBid: z.number().describe('The least the next bid may be, in dollars: current price plus the increment of its band'),
  bidCount: z.number(),
  reserveMet: z.boolean().nullable().describe('null when the auction has no reserve'),
  buyNowPrice: z.number().nullable(),
  buyNowAvailable: z.boolean(),
  incrementTable: z.array(incrementBandAnswer).describe('From each price (dollars) upward, the least a bid must add (dollars)'),
  softClose: z.object({ windowSeconds: z.number(), latestEndsAt: z.string() }).nullable(),
  result: z.string().nullable().describe('Once ended: SOLD, NO_BIDS or RESERVE_NOT_MET'),
  winnerId: z.string().nullable(),
  finalPrice: z.number().nullable(),
});
export type AuctionAnswer = z.infer<typeof auctionAnswerSchema>;

export const auctionStatusAnswerSchema = auctionAnswerSchema.pick({
  auctionId: true,
  status: true,
  isActive: true,
  endsAt: true,
  currentPrice: true,
  currentLeaderId: true,
  minimumBid: true,
});

export function presentAuction(row: AuctionRow, now: Date): AuctionAnswer {
  const status = statusAt(row, now);
  const isActive = status === 'ACTIVE' && now < row.ends_at;
  return {
    auctionId: row.id,
    listingId: row.listing_id,
    status,
    isActive,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    currentPrice: toDollars(centsOf(row.current_price)),
    currentLeaderId: row.leader_id,
    minimumBid: toDollars(centsOf(row.minimum_next_bid)),
    bidCount: row.bid_count,
    reserveMet: row.reserve_met,
    buyNowPrice: toDollarsOrNull(row.buy_now_price),
    // The read model knows whether bidding has withdrawn it; the clock says whether the lot is open.
    buyNowAvailable: row.buy_now_available && isActive,
    incrementTable: row.increment_table.map((band) => ({ from: toDollars(band.from), increment: toDollars(band.increment) })),
    softClose: row.soft_close,
    result: row.result,
    winnerId: row.winner_id,
    finalPrice: toDollarsOrNull(row.final_price),
  };
}

/**
 * The engine opens a scheduled auction with the first bid after its start, so between the start
 * and that bid the auction is live although no event has said so yet.
 */
function statusAt(row: AuctionRow, now: Date): string {
  if (row.status === 'PENDING' && now >= row.starts_at && now < row.ends_at) return 'ACTIVE';
  return row.status;
}
