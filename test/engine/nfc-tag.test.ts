import { describe, expect, test } from 'vitest';
import {
  fold,
  nfcTagDecider,
  nfcTagStreamId,
  normalizeClaimCode,
  normalizeNfcUid,
  requireClaimCode,
  requireNfcUid,
  type Actor,
  type NfcTagCommand,
  type NfcTagEvent,
} from '../../engine/domain';
import { refusal, spec } from './given-when-then';
import {
  admin,
  buyer,
  DURING,
  eventMetadata,
  LISTING_ID,
  metadata,
  nfcTagBound,
  nfcTagProvisioned,
  nfcTagUnbound,
  scheduler,
  TAG_UID,
} from './fixtures';

const tag = spec(nfcTagDecider);


// ---------------------------------------------------------------------------------------------

describe('NFC UID normalisation', () => {
  test.each([
    ['04a2b3c4d5e6f7', 'plain lower-case hex'],
    ['04A2B3C4D5E6F7', 'plain upper-case hex'],
    ['04-A2-B3-C4-D5-E6-F7', 'dash-separated'],
    ['04-a2-b3-c4-d5-e6-f7', 'dash-separated, lower case'],
    ['04:a2:b3:c4:d5:e6:f7', 'colon-separated, lower case'],
    ['04:A2:B3:C4:D5:E6:F7', 'already normalised'],
    ['04 A2 B3 C4 D5 E6 F7', 'space-separated'],
    ['  04a2b3c4d5e6f7  ', 'surrounded by spaces'],
    ['04A2:b3-C4 d5e6F7', 'mixed separators and case'],
  ])('"%s" (%s) names 04:A2:B3:C4:D5:E6:F7', (input) => {
    expect(normalizeNfcUid(input)).toBe('04:A2:B3:C4:D5:E6:F7');
    expect(requireNfcUid(input)).toBe('04:A2:B3:C4:D5:E6:F7');
  });

  test('4 to 10 bytes are accepted', () => {
    expect(normalizeNfcUid('deadbeef')).toBe('DE:AD:BE:EF');
    expect(normalizeNfcUid('E0040150C0FFEE01')).toBe('E0:04:01:50:C0:FF:EE:01');
    expect(normalizeNfcUid('00112233445566778899')).toBe('00:11:22:33:44:55:66:77:88:99');
  });

  test.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['DEADBE', 'too short: 3 bytes'],
    ['0011223344556677889900', 'too long: 11 bytes'],
    ['04A2B3C4D5E6F', 'odd number of hex digits'],
    ['04A2B3C4D5E6FG', 'not hex'],
    ['04_A2_B3_C4_D5_E6_F7', 'unknown separator'],
    ['0x04A2B3C4D5E6F7', 'hex prefix'],
  ])('"%s" (%s) is rejected: INVALID_NFC_UID "Please enter a valid NFC UID"', (input) => {
    expect(normalizeNfcUid(input)).toBeNull();
    const error = refusal(() => requireNfcUid(input));
    expect(error.code).toBe('INVALID_NFC_UID');
    expect(error.message).toBe('Please enter a valid NFC UID');
    expect(error.kind).toBe('invalid');
    expect(error.details).toEqual({ uid: input });
  });

  test('one tag has one stream, whatever form its UID is written in', () => {
    expect(nfcTagStreamId('04a2b3c4d5e6f7')).toBe('nfc_tag-04:A2:B3:C4:D5:E6:F7');
    expect(nfcTagStreamId('04-A2-B3-C4-D5-E6-F7')).toBe(nfcTagStreamId('04:a2:b3:c4:d5:e6:f7'));
  });
});

describe('claim code normalisation', () => {
  test.each([
    ['claim-0001', 'CLAIM-0001'],
    ['  abcd  ', 'ABCD'],
    ['Xy12-Ab34', 'XY12-AB34'],
  ])('"%s" is matched as "%s" (upper case)', (input, expected) => {
    expect(normalizeClaimCode(input)).toBe(expected);
    expect(requireClaimCode(input)).toBe(expected);
  });

  test.each([
    ['abc', 'too short'],
    ['A'.repeat(33), 'too long'],
    ['-abcd', 'starts with a dash'],
    ['abcd-', 'ends with a dash'],
    ['ab cd', 'inner space'],
    ['abç1', 'non-ASCII'],
  ])('"%s" (%s) is rejected: INVALID_CLAIM_CODE', (input) => {
    expect(normalizeClaimCode(input)).toBeNull();
    const error = refusal(() => requireClaimCode(input));
    expect(error.code).toBe('INVALID_CLAIM_CODE');
    expect(error.message).toBe('Please enter a valid claim code');
  });
});

// ---------------------------------------------------------------------------------------------

function provision(uid: string, claimCode: string | null, actor: Actor = admin): NfcTagCommand {
  return { type: 'ProvisionNfcTag', data: { uid, claimCode }, metadata: metadata(actor, DURING, 'cmd-provision') };
}
function bind(uid: string, listingId: string, actor: Actor = admin): NfcTagCommand {
  return { type: 'BindNfcTag', data: { uid, listingId }, metadata: metadata(actor, DURING, 'cmd-bind') };
}
function unbind(uid: string, reason: string, actor: Actor = admin): NfcTagCommand {
  return { type: 'UnbindNfcTag', data: { uid, reason }, metadata: metadata(actor, DURING, 'cmd-unbind') };
}
const stateOf = (history: NfcTagEvent[]) => fold(nfcTagDecider, history);

describe('ProvisionNfcTag', () => {
  test('provisions a tag under its normalised UID with an upper-cased claim code', () => {
    tag
      .given([])
      .when(provision('04a2b3c4d5e6f7', 'claim-0001'))
      .thenEvents([
        {
          type: 'NfcTagProvisioned',
          data: { uid: '04:A2:B3:C4:D5:E6:F7', claimCode: 'CLAIM-0001' },
          metadata: eventMetadata(admin, DURING, 'cmd-provision'),
        },
      ]);
  });

  test('a claim code is optional', () => {
    tag.given([]).when(provision('04-A2-B3-C4-D5-E6-F7', null)).thenEventsMatch([{ type: 'NfcTagProvisioned', data: { uid: TAG_UID, claimCode: null } }]);
  });

  test('a provisioned tag is AVAILABLE', () => {
    expect(stateOf([nfcTagProvisioned()])).toEqual({ status: 'AVAILABLE', uid: TAG_UID, claimCode: 'CLAIM-0001' });
  });

  test('an invalid UID: INVALID_NFC_UID', () => {
    tag.given([]).when(provision('04A2B3', null)).thenError('INVALID_NFC_UID', 'Please enter a valid NFC UID');
  });

  test('an invalid claim code: INVALID_CLAIM_CODE', () => {
    tag.given([]).when(provision(TAG_UID, 'x')).thenError('INVALID_CLAIM_CODE', 'Please enter a valid claim code');
  });

  test('provisioning twice is refused: NFC_TAG_ALREADY_PROVISIONED', () => {
    tag
      .given([nfcTagProvisioned()])
      .when(provision('04a2b3c4d5e6f7', null))
      .thenError('NFC_TAG_ALREADY_PROVISIONED', 'NFC tag 04:A2:B3:C4:D5:E6:F7 is already provisioned');
  });

  test('only an admin may provision: FORBIDDEN', () => {
    tag.given([]).when(provision(TAG_UID, null, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
    tag.given([]).when(provision(TAG_UID, null, scheduler)).thenError('FORBIDDEN', 'Access denied');
  });
});

describe('BindNfcTag', () => {
  test('binds an available tag to a listing', () => {
    tag
      .given([nfcTagProvisioned()])
      .when(bind('04a2b3c4d5e6f7', LISTING_ID))
      .thenEvents([{ type: 'NfcTagBound', data: { uid: TAG_UID, listingId: LISTING_ID }, metadata: eventMetadata(admin, DURING, 'cmd-bind') }]);
    expect(stateOf([nfcTagProvisioned(), nfcTagBound()])).toEqual({ status: 'BOUND', uid: TAG_UID, claimCode: 'CLAIM-0001', listingId: LISTING_ID });
  });

  test('an unknown tag: NFC_TAG_NOT_FOUND "Selected tag not found"', () => {
    const error = tag.given([]).when(bind(TAG_UID, LISTING_ID)).thenError('NFC_TAG_NOT_FOUND', 'Selected tag not found');
    expect(error.kind).toBe('not_found');
  });

  test('binding again to the same listing does nothing', () => {
    tag.given([nfcTagProvisioned(), nfcTagBound()]).when(bind(TAG_UID, LISTING_ID)).thenNothing();
  });

  test('a tag bound to one listing refuses another: NFC_TAG_ALREADY_BOUND', () => {
    tag
      .given([nfcTagProvisioned(), nfcTagBound()])
      .when(bind(TAG_UID, 'listing-2'))
      .thenError('NFC_TAG_ALREADY_BOUND', 'This NFC tag is already bound to another listing');
  });

  test('a freed tag can be bound to another listing', () => {
    tag
      .given([nfcTagProvisioned(), nfcTagBound(), nfcTagUnbound()])
      .when(bind(TAG_UID, 'listing-2'))
      .thenEventsMatch([{ type: 'NfcTagBound', data: { listingId: 'listing-2' } }]);
  });

  test('only an admin may bind: FORBIDDEN', () => {
    tag.given([nfcTagProvisioned()]).when(bind(TAG_UID, LISTING_ID, buyer('alice'))).thenError('FORBIDDEN', 'Access denied');
  });
});

describe('UnbindNfcTag', () => {
  test('frees a bound tag, recording the listing and the trimmed reason', () => {
    tag
      .given([nfcTagProvisioned(), nfcTagBound()])
      .when(unbind('04a2b3c4d5e6f7', '  Tag damaged  '))
      .thenEvents([
        {
          type: 'NfcTagUnbound',
          data: { uid: TAG_UID, listingId: LISTING_ID, reason: 'Tag damaged' },
          metadata: eventMetadata(admin, DURING, 'cmd-unbind'),
        },
      ]);
    expect(stateOf([nfcTagProvisioned(), nfcTagBound(), nfcTagUnbound()])).toEqual({ status: 'AVAILABLE', uid: TAG_UID, claimCode: 'CLAIM-0001' });
  });

  test('a reason is required: REASON_REQUIRED', () => {
    tag.given([nfcTagProvisioned(), nfcTagBound()]).when(unbind(TAG_UID, '  ')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('an unbound tag: NFC_TAG_NOT_BOUND', () => {
    tag.given([nfcTagProvisioned()]).when(unbind(TAG_UID, 'Tag damaged')).thenError('NFC_TAG_NOT_BOUND', 'This NFC tag is not bound to a listing');
  });

  test('an unknown tag: NFC_TAG_NOT_FOUND', () => {
    tag.given([]).when(unbind(TAG_UID, 'Tag damaged')).thenError('NFC_TAG_NOT_FOUND', 'NFC tag not found');
  });

  test('only an admin may unbind: FORBIDDEN', () => {
    tag.given([nfcTagProvisioned(), nfcTagBound()]).when(unbind(TAG_UID, 'Tag damaged', scheduler)).thenError('FORBIDDEN', 'Access denied');
  });
});
