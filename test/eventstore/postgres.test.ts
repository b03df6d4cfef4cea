import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionToString, type LogPosition, type NewEvent, type RecordedEvent } from '../../engine/eventstore/port';
import { eventHash } from '../../engine/integrity/event-hash';
import { PostgresEventStore } from '../../engine/eventstore/postgres/postgres-event-store';
import { PGliteClient, type QueryOptions, type SqlClient } from '../../engine/postgres/sql-client';
import { createTestSchema, TEST_DATABASE_URL } from '../support/postgres';
import { eventStoreContract, waitUntil } from './contract';

eventStoreContract('PGlite (embedded default)', async () => {
  const sql = await PGliteClient.open();
  return { store: await PostgresEventStore.open(sql), cleanup: () => sql.close() };
});

/** `inner`, with every statement sent through it written down (a transaction as 'BEGIN'); closing it closes `inner`. */
function recordingClient(inner: SqlClient): { client: SqlClient; statements: Array<{ text: string; params: unknown[] }> } {
  const statements: Array<{ text: string; params: unknown[] }> = [];
  const client: SqlClient = {
    query: <Row>(text: string, params?: unknown[], options?: QueryOptions) => {
      statements.push({ text, params: params ?? [] });
      return inner.query<Row>(text, params, options);
    },
    transaction: (work) => {
      statements.push({ text: 'BEGIN', params: [] });
      return inner.transaction(work);
    },
    listen: (channel, onNotify) => inner.listen(channel, onNotify),
    close: () => inner.close(),
  };
  return { client, statements };
}

describe('appending on Postgres', () => {
  it('sends one statement per append, in no explicit transaction, then announces it to other processes', async () => {
    const inner: SqlClient = await PGliteClient.open();
    const { client: counting, statements } = recordingClient(inner);
    const store = await PostgresEventStore.open(counting);
    const event = (): NewEvent => ({ id: randomUUID(), type: 'Happened', data: {}, metadata: {} });
    // A stream it has not appended to or read: its last event is read first, to chain onto.
    await store.appendToStream('one-b', [event()], { expectedRevision: 'any' });
    statements.length = 0;
    await store.appendToStreams([
      { streamId: 'one-a', events: [event(), event()], expectedRevision: 'no_stream' },
      { streamId: 'one-b', events: [event()], expectedRevision: 'any' },
    ]);
    expect(statements.map((statement) => statement.text)).toEqual([expect.stringContaining('event_store_append'), expect.stringContaining('pg_notify')]);
    await store.close();
    await inner.close();
  });

  it('writes a batch only onto the event its chain was hashed onto, and chains again onto a head another process moved on', async () => {
    const sql = await PGliteClient.open();
    const [one, other] = [await PostgresEventStore.open(sql), await PostgresEventStore.open(sql)];
    try {
      const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'Happened', data: { n, amount: 1e21, text: 'é 🏈', nested: { b: [1, null], a: true } }, metadata: { actorId: 'a' } });
      const first = event(1);
      await one.appendToStream('chained-a', [first], { expectedRevision: 'no_stream' });
      const [stored] = await one.readStream('chained-a');
      expect({ id: stored!.id, type: stored!.type, data: stored!.data, metadata: stored!.metadata }).toEqual(first);

      // Straight to the statement: a batch hashed onto another event than the stream's last is refused, with that event.
      const append = (head: unknown) =>
        sql.query('SELECT event_store_append_chained($1::jsonb)', [
          JSON.stringify([{ streamId: 'chained-a', expectedRevision: 'any', head, events: [{ id: randomUUID(), type: 'Happened', data: {}, metadata: {}, hash: 'f'.repeat(64) }] }]),
        ]);
      for (const head of [null, { revision: 0, hash: 'e'.repeat(64) }, { revision: 1, hash: stored!.hash }]) {
        await expect(append(head)).rejects.toMatchObject({ code: 'PVCHN', detail: expect.stringContaining(`"head": {"hash": "${stored!.hash}", "revision": 0}`) });
      }
      expect(await one.readStream('chained-a')).toHaveLength(1);

      // Two stores of one database appending at 'any': each one's known head goes out of date, and its batch is chained again.
      await other.appendToStream('chained-a', [event(2)], { expectedRevision: 'any' });
      await one.appendToStream('chained-a', [event(3), event(4)], { expectedRevision: 'any' });
      await other.appendToStreams([
        { streamId: 'chained-a', events: [event(5)], expectedRevision: 'any' },
        { streamId: 'chained-b', events: [event(7)], expectedRevision: 'any' },
      ]);
      // A batch stored already, sent again at 'any' by a store whose known head is out of date: answered from what is stored.
      const retried = [event(6)];
      const [first6] = await other.appendToStreams([{ streamId: 'chained-a', events: retried, expectedRevision: 'any' }]);
      const [again] = await one.appendToStreams([{ streamId: 'chained-a', events: retried, expectedRevision: 'any' }]);
      expect(again!.chain).toEqual(first6!.chain);
      const chain = await one.readStream('chained-a');
      expect(chain.map((e) => e.data)).toEqual([1, 2, 3, 4, 5, 6].map((n) => expect.objectContaining({ n })));
      chain.forEach((e, index) => {
        expect(e.previousHash).toBe(index === 0 ? null : chain[index - 1]!.hash);
        expect(e.hash).toBe(eventHash(e));
      });
    } finally {
      await one.close();
      await other.close();
      await sql.close();
    }
  });
});

/** An empty database of each kind the store runs on: PGlite, and the PostgreSQL server when one is given. */
const EMPTY_DATABASES = [
  ['PGlite', async () => ({ sql: (await PGliteClient.open()) as SqlClient, drop: async () => undefined })],
  ...(TEST_DATABASE_URL
    ? ([['PostgreSQL', async () => {
        const schema = await createTestSchema(TEST_DATABASE_URL!);
        return { sql: schema.client() as SqlClient, drop: () => schema.drop() };
      }]] as const)
    : []),
] as const;

/**
 * A store created before events were hashed: the same events, appended by today's store, then the
 * hash columns dropped as they were missing then. Opening the store again must hash them exactly as
 * the appends did, make a hash required, and leave the table append-only.
 */
describe.each(EMPTY_DATABASES)('hashing the events of a store created before events were hashed, on %s', (_, openDatabase) => {
  it('hashes each stream in revision order, once, as appends would have, then requires a hash', async () => {
    const { sql, drop } = await openDatabase();
    try {
      const store = await PostgresEventStore.open(sql);
      const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'Happened', data: { n, text: 'é 🏈' }, metadata: { actorId: 'a' } });
      await store.appendToStreams([
        { streamId: 'old-a', events: [event(1), event(2)], expectedRevision: 'no_stream' },
        { streamId: 'old-b', events: [event(3)], expectedRevision: 'no_stream' },
      ]);
      await store.appendToStream('old-a', [event(4)], { expectedRevision: 1 });
      const before = [...(await store.readStream('old-a')), ...(await store.readStream('old-b'))];
      await store.close();
      await sql.query('ALTER TABLE events DROP COLUMN hash, DROP COLUMN previous_hash');

      const reopened = await PostgresEventStore.open(sql);
      const after = [...(await reopened.readStream('old-a')), ...(await reopened.readStream('old-b'))];
      expect(after.map((e) => [e.streamId, e.revision, e.hash, e.previousHash])).toEqual(before.map((e) => [e.streamId, e.revision, e.hash, e.previousHash]));
      const { rows } = await sql.query<{ required: boolean }>(`SELECT attnotnull AS required FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'hash'`);
      expect(rows[0]!.required).toBe(true);
      await expect(sql.query(`UPDATE events SET hash = 'forged' WHERE stream_id = 'old-b'`)).rejects.toThrow(/append-only/);
      // And the chain goes on from the hashes it was given.
      const [appended] = await reopened.appendToStreams([{ streamId: 'old-a', events: [event(5)], expectedRevision: 2 }]);
      expect(appended!.chain[0]!.previousHash).toBe(before[2]!.hash);
      await reopened.close();
    } finally {
      await sql.close();
      await drop();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL server', () => {
  eventStoreContract('PostgreSQL', async () => {
    const schema = await createTestSchema(TEST_DATABASE_URL!);
    const store = await PostgresEventStore.open(schema.client(), { channel: `events_${schema.schema}` });
    return { store, cleanup: () => schema.drop() };
  });

  describe('ordering the log when transactions commit out of order', () => {
    let schema: Awaited<ReturnType<typeof createTestSchema>>;
    let channel: string;

    beforeAll(async () => {
      schema = await createTestSchema(TEST_DATABASE_URL!);
      channel = `events_${schema.schema}`;
    });
    afterAll(async () => schema.drop());

    const event = (): NewEvent => ({ id: randomUUID(), type: 'Happened', data: {}, metadata: {} });

    /**
     * A client whose next statement (an append is one), once armed, runs in a transaction that does
     * its work, then waits for `release` before committing.
     */
    function holdingClient(inner: SqlClient, options: { rollback: boolean }) {
      let armed = false;
      let reached!: () => void;
      let release!: () => void;
      const atGate = new Promise<void>((resolve) => (reached = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      const client: SqlClient = {
        query: <Row>(text: string, params?: unknown[], queryOptions?: QueryOptions) => {
          if (!armed) return inner.query<Row>(text, params, queryOptions);
          armed = false;
          return inner.transaction(async (tx) => {
            const result = await tx.query<Row>(text, params, queryOptions);
            reached();
            await gate;
            if (options.rollback) throw new Error('writer gave up');
            return result;
          });
        },
        listen: (name, onNotify) => inner.listen(name, onNotify),
        close: () => inner.close(),
        transaction: (work) => inner.transaction(work),
      };
      return { client, atGate, release, arm: () => void (armed = true) };
    }

    it('delivers an event held by an open transaction before a later one, once both commit', async () => {
      const reader = await PostgresEventStore.open(schema.client(), { channel });
      const held = holdingClient(schema.client(), { rollback: false });
      const slowWriter = await PostgresEventStore.open(held.client, { channel });
      held.arm();
      const seen: RecordedEvent[] = [];
      const subscription = reader.subscribeToAll({ after: 'start' }, async (batch) => {
        seen.push(...batch);
      });

      const early = event();
      const late = event();
      const slowAppend = slowWriter.appendToStream('held-a', [early], { expectedRevision: 'no_stream' });
      await held.atGate; // `early` is written (it has the smaller transaction id) but not committed
      await reader.appendToStream('held-b', [late], { expectedRevision: 'any' });

      // `late` is committed, yet it must wait: delivering it now would skip `early` for good.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.map((e) => e.id)).toEqual([]);
      // So must an auditor's page, with or without a time filter (they take different paths).
      const auditPage = async () => {
        const pages = await Promise.all([reader.queryLog({ limit: 10 }), reader.queryLog({ limit: 10, from: new Date(0) })]);
        return pages.map((page) => page.events.map((e) => e.id));
      };
      expect(await auditPage()).toEqual([[], []]);

      held.release();
      await slowAppend;
      await waitUntil(() => seen.length >= 2);
      await subscription.stop();
      expect(seen.map((e) => e.id)).toEqual([early.id, late.id]);
      expect((await reader.readAll()).map((e) => e.id)).toEqual([early.id, late.id]);
      expect(await auditPage()).toEqual([[early.id, late.id], [early.id, late.id]]);
      await Promise.all([reader.close(), slowWriter.close()]);
    });

    it('is not stalled by an append that rolls back', async () => {
      const reader = await PostgresEventStore.open(schema.client(), { channel });
      const held = holdingClient(schema.client(), { rollback: true });
      const failingWriter = await PostgresEventStore.open(held.client, { channel });
      held.arm();
      const seen: string[] = [];
      const subscription = reader.subscribeToAll({ after: 'end' }, async (batch) => {
        seen.push(...batch.map((e) => e.id));
      });
      await new Promise((resolve) => setTimeout(resolve, 200));

      const doomed = event();
      const survivor = event();
      const failing = failingWriter.appendToStream('rollback-a', [doomed], { expectedRevision: 'no_stream' });
      await held.atGate;
      await reader.appendToStream('rollback-b', [survivor], { expectedRevision: 'any' });
      held.release();
      await expect(failing).rejects.toThrow('writer gave up');

      await waitUntil(() => seen.length >= 1, 5000);
      await subscription.stop();
      expect(seen).toEqual([survivor.id]);
      await Promise.all([reader.close(), failingWriter.close()]);
    });

    it('gives every subscriber of every process every event', async () => {
      // Two API processes on one database each deliver every bid to their own sockets.
      const processA = await PostgresEventStore.open(schema.client(), { channel });
      const processB = await PostgresEventStore.open(schema.client(), { channel });
      const seenA: string[] = [];
      const seenB: string[] = [];
      const subA = processA.subscribeToAll({ after: 'end' }, async (batch) => void seenA.push(...batch.map((e) => e.id)));
      const subB = processB.subscribeToAll({ after: 'end' }, async (batch) => void seenB.push(...batch.map((e) => e.id)));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const written = [event(), event(), event(), event()];
      await Promise.all(
        written.map((e, i) => (i % 2 === 0 ? processA : processB).appendToStream(`two-${i}`, [e], { expectedRevision: 'any' })),
      );
      await waitUntil(() => seenA.length >= 4 && seenB.length >= 4);
      await Promise.all([subA.stop(), subB.stop()]);
      expect(seenA).toEqual(seenB);
      expect(new Set(seenA)).toEqual(new Set(written.map((e) => e.id)));
      await Promise.all([processA.close(), processB.close()]);
    });

    it('answers retries of one batch racing each other as the one append they are', async () => {
      const store = await PostgresEventStore.open(schema.client(), { channel });
      for (const expectedRevision of ['any', 'no_stream'] as const) {
        const streamId = `racing-${expectedRevision}`;
        const batch = [event(), event()];
        const results = await Promise.all(Array.from({ length: 8 }, () => store.appendToStream(streamId, batch, { expectedRevision })));
        expect(results.map((result) => result.nextExpectedRevision)).toEqual(Array(8).fill(1));
        expect(new Set(results.map((result) => positionToString(result.position))).size).toBe(1);
        expect((await store.readStream(streamId)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
      }
      await store.close();
    });

    it('refuses to change or delete recorded events', async () => {
      const sql = schema.client();
      const store = await PostgresEventStore.open(sql, { channel });
      await store.appendToStream('immutable', [event()], { expectedRevision: 'any' });
      await expect(sql.query(`UPDATE events SET data = '{"forged":true}' WHERE stream_id = 'immutable'`)).rejects.toThrow(/append-only/);
      await expect(sql.query(`DELETE FROM events WHERE stream_id = 'immutable'`)).rejects.toThrow(/append-only/);
      await expect(sql.query(`TRUNCATE events`)).rejects.toThrow(/append-only/);
      expect(await store.readStream('immutable')).toHaveLength(1);
      await store.close();
    });
  });
});

/**
 * A subscriber polling a log with nothing new: its one statement also asks whether committed
 * events wait behind an open transaction. On a table PostgreSQL has not analyzed (PGlite never
 * does on its own; a young database growing fast), that question must still walk the log-order
 * index, not scan the whole log on every poll.
 */
describe.each(EMPTY_DATABASES)('polling a log with nothing new, on %s', (_, openDatabase) => {
  it('reads the log-order index only, on a table never analyzed', async () => {
    const { sql, drop } = await openDatabase();
    const { client: recording, statements } = recordingClient(sql);
    try {
      const store = await PostgresEventStore.open(recording);
      await sql.query('ALTER TABLE events SET (autovacuum_enabled = false)');
      let last: LogPosition | undefined;
      for (let batch = 0; batch < 10; batch++) {
        const events = Array.from({ length: 500 }, (_, n): NewEvent => ({ id: randomUUID(), type: 'BidPlaced', data: { amount: batch * 500 + n }, metadata: {} }));
        ({ position: last } = await store.appendToStream(`polled-${batch % 3}`, events, { expectedRevision: 'any' }));
      }
      const { rows: analyzed } = await sql.query<{ stats: number }>(`SELECT count(*)::int AS stats FROM pg_statistic WHERE starelid = 'events'::regclass`);
      expect(analyzed[0]!.stats).toBe(0);

      statements.length = 0;
      expect(await store.readAll({ after: last!, maxCount: 500 })).toEqual([]);
      const [poll] = statements;
      const { rows } = await sql.query<Record<string, string>>(`EXPLAIN ${poll!.text}`, poll!.params);
      const plan = rows.map((row) => Object.values(row)[0]).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan using events_log_order/);
      expect(plan).not.toMatch(/Seq Scan/);
      await store.close();
    } finally {
      await recording.close();
      await drop();
    }
  });
});
