import { effectiveStatus, takesBidsAt } from '../../engine/domain';
import { auctionSummaryOf } from '../../projections/auctions/auctions-projection';
import type { Auction } from '../contracts/auctions';
import type { Listing } from '../contracts/listings';
import type { MediaStorage } from '../media/storage-port';
import { centsOf, toDecimalString, toDollars, toDollarsOrNull } from '../http/money';
import type { AuctionRow, ListingRow } from './queries';

/** `media` says where the public fetches each file (deps.mediaStorage). */
export function presentListing(row: ListingRow, media: Pick<MediaStorage, 'publicUrl'>): Listing {
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

export function presentAuction(row: AuctionRow, now: Date): Auction {
  const summary = auctionSummaryOf(row);
  const at = now.toISOString();
  const isActive = takesBidsAt(summary, at);
  return {
    auctionId: row.id,
    listingId: row.listing_id,
    status: effectiveStatus(summary, at),
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
    version: summary.version,
  };
}
