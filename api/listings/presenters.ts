import { afterSaleTermsOf, effectiveStatus, takesBidsAt, type AuctionSummary } from '../../engine/domain';
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
  return presentAuctionSummary(auctionSummaryOf(row), now);
}

/** What a bidder may know of an auction, from the engine's summary of it: the same from the read model and from the live hub. */
export function presentAuctionSummary(summary: AuctionSummary, now: Date): Auction {
  const at = now.toISOString();
  const isActive = takesBidsAt(summary, at);
  const { rules } = summary;
  const terms = afterSaleTermsOf(rules);
  const closing = summary.status === 'ENDED' ? summary.closing : null;
  return {
    auctionId: summary.auctionId,
    listingId: summary.listingId,
    status: effectiveStatus(summary, at),
    isActive,
    startsAt: summary.startsAt,
    endsAt: summary.endsAt,
    currentPrice: toDollars(summary.price),
    currentLeaderId: summary.leaderId,
    minimumBid: toDollars(summary.minimumNextBid),
    bidCount: summary.bidCount,
    reserveMet: summary.reserveMet,
    buyNowPrice: toDollarsOrNull(rules.buyNowPrice),
    // The summary knows whether bidding has withdrawn it; the clock says whether the lot is open.
    buyNowAvailable: summary.buyNowAvailable && isActive,
    incrementTable: rules.incrementTable.map((band) => ({ from: toDollars(band.from), increment: toDollars(band.increment) })),
    softClose: rules.softClose,
    buyersPremiumPercent: terms.buyersPremiumBasisPoints / 100,
    paymentWindowHours: terms.paymentWindowSeconds / 3_600,
    result: closing?.result ?? null,
    winnerId: closing?.winnerId ?? null,
    finalPrice: toDollarsOrNull(closing?.finalPrice ?? null),
    version: summary.version,
  };
}
