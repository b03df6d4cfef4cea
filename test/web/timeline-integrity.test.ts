import { describe, expect, it } from 'vitest';
import { integrityFailures } from '../../web/src/features/audit/timeline/integrity';

const AUCTION_ID = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';
const held = (streamId: string, events: number) => ({ streamId, valid: true, events, firstInvalidRevision: null, problem: null });

describe("the timeline's banner when a log fails its check", () => {
  it('says nothing while both streams hold', () => {
    expect(integrityFailures({ integrity: [held(`auction-${AUCTION_ID}`, 6), held(`auction_rejections-${AUCTION_ID}`, 1)] })).toEqual([]);
  });

  it("names the revision and the problem, the refused attempts' log as such", () => {
    const failures = integrityFailures({
      integrity: [
        { streamId: `auction-${AUCTION_ID}`, valid: false, events: 6, firstInvalidRevision: 3, problem: 'Revision 3 was changed: its contents do not match its hash' },
        { streamId: `auction_rejections-${AUCTION_ID}`, valid: false, events: 2, firstInvalidRevision: null, problem: 'It has fewer events than the last checkpoint signed' },
      ],
    });
    expect(failures).toEqual([
      'The log of this auction fails its check at revision 3: Revision 3 was changed: its contents do not match its hash',
      "The log of this auction's refused attempts fails its check: It has fewer events than the last checkpoint signed",
    ]);
  });
});
