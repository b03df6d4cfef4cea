import { describe, expect, it } from 'vitest';
import {
  auctionRejectionsStreamId,
  auctionStreamId,
  isProductEvent,
  listingSlugStreamId,
  listingStreamId,
  nfcTagStreamId,
  orderStreamId,
  PRODUCT_EVENT_TYPES,
  PRODUCT_STREAM_PREFIXES,
} from '../../engine/domain';
import { nfcClaimCodeStreamId } from '../../engine/domain/nfc-tag/claim-code';

const METADATA = { actorId: 'admin-1', actorRoles: ['ADMIN'], occurredAt: '2026-12-01T12:00:00.000Z', correlationId: 'c-1', commandId: 'k-1' };

describe("the product's events", () => {
  it('name a prefix for every stream the engine writes', () => {
    const streams = [auctionStreamId('a-1'), auctionRejectionsStreamId('a-1'), listingStreamId('l-1'), listingSlugStreamId('brady-jersey'), nfcTagStreamId('04A2B3C4D5E6F7'), nfcClaimCodeStreamId('CLAIM-42'), orderStreamId('o-1')];
    for (const stream of streams) expect(PRODUCT_STREAM_PREFIXES.filter((prefix) => stream.startsWith(prefix)), stream).toHaveLength(1);
  });

  it('know every type the deciders emit', () => {
    for (const type of ['AuctionScheduled', 'BidPlaced', 'AuctionExtended', 'BidRejected', 'ListingDrafted', 'ListingSlugClaimed', 'NfcTagBound', 'NfcClaimCodeReserved', 'OrderPlaced', 'SecondChanceOffered', 'ListingRelisted']) {
      expect(PRODUCT_EVENT_TYPES.has(type), type).toBe(true);
    }
  });

  it("are told from another writer's by stream, type, data and metadata, each on its own", () => {
    const ours = { streamId: auctionStreamId('a-1'), type: 'AuctionOpened', data: { auctionId: 'a-1', openedAt: '2026-12-01T12:00:00.000Z' }, metadata: METADATA };
    expect(isProductEvent(ours)).toBe(true);
    // A bid of another writer's own making, under the product's names: it would stop the projections.
    const bid = { auctionId: 'a-1', bidId: 'b-1', bidderId: 'u-1', amount: 10_000, maximum: null, placedAt: '2026-12-01T12:00:00.000Z' };
    expect(isProductEvent({ ...ours, type: 'BidPlaced', data: bid })).toBe(false);
    for (const data of [undefined, null, {}, { auctionId: 'a-1' }]) expect(isProductEvent({ ...ours, data }), JSON.stringify(data)).toBe(false);
    expect(isProductEvent({ ...ours, metadata: { ...METADATA, $correlationId: 'adapter-own' } })).toBe(true);
    expect(isProductEvent({ ...ours, streamId: 'inventory-1' })).toBe(false);
    expect(isProductEvent({ ...ours, type: 'InventoryCounted' })).toBe(false);
    for (const metadata of [undefined, null, {}, 'text', { ...METADATA, occurredAt: 42 }]) expect(isProductEvent({ ...ours, metadata }), JSON.stringify(metadata)).toBe(false);
  });
});
