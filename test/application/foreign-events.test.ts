import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ForeignEventFilter } from '../../engine/application/foreign-events';
import { auctionStreamId } from '../../engine/domain';

const METADATA = { actorId: 'admin-1', actorRoles: ['ADMIN'], occurredAt: '2026-12-01T12:00:00.000Z', correlationId: 'c-1', commandId: 'k-1' };

function opened(overrides: { id?: string; streamId?: string; revision?: number; data?: unknown } = {}) {
  const auctionId = randomUUID();
  return {
    id: overrides.id ?? randomUUID(),
    streamId: overrides.streamId ?? auctionStreamId(auctionId),
    revision: overrides.revision ?? 1,
    type: 'AuctionOpened',
    data: overrides.data ?? { auctionId, openedAt: '2026-12-01T12:00:00.000Z' },
    metadata: METADATA,
  };
}

describe('the filter of foreign events', () => {
  it("keeps the product's events and drops another writer's, each consumer alike", () => {
    const ours = opened();
    const theirs = { ...opened(), type: 'InventoryCounted' };
    const log = {};
    for (const consumer of [new ForeignEventFilter('projections', undefined, log), new ForeignEventFilter('live hub', undefined, log)]) {
      expect(consumer.keep([ours, theirs])).toEqual([ours]);
    }
  });

  it('judges each record of the log on its own, even under an id another record has (another stream, another revision)', () => {
    const filter = new ForeignEventFilter('projections', undefined, {});
    const ours = opened();
    expect(filter.admits(ours)).toBe(true);
    // Another writer reusing the id, somewhere else in the log, with data the engine never wrote.
    expect(filter.admits({ ...ours, streamId: auctionStreamId(randomUUID()), data: { auctionId: 'x' } })).toBe(false);
    expect(filter.admits({ ...ours, revision: ours.revision + 1, data: { auctionId: 'x' } })).toBe(false);
    expect(filter.admits(ours)).toBe(true);
  });

  it('judges rightly past the verdicts it keeps', () => {
    const filter = new ForeignEventFilter('projections', undefined, {});
    const events = Array.from({ length: 10_000 }, (_, index) => (index % 3 === 0 ? { ...opened(), type: 'InventoryCounted' } : opened()));
    expect(filter.keep(events)).toEqual(events.filter((_, index) => index % 3 !== 0));
    expect(filter.keep(events.slice(0, 100))).toEqual(events.slice(0, 100).filter((_, index) => index % 3 !== 0));
  });

  it('keeps the verdicts of one log to that log: another store may hold another record at the same place', () => {
    const ours = opened();
    const other = { ...ours, data: { auctionId: 'x' } };
    expect(new ForeignEventFilter('projections', undefined, { log: 1 }).admits(ours)).toBe(true);
    expect(new ForeignEventFilter('projections', undefined, { log: 2 }).admits(other)).toBe(false);
  });
});
