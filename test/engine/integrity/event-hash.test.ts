import { describe, expect, it } from 'vitest';
import { canonicalEventParts, canonicalPartsOfSent, chainHashes, eventHash } from '../../../engine/integrity/event-hash';

const sent = () => ({ id: 'E5D1C0B2-0000-4000-8000-000000000001', type: 'BidPlaced', data: { b: 2, a: 'é 🏈' }, metadata: { actorId: 'u' } });

describe('canonical parts of a sent event', () => {
  it('are the event\'s canonical parts for the stream it is sent to, worked out once per event object', () => {
    const event = sent();
    const parts = canonicalPartsOfSent('auction-1', event);
    expect(parts).toEqual(canonicalEventParts({ streamId: 'auction-1', ...event }));
    expect(parts.head).toBe('{"data":{"a":"é 🏈","b":2},"id":"e5d1c0b2-0000-4000-8000-000000000001","metadata":{"actorId":"u"},"previousHash":');
    expect(canonicalPartsOfSent('auction-1', event)).toBe(parts);
  });

  it('are worked out again for another stream, never taken from the one it was sent to first', () => {
    const event = sent();
    canonicalPartsOfSent('auction-1', event);
    expect(canonicalPartsOfSent('auction-2', event).tail).toBe(',"streamId":"auction-2","type":"BidPlaced"}');
  });

  it('chain as the events\' own hashes do', () => {
    const events = [sent(), { ...sent(), id: 'e5d1c0b2-0000-4000-8000-000000000002' }];
    const [first, second] = chainHashes('auction-1', 4, null, events);
    expect(first!.hash).toBe(eventHash({ streamId: 'auction-1', revision: 4, previousHash: null, ...events[0]! }));
    expect(second).toEqual({ previousHash: first!.hash, hash: eventHash({ streamId: 'auction-1', revision: 5, previousHash: first!.hash, ...events[1]! }) });
  });
});
