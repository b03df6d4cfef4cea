import { describe, expect, test } from 'vitest';
import {
  endorsedStatement,
  fold,
  SIGNING_KEYS_STREAM_ID,
  signingKeyCommandSchema,
  signingKeyEventSchema,
  keyLineProblems,
  signingKeysDecider,
  type Actor,
  type Instant,
  type SigningKeyCommand,
  type SigningKeyEvent,
} from '../../../engine/domain';
import { verifySigned, verifySignature, type PublishedKey } from '../../../engine/domain/integrity/signatures';
import { spec } from '../given-when-then';
import { admin, buyer, eventMetadata, metadata, plusSeconds } from '../fixtures';

const keys = spec(signingKeysDecider);

/** The actor the API records keys as: a SYSTEM actor, like the scheduler. */
const signer: Actor = { userId: 'signing-keys', roles: ['SYSTEM'] };
const auditor: Actor = { userId: 'auditor-1', roles: ['AUDITOR'] };

const ADDED_AT: Instant = '2026-11-01T09:00:00.000Z';
const ROTATED_AT: Instant = '2026-12-01T09:00:00.000Z';

/**
 * Real Ed25519 keys (made with engine/integrity/signing-key.ts): each id is `ed25519-` and the first
 * 16 hex characters of the SHA-256 of the raw public key; each endorsement is the signature the
 * endorsing key's `sign(endorsedStatement(successor))` gives, over that statement and its own key id.
 */
const FIRST = { keyId: 'ed25519-b101d4b76520bd33', publicKey: 'OO55_VXp87D6gY4ZZSzUiD78U6bl8LU80zCesnVJhkM' };
const SECOND = { keyId: 'ed25519-84c68d433c15b0a1', publicKey: '-GOH8-YVJCJDb_--F7R_7v66ONB9xU43RkI_Ag42T9k' };
const THIRD = { keyId: 'ed25519-216d034626927c17', publicKey: 'A0GzchzVg2EDZiYXKkf5WTUxl081OMc1BrpAF4a6I_M' };
/** FIRST endorsing SECOND. */
const FIRST_ENDORSES_SECOND = '4cAFOt43N6QzDwI--ar9zNYgiaZwJ2vUq1DeKjKVkQfMLrSHrUIUHGITFTmapAtGBkiOmTbX75DiD7LGUBp2CQ';
/** SECOND endorsing THIRD. */
const SECOND_ENDORSES_THIRD = 'xPGJtd_bMdx1J60Yiw2ndFxvXrXkWp-3c4GS-SWu9VhC3_xtYy-ydditRtWH32YF4oJ0NtN2SoEf_ouTtSH2AQ';
/** THIRD endorsing SECOND: an endorsement by a key that is not the retiring one. */
const THIRD_ENDORSES_SECOND = 'mQ_OVW9nkTDOfeRxKMDiESYMrq6dgffunpwFHw6KoVApQYL6xRKGRu8GXW6Gl9Ri552dEPlQ-TnlKZvmH0--Bw';

type Key = { readonly keyId: string; readonly publicKey: string };
type Endorsement = { readonly keyId: string; readonly signature: string } | null;

function addKey(key: Key, options: { actor?: Actor; now?: Instant } = {}): SigningKeyCommand {
  return {
    type: 'AddSigningKey',
    data: { keyId: key.keyId, algorithm: 'Ed25519', publicKey: key.publicKey, endorsement: null },
    metadata: metadata(options.actor ?? signer, options.now ?? ADDED_AT, `add-signing-key:${key.keyId}`),
  };
}

function rotateKey(retiring: string, successor: Key, endorsement: Endorsement, options: { actor?: Actor; now?: Instant } = {}): SigningKeyCommand {
  return {
    type: 'RotateSigningKey',
    data: { retiring, successor: { keyId: successor.keyId, algorithm: 'Ed25519', publicKey: successor.publicKey, endorsement } },
    metadata: metadata(options.actor ?? signer, options.now ?? ROTATED_AT, `rotate-signing-key:${retiring}:${successor.keyId}`),
  };
}

/** What the log holds once `key` was added at `at` (on its own, or on a rotation by `commandId`). */
function keyAdded(key: Key, at: Instant = ADDED_AT, endorsement: Endorsement = null, commandId = `add-signing-key:${key.keyId}`): SigningKeyEvent {
  return {
    type: 'SigningKeyAdded',
    data: { keyId: key.keyId, algorithm: 'Ed25519', publicKey: key.publicKey, endorsement, addedAt: at },
    metadata: eventMetadata(signer, at, commandId),
  };
}

function keyRetired(keyId: string, successorKeyId: string, at: Instant = ROTATED_AT): SigningKeyEvent {
  return {
    type: 'SigningKeyRetired',
    data: { keyId, retiredAt: at, successorKeyId },
    metadata: eventMetadata(signer, at, `rotate-signing-key:${keyId}:${successorKeyId}`),
  };
}

const endorsedBy = (keyId: string, signature: string) => ({ keyId, signature });

/** FIRST added, then rotated to SECOND. */
const rotatedOnce = (): SigningKeyEvent[] => [
  keyAdded(FIRST),
  keyAdded(SECOND, ROTATED_AT, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND), `rotate-signing-key:${FIRST.keyId}:${SECOND.keyId}`),
  keyRetired(FIRST.keyId, SECOND.keyId),
];

// ---------------------------------------------------------------------------------------------

describe('the signing keys stream', () => {
  test('is one stream for the whole log', () => {
    expect(SIGNING_KEYS_STREAM_ID).toBe('signing_keys-provenance');
  });

  test('the commands and events of these tests are valid by the schemas', () => {
    for (const command of [addKey(FIRST), rotateKey(FIRST.keyId, SECOND, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND))]) {
      expect(signingKeyCommandSchema.safeParse(command).success).toBe(true);
    }
    for (const event of rotatedOnce()) expect(signingKeyEventSchema.safeParse(event).success).toBe(true);
  });
});

describe('AddSigningKey', () => {
  test('a new key is added, with the moment of the command as addedAt', () => {
    keys
      .given([])
      .when(addKey(FIRST))
      .thenEvents([
        {
          type: 'SigningKeyAdded',
          data: { keyId: FIRST.keyId, algorithm: 'Ed25519', publicKey: FIRST.publicKey, endorsement: null, addedAt: ADDED_AT },
          metadata: { actorId: 'signing-keys', actorRoles: ['SYSTEM'], occurredAt: ADDED_AT, correlationId: 'corr-1', commandId: `add-signing-key:${FIRST.keyId}` },
        },
      ]);
  });

  test('a key beside the one in the log is refused: KEY_NOT_ENDORSED (keys come by rotation, one line from the first)', () => {
    const error = keys
      .given([keyAdded(FIRST)])
      .when(addKey(SECOND, { now: ROTATED_AT }))
      .thenError('KEY_NOT_ENDORSED', "The log has its signing key already: a new key comes by rotation, endorsed by the key it replaces (give this process the deployment's key)");
    expect(error.kind).toBe('rejected');
    keys.given(rotatedOnce()).when(addKey(THIRD, { now: plusSeconds(ROTATED_AT, 60) })).thenError('KEY_NOT_ENDORSED', "The log has its signing key already: a new key comes by rotation, endorsed by the key it replaces (give this process the deployment's key)");
  });

  test('keyLineProblems names a key added beside the line, or endorsed by a key not before it', () => {
    const first = { keyId: FIRST.keyId, endorsement: null };
    const second = { keyId: SECOND.keyId, endorsement: { keyId: FIRST.keyId } };
    expect(keyLineProblems([first, second])).toEqual([]);
    expect(keyLineProblems([first, { keyId: SECOND.keyId, endorsement: null }])).toEqual([`${SECOND.keyId} was added beside the keys before it, not endorsed by one of them`]);
    expect(keyLineProblems([first, { keyId: SECOND.keyId, endorsement: { keyId: THIRD.keyId } }])).toEqual([`${SECOND.keyId} is endorsed by ${THIRD.keyId}, which is not a key before it`]);
  });

  test('adding a key the log has already, with the same public key, decides nothing: a process starting again asks again', () => {
    keys.given([keyAdded(FIRST)]).when(addKey(FIRST, { now: ROTATED_AT })).thenNothing();
  });

  test('a key id the log has already, with another public key, is refused: KEY_ID_TAKEN', () => {
    const error = keys
      .given([keyAdded(FIRST)])
      .when(addKey({ keyId: FIRST.keyId, publicKey: SECOND.publicKey }))
      .thenError('KEY_ID_TAKEN', `Key id ${FIRST.keyId} names another key`);
    expect(error.kind).toBe('rejected');
  });

  test('a key the log retired is not added again: KEY_ALREADY_RETIRED (a process restarted with its old key)', () => {
    keys.given(rotatedOnce()).when(addKey(FIRST, { now: plusSeconds(ROTATED_AT, 60) })).thenError('KEY_ALREADY_RETIRED', `Key ${FIRST.keyId} was retired at ${ROTATED_AT}: it signs nothing more`);
  });

  test('a key added on its own carries no endorsement: ENDORSEMENT_ONLY_ON_ROTATION', () => {
    const endorsed = addKey(SECOND);
    const command = { ...endorsed, data: { ...endorsed.data, endorsement: endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND) } } as SigningKeyCommand;
    const error = keys.given([keyAdded(FIRST)]).when(command).thenError('ENDORSEMENT_ONLY_ON_ROTATION', 'A key is endorsed when it replaces another: rotate instead');
    expect(error.kind).toBe('invalid');
  });

  test('only a SYSTEM actor may add a key: FORBIDDEN', () => {
    for (const actor of [admin, buyer('alice'), auditor]) {
      const error = keys.given([]).when(addKey(FIRST, { actor })).thenError('FORBIDDEN', 'Access denied');
      expect(error.kind).toBe('forbidden');
    }
  });

  test('the role is checked before anything else: even the repeat of a known key is refused to a non-SYSTEM actor', () => {
    keys.given([keyAdded(FIRST)]).when(addKey(FIRST, { actor: admin })).thenError('FORBIDDEN', 'Access denied');
  });
});

describe('RotateSigningKey', () => {
  test('adds the endorsed successor, then retires the old key, both at the moment of the command', () => {
    const endorsement = endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND);
    const commandId = `rotate-signing-key:${FIRST.keyId}:${SECOND.keyId}`;
    keys
      .given([keyAdded(FIRST)])
      .when(rotateKey(FIRST.keyId, SECOND, endorsement))
      .thenEvents([
        {
          type: 'SigningKeyAdded',
          data: { keyId: SECOND.keyId, algorithm: 'Ed25519', publicKey: SECOND.publicKey, endorsement, addedAt: ROTATED_AT },
          metadata: eventMetadata(signer, ROTATED_AT, commandId),
        },
        {
          type: 'SigningKeyRetired',
          data: { keyId: FIRST.keyId, retiredAt: ROTATED_AT, successorKeyId: SECOND.keyId },
          metadata: eventMetadata(signer, ROTATED_AT, commandId),
        },
      ]);
  });

  test('the successor can itself be rotated, endorsed by it', () => {
    keys
      .given(rotatedOnce())
      .when(rotateKey(SECOND.keyId, THIRD, endorsedBy(SECOND.keyId, SECOND_ENDORSES_THIRD), { now: '2027-01-01T09:00:00.000Z' }))
      .thenEventsMatch([
        { type: 'SigningKeyAdded', data: { keyId: THIRD.keyId, addedAt: '2027-01-01T09:00:00.000Z', endorsement: { keyId: SECOND.keyId, signature: SECOND_ENDORSES_THIRD } } },
        { type: 'SigningKeyRetired', data: { keyId: SECOND.keyId, retiredAt: '2027-01-01T09:00:00.000Z', successorKeyId: THIRD.keyId } },
      ]);
  });

  test('a retiring key not in the log: KEY_NOT_FOUND', () => {
    keys
      .given([keyAdded(FIRST)])
      .when(rotateKey(THIRD.keyId, SECOND, endorsedBy(THIRD.keyId, THIRD_ENDORSES_SECOND)))
      .thenError('KEY_NOT_FOUND', `No key ${THIRD.keyId} in the log`);
    keys
      .given([])
      .when(rotateKey(FIRST.keyId, SECOND, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND)))
      .thenError('KEY_NOT_FOUND', `No key ${FIRST.keyId} in the log`);
  });

  test('a key retired already: KEY_ALREADY_RETIRED, naming when', () => {
    keys
      .given(rotatedOnce())
      .when(rotateKey(FIRST.keyId, THIRD, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND)))
      .thenError('KEY_ALREADY_RETIRED', `Key ${FIRST.keyId} was retired at ${ROTATED_AT}`);
  });

  test('a successor whose id is in the log already: KEY_ID_TAKEN', () => {
    keys
      .given([keyAdded(FIRST), keyAdded(SECOND)])
      .when(rotateKey(FIRST.keyId, SECOND, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND)))
      .thenError('KEY_ID_TAKEN', `Key ${SECOND.keyId} is in the log already`);
  });

  test('a key cannot succeed itself: KEY_ID_TAKEN', () => {
    keys
      .given([keyAdded(FIRST)])
      .when(rotateKey(FIRST.keyId, FIRST, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND)))
      .thenError('KEY_ID_TAKEN', `Key ${FIRST.keyId} is in the log already`);
  });

  test('a successor without an endorsement: ENDORSEMENT_REQUIRED', () => {
    keys
      .given([keyAdded(FIRST)])
      .when(rotateKey(FIRST.keyId, SECOND, null))
      .thenError('ENDORSEMENT_REQUIRED', `The new key must be endorsed by the key it replaces (${FIRST.keyId})`);
  });

  test('a successor endorsed by another key than the retiring one: ENDORSEMENT_REQUIRED', () => {
    keys
      .given([keyAdded(FIRST), keyAdded(THIRD)])
      .when(rotateKey(FIRST.keyId, SECOND, endorsedBy(THIRD.keyId, THIRD_ENDORSES_SECOND)))
      .thenError('ENDORSEMENT_REQUIRED', `The new key must be endorsed by the key it replaces (${FIRST.keyId})`);
  });

  test('only a SYSTEM actor may rotate: FORBIDDEN', () => {
    for (const actor of [admin, buyer('alice'), auditor]) {
      keys
        .given([keyAdded(FIRST)])
        .when(rotateKey(FIRST.keyId, SECOND, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND), { actor }))
        .thenError('FORBIDDEN', 'Access denied');
    }
  });
});

describe('the keys as the log holds them', () => {
  test('are folded in the order they were added, a retired key with its retiredAt', () => {
    expect(fold(signingKeysDecider, rotatedOnce())).toEqual([
      { keyId: FIRST.keyId, publicKey: FIRST.publicKey, addedAt: ADDED_AT, retiredAt: ROTATED_AT, endorsement: null },
      { keyId: SECOND.keyId, publicKey: SECOND.publicKey, addedAt: ROTATED_AT, retiredAt: null, endorsement: endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND) },
    ]);
  });

  test('the events a rotation decides, folded, give the same state', () => {
    const history = [keyAdded(FIRST)];
    const decided = signingKeysDecider.decide(rotateKey(FIRST.keyId, SECOND, endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND)), fold(signingKeysDecider, history));
    expect(fold(signingKeysDecider, [...history, ...decided])).toEqual(fold(signingKeysDecider, rotatedOnce()));
  });

  test('no keys before the first is added', () => {
    expect(fold(signingKeysDecider, [])).toEqual([]);
  });
});

describe('endorsedStatement', () => {
  test("is the successor's id and public key under a purpose, nothing else of it", () => {
    const successor = { keyId: SECOND.keyId, algorithm: 'Ed25519', publicKey: SECOND.publicKey, endorsement: endorsedBy(FIRST.keyId, FIRST_ENDORSES_SECOND) };
    expect(endorsedStatement(successor)).toEqual({ purpose: 'provenance.key-endorsement.v1', successorKeyId: SECOND.keyId, successorPublicKey: SECOND.publicKey });
  });

  test("an endorsement a rotation records verifies, signed like any statement, with the retiring key as the log publishes it", async () => {
    const published: PublishedKey[] = fold(signingKeysDecider, rotatedOnce()).map((key) => ({ ...key, algorithm: 'Ed25519', createdAt: key.addedAt }));
    const [, added] = rotatedOnce();
    if (added?.type !== 'SigningKeyAdded' || added.data.endorsement === null) throw new Error('the rotation adds an endorsed key');
    const endorsement = { ...endorsedStatement(added.data), ...added.data.endorsement };
    await expect(verifySigned(endorsement, published)).resolves.toBe(true);
  });

  test('an endorsement verifies with no other key, and over no other successor', async () => {
    await expect(verifySignature(FIRST.publicKey, { ...endorsedStatement(SECOND), keyId: FIRST.keyId }, FIRST_ENDORSES_SECOND)).resolves.toBe(true);
    await expect(verifySignature(THIRD.publicKey, { ...endorsedStatement(SECOND), keyId: FIRST.keyId }, FIRST_ENDORSES_SECOND)).resolves.toBe(false);
    await expect(verifySignature(FIRST.publicKey, { ...endorsedStatement(THIRD), keyId: FIRST.keyId }, FIRST_ENDORSES_SECOND)).resolves.toBe(false);
    await expect(verifySignature(FIRST.publicKey, { ...endorsedStatement(SECOND), keyId: THIRD.keyId }, FIRST_ENDORSES_SECOND)).resolves.toBe(false);
  });
});
