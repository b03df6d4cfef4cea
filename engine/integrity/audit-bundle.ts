import { z } from 'zod';
import {
  auctionRejectionsStreamId,
  auctionStreamId,
  endorsedStatement,
  keyLineProblems,
  replayAuction,
  signedCheckpointSchema,
  type AuctionState,
  type SignedCheckpoint,
} from '../domain';
import { jcs } from '../domain/integrity/canonical';
import { MerkleAccumulator, rootFromInclusionProof, inclusionProof } from '../domain/integrity/merkle';
import { anyBidReceiptSchema, receiptedBid, verifyReceipt, type AnyBidReceipt } from '../domain/integrity/receipts';
import { keyIdOf, verifySigned, type PublishedKey, type Signed } from '../domain/integrity/signatures';
import { sha256Bytes } from './event-hash';
import { verifyChain } from './verify-chain';

/**
 * An auditor's bundle: one auction's log (its stream and its refused attempts, every event with its
 * hash), the checkpoints signed over it and the keys that signed them, itself signed, written as
 * its RFC 8785 bytes. Everything needed to check it offline, with nothing but this repository.
 */
export const AUDIT_BUNDLE_FORMAT = 'provenance.audit-bundle.v1';

const hash = z.string().regex(/^[0-9a-f]{64}$/);

const bundleEventSchema = z.strictObject({
  revision: z.number().int().min(0),
  id: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: z.unknown(),
  recordedAt: z.string(),
  hash: hash.nullable(),
  previousHash: hash.nullable(),
});
export type BundleEvent = z.infer<typeof bundleEventSchema>;

const bundleKeySchema = z.strictObject({
  keyId: z.string(),
  algorithm: z.literal('Ed25519'),
  publicKey: z.string(),
  createdAt: z.string(),
  retiredAt: z.string().nullable(),
  /** The key it replaced signed it in: see signing-keys.ts. */
  endorsement: z.strictObject({ keyId: z.string(), signature: z.string() }).nullable(),
});
export type BundleKey = z.infer<typeof bundleKeySchema>;

const auditBundleSchema = z.strictObject({
  format: z.literal(AUDIT_BUNDLE_FORMAT),
  auctionId: z.string(),
  exportedAt: z.string(),
  streams: z.array(z.strictObject({ streamId: z.string(), events: z.array(bundleEventSchema) })),
  checkpoints: z.array(signedCheckpointSchema),
  keys: z.array(bundleKeySchema),
  keyId: z.string(),
  signature: z.string(),
});
export type AuditBundle = z.infer<typeof auditBundleSchema>;
export type UnsignedAuditBundle = Omit<AuditBundle, keyof Signed>;

/** The leaf of an event without a hash (its chain check has failed already): a value no event hash takes. */
const UNHASHED_LEAF = '0'.repeat(64);

/** One line of the verdict. */
export interface BundleCheck {
  readonly ok: boolean;
  readonly what: string;
}

/** How the auction ended, as the engine decides it again from the events. */
export interface ReplayedOutcome {
  readonly status: AuctionState['status'];
  readonly result: 'SOLD' | 'NO_BIDS' | 'RESERVE_NOT_MET' | null;
  readonly winnerId: string | null;
  readonly winningBidId: string | null;
  /** Cents. */
  readonly finalPrice: number | null;
  readonly closedAt: string | null;
  readonly closedBy: 'TIME' | 'BUY_NOW' | null;
  /** While it runs: the price and who leads. */
  readonly price: number | null;
  readonly leaderId: string | null;
}

export interface BundleVerdict {
  readonly valid: boolean;
  readonly auctionId: string | null;
  readonly checks: readonly BundleCheck[];
  /** The first stream revision that fails, when one does. */
  readonly firstInvalid: { readonly streamId: string; readonly revision: number; readonly problem: string } | null;
  readonly outcome: ReplayedOutcome | null;
  /** Events after the last checkpoint: chained, not yet signed. */
  readonly unsigned: number;
}

/**
 * Checks a bundle as its bytes came: canonical form, shape, keys (ids, endorsements), the export's
 * signature, every stream's chain, every checkpoint (signature, and the events it signed are the
 * ones given: sizes, Merkle roots, last hashes), then the engine decides the auction again from its
 * events and says who won at what price. `pinned`: keys the auditor got elsewhere (say, from
 * /.well-known/provenance-keys.json); absent, the bundle's own keys are used.
 */
export async function verifyAuditBundle(text: string, pinned?: readonly PublishedKey[]): Promise<BundleVerdict> {
  try {
    return await verify(text, pinned);
  } catch (error) {
    // Whatever a changed bundle holds, the answer is a verdict, never a crash.
    return { valid: false, auctionId: null, checks: [{ ok: false, what: `The bundle cannot be checked: ${(error as Error).message}` }], firstInvalid: null, outcome: null, unsigned: 0 };
  }
}

async function verify(text: string, pinned: readonly PublishedKey[] | undefined): Promise<BundleVerdict> {
  const checks: BundleCheck[] = [];
  const refused = (what: string, auctionId: string | null = null): BundleVerdict => ({
    valid: false,
    auctionId,
    checks: [...checks, { ok: false, what }],
    firstInvalid: null,
    outcome: null,
    unsigned: 0,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refused('The bundle is not JSON');
  }
  const shaped = auditBundleSchema.safeParse(parsed);
  if (!shaped.success) return refused(`The bundle is not a ${AUDIT_BUNDLE_FORMAT} bundle: ${shaped.error.issues[0]!.path.join('.')} ${shaped.error.issues[0]!.message}`);
  const bundle = shaped.data;
  let canonical: string;
  try {
    canonical = jcs(parsed);
  } catch {
    return refused('The bundle holds what JSON cannot (a lone surrogate, an infinite number)', bundle.auctionId);
  }
  checks.push(
    canonical === text
      ? { ok: true, what: 'In its canonical form (RFC 8785), byte for byte' }
      : { ok: false, what: 'Not in its canonical form (RFC 8785): its bytes were changed after export' },
  );

  const keys = await checkKeys(bundle, pinned, checks);
  checks.push(
    (await verifySigned(bundle, keys))
      ? { ok: true, what: `The export is signed by ${bundle.keyId}` }
      : { ok: false, what: `The export's signature (${bundle.keyId}) does not hold: the bundle was changed after export` },
  );

  const expected = [auctionStreamId(bundle.auctionId), auctionRejectionsStreamId(bundle.auctionId)];
  if (jcs(bundle.streams.map((stream) => stream.streamId)) !== jcs(expected)) return refused(`The bundle must hold the streams ${expected.join(' and ')}, in that order`, bundle.auctionId);
  let firstInvalid: BundleVerdict['firstInvalid'] = null;
  const fail = (streamId: string, revision: number, problem: string) => {
    firstInvalid ??= { streamId, revision, problem };
  };
  for (const stream of bundle.streams) {
    const verdict = verifyChain(stream.streamId, stream.events.map((event) => ({ ...event, streamId: stream.streamId })));
    if (verdict.valid) checks.push({ ok: true, what: `${stream.streamId}: ${stream.events.length} events, every hash and link holds` });
    else {
      checks.push({ ok: false, what: `${stream.streamId}: ${verdict.problem}` });
      fail(stream.streamId, verdict.firstInvalidRevision!, verdict.problem!);
    }
  }

  const unsigned = await checkCheckpoints(bundle, keys, checks, fail);

  const auctionEvents = bundle.streams[0]!.events;
  const replay = replayAuction(auctionEvents);
  // A closed auction's whole log is signed once it closed: a bundle whose last checkpoint says
  // otherwise lacks the very signature that vouches for the result (or had it taken out).
  const last = bundle.checkpoints.at(-1);
  if ((replay.state.status === 'ENDED' || replay.state.status === 'CANCELLED') && (!last?.closed || unsigned > 0)) {
    checks.push({ ok: false, what: 'The auction closed, but no checkpoint in the bundle signs its whole log, its close included (exported before the closing checkpoint? export it again in a minute)' });
  }
  if (replay.consistent) checks.push({ ok: true, what: `Replayed: the engine decides the ${replay.decisions} recorded commands again, each exactly as recorded` });
  else {
    checks.push({ ok: false, what: `Replay: ${replay.problem}` });
    fail(expected[0]!, replay.firstInvalidRevision, replay.problem);
  }
  return {
    valid: checks.every((check) => check.ok),
    auctionId: bundle.auctionId,
    checks,
    firstInvalid,
    outcome: outcomeOf(replay.state),
    unsigned,
  };
}

async function checkKeys(bundle: AuditBundle, pinned: readonly PublishedKey[] | undefined, checks: BundleCheck[]): Promise<PublishedKey[]> {
  const problems: string[] = keyLineProblems(bundle.keys);
  if (bundle.keys.length === 0) problems.push('The bundle carries no key');
  for (const key of bundle.keys) {
    if ((await keyIdOf(key.publicKey).catch(() => null)) !== key.keyId) problems.push(`${key.keyId} is not the id of its public key`);
    if (pinned && !pinned.some((trusted) => trusted.keyId === key.keyId && trusted.publicKey === key.publicKey)) problems.push(`${key.keyId} is not among the keys given with --keys`);
    if (key.endorsement !== null) {
      if (!(await verifySigned({ ...endorsedStatement(key), ...key.endorsement }, bundle.keys))) problems.push(`${key.keyId}'s endorsement by ${key.endorsement.keyId} does not hold`);
    }
  }
  const retired = bundle.keys.filter((key) => key.retiredAt !== null).length;
  checks.push(
    problems.length === 0
      ? { ok: true, what: `Keys: ${bundle.keys.length} (${retired} retired), each id its key's, one line of rotations from the first, each successor endorsed by the key it replaced${pinned ? ', all among the keys given' : ''}` }
      : { ok: false, what: `Keys: ${problems.join('; ')}` },
  );
  return pinned ? [...pinned] : bundle.keys;
}

/**
 * Each checkpoint: its signature, its auction, and for each stream that the bundle holds the events
 * it signed (as many, the same Merkle root, the same last hash); sizes never shrink from one to the
 * next. Returns how many events come after the last checkpoint.
 */
async function checkCheckpoints(
  bundle: AuditBundle,
  keys: readonly PublishedKey[],
  checks: BundleCheck[],
  fail: (streamId: string, revision: number, problem: string) => void,
): Promise<number> {
  const problems: string[] = [];
  const streams = new Map(bundle.streams.map((stream) => [stream.streamId, stream.events]));
  // One growing tree per stream: each checkpoint's root is read off at its size, in order of size.
  const trees = new Map<string, { tree: MerkleAccumulator; size: number }>();
  const rootAt = async (streamId: string, size: number): Promise<string> => {
    const events = streams.get(streamId)!;
    let grown = trees.get(streamId);
    if (!grown || grown.size > size) grown = { tree: new MerkleAccumulator(sha256Bytes), size: 0 };
    while (grown.size < size) await grown.tree.append(events[grown.size++]!.hash ?? UNHASHED_LEAF);
    trees.set(streamId, grown);
    return grown.tree.root();
  };
  let previous: SignedCheckpoint | undefined;
  for (const [index, checkpoint] of bundle.checkpoints.entries()) {
    const name = `Checkpoint ${index + 1} (${checkpoint.signedAt})`;
    if (checkpoint.auctionId !== bundle.auctionId) problems.push(`${name} is of another auction`);
    if (!(await verifySigned(checkpoint, keys))) problems.push(`${name}: its signature does not hold`);
    for (const signed of checkpoint.streams) {
      const events = streams.get(signed.streamId);
      if (!events) {
        problems.push(`${name} signs ${signed.streamId}, which the bundle lacks`);
        continue;
      }
      const before = previous?.streams.find((stream) => stream.streamId === signed.streamId)?.size ?? 0;
      if (signed.size < before) problems.push(`${name} signs fewer events of ${signed.streamId} than the one before it`);
      if (events.length < signed.size) {
        problems.push(`${name} signs ${signed.size} events of ${signed.streamId}; the bundle has ${events.length}`);
        fail(signed.streamId, events.length, `Revision ${events.length} is missing: checkpoint ${index + 1} signed ${signed.size} events`);
        continue;
      }
      const head = signed.size === 0 ? null : events[signed.size - 1]!.hash;
      if ((await rootAt(signed.streamId, signed.size)) !== signed.rootHash || head !== signed.headHash) {
        problems.push(`${name}: ${signed.streamId}'s first ${signed.size} events are not the ones it signed`);
        fail(signed.streamId, Math.min(before, signed.size), `Revisions ${before} to ${signed.size - 1} are not the ones checkpoint ${index + 1} signed`);
      }
    }
    previous = checkpoint;
  }
  const signedSizes = new Map(previous?.streams.map((stream) => [stream.streamId, stream.size]) ?? []);
  const unsigned = bundle.streams.reduce((sum, stream) => sum + Math.max(0, stream.events.length - (signedSizes.get(stream.streamId) ?? 0)), 0);
  checks.push(
    problems.length > 0
      ? { ok: false, what: `Checkpoints: ${problems.join('; ')}` }
      : bundle.checkpoints.length === 0
        ? { ok: true, what: 'Checkpoints: none yet (the auction has just been scheduled): nothing is signed beyond the export' }
        : { ok: true, what: `Checkpoints: ${bundle.checkpoints.length}, each signature holds and signs the very events given${previous!.closed ? '; the last signs the auction closed' : ''}${unsigned > 0 ? `; ${unsigned} events after the last are chained, not yet signed` : ''}` },
  );
  return unsigned;
}

function outcomeOf(state: AuctionState): ReplayedOutcome | null {
  if (state.status === 'UNSCHEDULED') return null;
  const closing = state.status === 'ENDED' ? state.closing : null;
  return {
    status: state.status,
    result: closing?.result ?? null,
    winnerId: closing?.winnerId ?? null,
    winningBidId: closing?.winningBidId ?? null,
    finalPrice: closing?.finalPrice ?? null,
    closedAt: closing?.closedAt ?? null,
    closedBy: closing?.closedBy ?? null,
    price: state.standing.price,
    leaderId: state.standing.leaderId,
  };
}

/**
 * A bidder's receipt against a bundle: signed by a key of the bundle's (or the pinned ones), the
 * event at its revision is its bid with its hash and amount, and a checkpoint signed it (the same
 * RFC 6962 inclusion proof the bidder gets from the API, computed here from the bundle's events).
 */
export async function verifyReceiptInBundle(bundleText: string, given: unknown, pinned?: readonly PublishedKey[]): Promise<BundleCheck[]> {
  const parsedReceipt = anyBidReceiptSchema.safeParse(given);
  if (!parsedReceipt.success) return [{ ok: false, what: `Not a receipt: ${parsedReceipt.error.issues[0]!.path.join('.')} ${parsedReceipt.error.issues[0]!.message}` }];
  // Checked as given: a signature covers every field, those the schema does not name too.
  const receipt = given as AnyBidReceipt;
  const bundle = JSON.parse(bundleText) as AuditBundle;
  const keys = pinned ?? bundle.keys;
  const checks: BundleCheck[] = [];
  const { signed, problems } = await verifyReceipt(receipt, keys);
  checks.push(signed ? { ok: true, what: `The receipt is signed by ${receipt.keyId}` } : { ok: false, what: problems[0]! });
  const stream = bundle.streams.find((candidate) => candidate.streamId === receipt.streamId);
  const event = stream?.events[receipt.revision];
  const bid = event === undefined ? null : receiptedBid(event);
  checks.push(
    bid?.bidId === receipt.bidId && event!.hash === receipt.hash && event!.previousHash === receipt.previousHash && bid.amount === Math.round(receipt.amount * 100)
      ? { ok: true, what: `It is revision ${receipt.revision} of ${receipt.streamId}: bid ${receipt.bidId} of $${receipt.amount.toFixed(2)}, with that hash` }
      : { ok: false, what: `Revision ${receipt.revision} of ${receipt.streamId} is not the receipt's bid as the receipt says it (bid, amount or hash differ)` },
  );
  const checkpoint = bundle.checkpoints.find((candidate) => (candidate.streams.find((entry) => entry.streamId === receipt.streamId)?.size ?? 0) > receipt.revision);
  if (!checkpoint || !stream) checks.push({ ok: false, what: 'No checkpoint in the bundle signs it yet' });
  else {
    const { size, rootHash } = checkpoint.streams.find((entry) => entry.streamId === receipt.streamId)!;
    const leaves = stream.events.slice(0, size).map((entry) => entry.hash ?? '');
    const proven = await inclusionProof(leaves, receipt.revision, sha256Bytes)
      .then((path) => rootFromInclusionProof(receipt.hash, receipt.revision, size, path))
      .then((root) => root === rootHash && verifySigned(checkpoint, keys))
      .catch(() => false);
    checks.push(
      proven
        ? { ok: true, what: `Checkpoint of ${checkpoint.signedAt} signs it: the inclusion proof leads to its root` }
        : { ok: false, what: `The checkpoint of ${checkpoint.signedAt} does not sign it: the inclusion proof fails` },
    );
  }
  return checks;
}
