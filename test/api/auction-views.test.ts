import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auctionDecider, auctionStreamId, auctionSummaryView, fold, type AuctionEvent } from '../../engine/domain';
import { InMemoryEventStore } from '../../engine/eventstore/memory';
import { AuctionViews } from '../../api/live/auction-views';
import { liveAuction, placeBid, play } from '../engine/fixtures';

/** The live hub's cache of auction summaries: each event of an auction's stream folded in once, by its revision. */

const history = play(auctionDecider, liveAuction(), placeBid('alice', 6_000), placeBid('bob', 7_000));
const AUCTION_ID = history[0]!.data.auctionId;

async function storeWith(events: readonly AuctionEvent[]): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  const newEvents = events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: event.metadata }));
  if (newEvents.length > 0) await store.appendToStream(auctionStreamId(AUCTION_ID), newEvents, { expectedRevision: 'any' });
  return store;
}

describe('AuctionViews', () => {
  it('starts a summary from the stream\'s first event and folds each next one', async () => {
    const views = new AuctionViews(await storeWith([]));
    history.forEach((event, revision) => views.apply(event, revision));
    expect(await views.get(AUCTION_ID)).toEqual(fold(auctionSummaryView, history));
  });

  it('gives each event it folds in with the summary just before it', async () => {
    const views = new AuctionViews(await storeWith([]));
    const applied = history.map((event, revision) => views.apply(event, revision)!);
    expect(applied[0]!.before).toBeUndefined();
    for (let revision = 1; revision < history.length; revision++) expect(applied[revision]!.before).toBe(applied[revision - 1]!.view);
  });

  it('knows nothing of an auction whose first event it did not see', async () => {
    const views = new AuctionViews(await storeWith([]));
    expect(views.apply(history[2]!, 2)).toBeUndefined();
  });

  it('reads an unknown auction from its stream; the events that read included are not folded in again', async () => {
    const views = new AuctionViews(await storeWith(history));
    const read = await views.get(AUCTION_ID);
    expect(read).toMatchObject({ bidCount: 2, version: 4, price: 7_000 });
    // The hub's subscription delivers the same events after the read: nothing is counted twice.
    expect(views.apply(history[2]!, 2)).toEqual({ view: read, before: undefined });
    expect(views.apply(history[3]!, 3)).toEqual({ view: read, before: undefined });
  });

  it('forgets a summary that missed events, and reads the stream again when next asked', async () => {
    const views = new AuctionViews(await storeWith(history));
    history.slice(0, 2).forEach((event, revision) => views.apply(event, revision));
    expect(views.apply(history[3]!, 3)).toBeUndefined();
    expect(await views.get(AUCTION_ID)).toEqual(fold(auctionSummaryView, history));
  });

  it('answers null for an auction that has no stream', async () => {
    expect(await new AuctionViews(await storeWith([])).get('no-such-auction')).toBeNull();
  });
});
