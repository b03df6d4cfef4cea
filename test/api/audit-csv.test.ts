import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportCsv } from '../../api/audit/log';
import { AUDIT_CSV_COLUMNS } from '../../api/contracts/audit';
import { auctionRejectionsStreamId } from '../../engine/domain';
import { InMemoryEventStore } from '../../engine/eventstore/memory';

const PRODUCT_METADATA = { actorId: '', actorRoles: ['BUYER'], occurredAt: '2026-12-01T12:00:00.000Z', correlationId: '', commandId: 'command-1' };

/**
 * What a spreadsheet would run as a formula, full-width signs included (Apple Numbers normalises
 * them); the export prefixes such a cell with '.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Strings that try hard: formula starts, quotes, separators, line breaks, any unicode. */
const cell = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc
    .tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '"', ',', '\n', "'", ' '), fc.string({ maxLength: 15 }))
    .map(([start, rest]) => start + rest),
  fc.constantFrom('\uFF1DHYPERLINK("http://x")', '\uFF0B1', '=HYPERLINK("http://x","y")', '@SUM(1+1)*cmd|\' /C calc\'!A0', '-2+3', '+1', '"quoted"', 'a,b\r\nc'),
);

describe('the CSV export', () => {
  it('is RFC 4180 and escapes every cell a spreadsheet would run as a formula (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ actorId: cell, correlationId: cell, note: cell }), { minLength: 1, maxLength: 8 }), async (rows) => {
        const store = new InMemoryEventStore();
        // Only the product's own events are exported: its streams, types, data and metadata's shape.
        // A refused bid carries free text (its code and message) among its data.
        const auctionId = randomUUID();
        const streamId = auctionRejectionsStreamId(auctionId);
        const dataOf = (note: string) => ({
          auctionId,
          bidId: 'bid-1',
          bidderId: 'buyer-1',
          attempt: 'BID',
          amount: 100,
          maximum: null,
          attemptedAt: '2026-12-01T12:00:00.000Z',
          code: note,
          message: note,
          priceAtAttempt: null,
        });
        const metadataOf = (row: { actorId: string; correlationId: string }) => ({ ...PRODUCT_METADATA, actorId: row.actorId, correlationId: row.correlationId });
        await store.appendToStream(
          streamId,
          rows.map((row) => ({ id: randomUUID(), type: 'BidRejected', data: dataOf(row.note), metadata: metadataOf(row) })),
          { expectedRevision: 'no_stream' },
        );
        const csv = await text(exportCsv(store, { stream: streamId, limit: 1 }));
        const records = parse(csv, { relax_quotes: false }) as string[][];
        expect(records[0]).toEqual([...AUDIT_CSV_COLUMNS]);
        const escaped = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);
        expect(records.slice(1)).toEqual(
          rows.map((row, revision) => {
            const metadata = JSON.stringify(metadataOf(row));
            return [
              expect.any(String),
              streamId,
              String(revision),
              'BidRejected',
              expect.any(String),
              escaped(row.actorId),
              escaped(row.correlationId),
              JSON.stringify(dataOf(row.note)),
              metadata,
            ];
          }),
        );
        // No cell of the file, once parsed, starts a formula.
        for (const record of records) for (const value of record) expect(FORMULA_START.test(value)).toBe(false);
        await store.close();
      }),
      { numRuns: 150 },
    );
  });
});
