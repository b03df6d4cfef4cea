import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppendedChains } from '../../api/integrity/appended-chains';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import type { NewEvent } from '../../engine/eventstore/port';

/** What the checkpointer signs without reading back: the chain links this process's appends answered. */
describe('the chain links appended by this process', () => {
  const event = (type = 'BidPlaced'): NewEvent => ({ id: randomUUID(), type, data: { n: 1 }, metadata: {} });

  it('keeps the links of auctions\' logs as the appends answered them, in order from a revision, without gaps', async () => {
    const chains = new AppendedChains();
    const store = chains.watch(new InMemoryEventStore());
    const first = await store.appendToStream('auction-a', [event('AuctionScheduled'), event()], { expectedRevision: 'no_stream' });
    const [second] = await store.appendToStreams([
      { streamId: 'auction-a', expectedRevision: 1, events: [event('AuctionClosed')] },
      { streamId: 'listing-x', expectedRevision: 'no_stream', events: [event('ListingCreated')] },
    ]);
    await store.appendToStream('auction_rejections-a', [event('BidRejected')], { expectedRevision: 'any' });

    const links = chains.takeFrom('auction-a', 0);
    expect(links.map((link) => [link.revision, link.type])).toEqual([[0, 'AuctionScheduled'], [1, 'BidPlaced'], [2, 'AuctionClosed']]);
    expect(links.map(({ type: _type, ...link }) => link)).toEqual([...first.chain, ...second!.chain]);
    expect(links[1]!.previousHash).toBe(links[0]!.hash);
    // Taken from a later revision, the earlier ones are forgotten; other streams than auctions' logs are not kept.
    expect(chains.takeFrom('auction-a', 2).map((link) => link.revision)).toEqual([2]);
    expect(chains.takeFrom('auction-a', 0)).toEqual([]);
    expect(chains.takeFrom('listing-x', 0)).toEqual([]);
    expect(chains.takeFrom('auction_rejections-a', 0).map((link) => link.type)).toEqual(['BidRejected']);
    // A gap (links another process appended) ends what is taken: the rest is read from the log.
    expect(chains.takeFrom('auction-a', 1)).toEqual([]);
  });

  it('forgets the streams appended to longest ago past 100,000 links', async () => {
    const chains = new AppendedChains();
    const store = chains.watch(new InMemoryEventStore());
    await store.appendToStream('auction-old', [event()], { expectedRevision: 'no_stream' });
    for (let batch = 0; batch < 100; batch++) {
      await store.appendToStream('auction-hot', Array.from({ length: 1_000 }, () => event()), { expectedRevision: 'any' });
    }
    expect(chains.takeFrom('auction-old', 0)).toEqual([]);
    expect(chains.takeFrom('auction-hot', 0)).toHaveLength(100_000);
    // Taken links free their room: the old stream's next append is kept again.
    chains.takeFrom('auction-hot', 100_000);
    await store.appendToStream('auction-old', [event()], { expectedRevision: 0 });
    expect(chains.takeFrom('auction-old', 1)).toHaveLength(1);
  });
});
