import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppendedChains } from '../../api/integrity/appended-chains';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import { DelegatingEventStore } from '../../engine/eventstore/delegating';
import type { AppendRequest, AppendResult, NewEvent } from '../../engine/eventstore/port';

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

    // From revision 1: what came before is checked already, and forgotten.
    const links = chains.takeFrom('auction-a', 1);
    expect(links.map((link) => [link.revision, link.type])).toEqual([[1, 'BidPlaced'], [2, 'AuctionClosed']]);
    expect(links.map(({ type: _type, streamId: _streamId, ...link }) => link)).toEqual([first.chain[1], ...second!.chain]);
    expect(links[1]!.previousHash).toBe(links[0]!.hash);
    // Taken, they are forgotten; other streams than auctions' logs are not kept.
    expect(chains.takeFrom('auction-a', 0)).toEqual([]);
    expect(chains.takeFrom('listing-x', 0)).toEqual([]);
    expect(chains.takeFrom('auction_rejections-a', 0).map((link) => link.type)).toEqual(['BidRejected']);
    // A gap (events another process appended) ends what is taken: the rest is read from the log.
    await store.appendToStream('auction-a', [event()], { expectedRevision: 2 });
    expect(chains.takeFrom('auction-a', 2)).toEqual([]);
    expect(chains.takeFrom('auction-a', 3).map((link) => link.revision)).toEqual([3]);
  });

  it.each([
    ['another hash', { hash: 'f'.repeat(64) }],
    ['its hash after another event', { previousHash: 'e'.repeat(64) }],
  ])('keeps no link answered with %s than the event sent at its place: the checkpointer reads the log from that gap', async (_, answered) => {
    /** Answers the second event's link otherwise, as a retry answered with what another process stored would. */
    class OtherLinkAnswered extends DelegatingEventStore {
      override async appendToStreams(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
        const results = await this.inner.appendToStreams(requests);
        return results.map((result) => ({ ...result, chain: result.chain.map((link, index) => (index === 1 ? { ...link, ...answered } : link)) }));
      }
    }
    const chains = new AppendedChains();
    const store = chains.watch(new OtherLinkAnswered(new InMemoryEventStore()));
    await store.appendToStreams([{ streamId: 'auction-a', expectedRevision: 'no_stream', events: [event('AuctionScheduled'), event(), event()] }]);
    expect(chains.takeFrom('auction-a', 0).map((link) => link.revision)).toEqual([0]);
    expect(chains.takeFrom('auction-a', 2).map((link) => link.revision)).toEqual([2]);
  });

  it('forgets the streams appended to longest ago past 20,000 links', async () => {
    const chains = new AppendedChains();
    const store = chains.watch(new InMemoryEventStore());
    await store.appendToStream('auction-old', [event()], { expectedRevision: 'no_stream' });
    for (let batch = 0; batch < 20; batch++) {
      await store.appendToStream('auction-hot', Array.from({ length: 1_000 }, () => event()), { expectedRevision: 'any' });
    }
    expect(chains.takeFrom('auction-old', 0)).toEqual([]);
    expect(chains.takeFrom('auction-hot', 0)).toHaveLength(20_000);
    // Taken links free their room: the old stream's next append is kept again.
    await store.appendToStream('auction-old', [event()], { expectedRevision: 0 });
    expect(chains.takeFrom('auction-old', 1)).toHaveLength(1);
  });
});
