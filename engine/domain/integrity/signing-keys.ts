import { z } from 'zod';
import type { Decider } from '../shared/decider';
import { assertNever, invalid, rejected } from '../shared/errors';
import { commandMetadataSchema, eventMetadataFor, eventMetadataSchema, messageSchema, requireRole } from '../shared/messages';
import { instantSchema } from '../shared/time';

/**
 * The keys that sign checkpoints and receipts, in the log: whoever checks a signature finds the
 * key there (and at /.well-known/provenance-keys.json), with when it was added and retired. A
 * retired key signs nothing more; what it signed stays valid, so old proofs survive a rotation.
 * The keys form one line: the first, then each successor endorsed by the key it replaced
 * (`keyLineProblems` says where a log's keys leave that line).
 */
export const SIGNING_KEYS_STREAM_ID = 'signing_keys-provenance';

const keyId = z.string().regex(/^ed25519-[0-9a-f]{16}$/, 'must be an Ed25519 key id');
/** The raw 32-byte public key, base64url (43 characters). */
const publicKey = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a raw Ed25519 public key, base64url');
const signature = z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'must be an Ed25519 signature, base64url');

const addedKey = z.strictObject({
  keyId,
  algorithm: z.literal('Ed25519'),
  publicKey,
  /**
   * On a rotation, the retiring key's signature over this key's id and public key: whoever
   * trusts the old key can trust its successor. Null for a key added on its own.
   */
  endorsement: z.strictObject({ keyId, signature }).nullable(),
});

export const signingKeyCommandSchema = z.discriminatedUnion('type', [
  messageSchema('AddSigningKey', addedKey, commandMetadataSchema),
  messageSchema('RotateSigningKey', z.strictObject({ retiring: keyId, successor: addedKey }), commandMetadataSchema),
]);
export type SigningKeyCommand = z.infer<typeof signingKeyCommandSchema>;

export const signingKeyEventSchema = z.discriminatedUnion('type', [
  messageSchema('SigningKeyAdded', addedKey.safeExtend({ addedAt: instantSchema }), eventMetadataSchema),
  messageSchema('SigningKeyRetired', z.strictObject({ keyId, retiredAt: instantSchema, successorKeyId: keyId.nullable() }), eventMetadataSchema),
]);
export type SigningKeyEvent = z.infer<typeof signingKeyEventSchema>;

export interface SigningKeyRecord {
  readonly keyId: string;
  readonly publicKey: string;
  readonly addedAt: string;
  readonly retiredAt: string | null;
  readonly endorsement: { readonly keyId: string; readonly signature: string } | null;
}

/** The keys in the order they were added. */
export type SigningKeysState = readonly SigningKeyRecord[];

/**
 * What an endorsement signs: the successor as the log records it, nothing the signer could not
 * know. Signed like any statement (signatures.ts): with the endorsing key's id beside it.
 */
export function endorsedStatement(successor: { keyId: string; publicKey: string }): {
  purpose: 'provenance.key-endorsement.v1';
  successorKeyId: string;
  successorPublicKey: string;
} {
  return { purpose: 'provenance.key-endorsement.v1', successorKeyId: successor.keyId, successorPublicKey: successor.publicKey };
}

export const signingKeysDecider: Decider<SigningKeyCommand, SigningKeyEvent, SigningKeysState> = {
  initialState: [],
  evolve(state, event) {
    switch (event.type) {
      case 'SigningKeyAdded':
        return [...state, { keyId: event.data.keyId, publicKey: event.data.publicKey, addedAt: event.data.addedAt, retiredAt: null, endorsement: event.data.endorsement }];
      case 'SigningKeyRetired':
        return state.map((key) => (key.keyId === event.data.keyId ? { ...key, retiredAt: event.data.retiredAt } : key));
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    requireRole(command.metadata.actor, 'SYSTEM');
    const metadata = eventMetadataFor(command);
    const now = command.metadata.now;
    switch (command.type) {
      case 'AddSigningKey': {
        if (command.data.endorsement !== null) throw invalid('ENDORSEMENT_ONLY_ON_ROTATION', 'A key is endorsed when it replaces another: rotate instead');
        const known = state.find((key) => key.keyId === command.data.keyId);
        if (known?.retiredAt != null) throw rejected('KEY_ALREADY_RETIRED', `Key ${known.keyId} was retired at ${known.retiredAt}: it signs nothing more`);
        // A process starting again with its key asks again: already there, nothing to add.
        if (known !== undefined && known.publicKey === command.data.publicKey) return [];
        if (known !== undefined) throw rejected('KEY_ID_TAKEN', `Key id ${command.data.keyId} names another key`);
        // The log's keys are one line of rotations from its first: whoever trusts one key can follow
        // the endorsements to every later one, and a key slipped in beside them stands out.
        if (state.length > 0) {
          throw rejected('KEY_NOT_ENDORSED', 'The log has its signing key already: a new key comes by rotation, endorsed by the key it replaces (give this process the deployment\'s key)');
        }
        return [{ type: 'SigningKeyAdded', data: { ...command.data, addedAt: now }, metadata }];
      }
      case 'RotateSigningKey': {
        const { retiring, successor } = command.data;
        const current = state.find((key) => key.keyId === retiring);
        if (current === undefined) throw rejected('KEY_NOT_FOUND', `No key ${retiring} in the log`);
        if (current.retiredAt !== null) throw rejected('KEY_ALREADY_RETIRED', `Key ${retiring} was retired at ${current.retiredAt}`);
        if (state.some((key) => key.keyId === successor.keyId)) throw rejected('KEY_ID_TAKEN', `Key ${successor.keyId} is in the log already`);
        if (successor.endorsement?.keyId !== retiring) throw rejected('ENDORSEMENT_REQUIRED', `The new key must be endorsed by the key it replaces (${retiring})`);
        return [
          { type: 'SigningKeyAdded', data: { ...successor, addedAt: now }, metadata },
          { type: 'SigningKeyRetired', data: { keyId: retiring, retiredAt: now, successorKeyId: successor.keyId }, metadata },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

/**
 * Where a list of keys (oldest first, as the log added them) leaves the one line of rotations: a
 * later key without an endorsement, or endorsed by a key that is not before it. The endorsement
 * signatures themselves are checked by whoever verifies (signatures.ts), not here.
 */
export function keyLineProblems(keys: readonly { keyId: string; endorsement: { keyId: string } | null }[]): string[] {
  return keys.flatMap((key, index) => {
    if (index === 0) return key.endorsement === null ? [] : [`${key.keyId} is the first key but names an endorsement`];
    if (key.endorsement === null) return [`${key.keyId} was added beside the keys before it, not endorsed by one of them`];
    return keys.slice(0, index).some((earlier) => earlier.keyId === key.endorsement!.keyId) ? [] : [`${key.keyId} is endorsed by ${key.endorsement.keyId}, which is not a key before it`];
  });
}
