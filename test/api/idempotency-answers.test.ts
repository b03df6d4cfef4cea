import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys, type IdempotencyKeyStore } from '../../api/bids/idempotency';

/** The route's hooks over a store that only notes what it was asked to keep or let go. */
function hooks() {
  const kept: Array<{ statusCode: number; body: string }> = [];
  const released: string[] = [];
  const store = {
    claim: async () => ({ claimed: true as const }),
    answer: async (answer: { key: string; statusCode: number; body: string }) => void kept.push({ statusCode: answer.statusCode, body: answer.body }),
    release: async (claim: { key: string }) => void released.push(claim.key),
  } as unknown as IdempotencyKeyStore;
  const keys = idempotencyKeys({ store, clock: () => new Date(), fingerprint: (request) => request.body });
  /** One request with `key` claimed, then answered `statusCode` with `payload`. */
  const answer = async (key: string, statusCode: number, payload: unknown) => {
    const request = { headers: { 'idempotency-key': key }, actor: { userId: 'u1' }, body: {} } as unknown as FastifyRequest;
    const reply = { statusCode } as FastifyReply;
    await keys.claim(request, reply);
    expect(await keys.record(request, reply, payload)).toBe(payload);
  };
  return { kept, released, answer };
}

describe('what a claimed Idempotency-Key keeps of its answer', () => {
  it('keeps an accepted bid and a refusal, as sent', async () => {
    const { kept, released, answer } = hooks();
    await answer('accepted', 201, '{"id":"b1","receipt":{"code":"CONCURRENCY_CONFLICT"}}');
    await answer('refused', 409, '{"statusCode":409,"code":"BID_TOO_LOW","message":"Bid must be at least $60"}');
    expect(kept).toEqual([
      { statusCode: 201, body: '{"id":"b1","receipt":{"code":"CONCURRENCY_CONFLICT"}}' },
      { statusCode: 409, body: '{"statusCode":409,"code":"BID_TOO_LOW","message":"Bid must be at least $60"}' },
    ]);
    expect(released).toEqual([]);
  });

  it('lets a retry run again after "too busy", a server failure, or an answer it cannot read', async () => {
    const { kept, released, answer } = hooks();
    await answer('busy', 409, '{"statusCode":409,"code":"CONCURRENCY_CONFLICT","message":"Too many changes at once to this item"}');
    await answer('failed', 500, '{"statusCode":500,"message":"Internal Server Error"}');
    await answer('streamed', 201, Buffer.from('{}'));
    // Not JSON objects: the batch that wrote them to the table would fail for every answer in it.
    await answer('text', 409, 'Conflict');
    await answer('null', 409, 'null');
    await answer('broken', 409, '{"statusCode":409');
    await answer('plain', 200, 'ok');
    expect(released).toEqual(['busy', 'failed', 'streamed', 'text', 'null', 'broken', 'plain']);
    expect(kept).toEqual([]);
  });
});
