import { describe, expect, test } from 'vitest';
import { type AuctionEvent } from '../../../engine/domain';
import { auctionOpened, auctionScheduled, ENDS_AT, eventMetadata, metadata, placeBid, plusSeconds, scheduler, STARTS_AT } from '../fixtures';
import { auction } from './auction-spec';

describe('event metadata', () => {
  test('every event of one decision carries the command actor, roles, now, correlation id and command id', () => {
    const at = plusSeconds(ENDS_AT, -60);
    const actor = { userId: 'alice', roles: ['BUYER' as const] };
    const command = {
      ...placeBid('alice', 6_000, { at }),
      metadata: metadata(actor, at, 'cmd-42', 'corr-checkout-7'),
    };
    const events = auction
      .given([auctionScheduled({ rules: { softClose: { windowSeconds: 600, latestEndsAt: plusSeconds(ENDS_AT, 3_600) } } })])
      .when(command)
      .thenEventsMatch([{ type: 'AuctionOpened' }, { type: 'BidPlaced' }, { type: 'AuctionExtended' }]);
    for (const event of events as unknown as AuctionEvent[]) {
      expect(event.metadata).toEqual({
        actorId: 'alice',
        actorRoles: ['BUYER'],
        occurredAt: at,
        correlationId: 'corr-checkout-7',
        commandId: 'cmd-42',
      });
    }
  });

  test('the open event of a scheduled history carries the scheduler as actor', () => {
    expect(auctionOpened().metadata).toEqual(eventMetadata(scheduler, STARTS_AT, 'cmd-open'));
  });
});
