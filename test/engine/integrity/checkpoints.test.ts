import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  auctionCheckpointsStreamId,
  auctionRejectionsStreamId,
  auctionStreamId,
  checkpointCommandSchema,
  checkpointEventSchema,
  checkpointsDecider,
  DomainError,
  fold,
  type Actor,
  type CheckpointCommand,
  type CheckpointEvent,
  type CheckpointsState,
  type Instant,
  type SignedCheckpoint,
} from '../../../engine/domain';
import { spec } from '../given-when-then';
import { admin, AUCTION_ID, buyer, eventMetadata, metadata, plusSeconds } from '../fixtures';

const checkpoints = spec(checkpointsDecider);

/** The actor the API records checkpoints as: a SYSTEM actor, like the scheduler. */
const signer: Actor = { userId: 'signing-keys', roles: ['SYSTEM'] };
const auditor: Actor = { userId: 'auditor-1', roles: ['AUDITOR'] };

const KEY_ID = 'ed25519-7f0c9a31eecb365e';
const OTHER_KEY_ID = 'ed25519-c9e98cad03126f49';
const FIRST_SIGNED_AT: Instant = '2026-12-03T12:00:00.000Z';
const LATER: Instant = plusSeconds(FIRST_SIGNED_AT, 60);

const AUCTION_STREAM = auctionStreamId(AUCTION_ID);
const REJECTIONS_STREAM = auctionRejectionsStreamId(AUCTION_ID);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A stream as a checkpoint covers it: hashes that look real and differ with the stream and its size. */
function covered(streamId: string, size: number) {
  return {
    streamId,
    size,
    rootHash: size === 0 ? sha256('') : sha256(`root:${streamId}:${size}`),
    headHash: size === 0 ? null : sha256(`head:${streamId}:${size - 1}`),
  };
}

interface CheckpointOptions {
  /** Events covered of the auction's stream and of its refused attempts; `null` leaves the stream out. */
  readonly sizes?: readonly [number, number | null];
  readonly closed?: boolean;
  readonly auctionId?: string;
  readonly signedAt?: Instant;
  readonly keyId?: string;
  readonly extraStreams?: ReadonlyArray<readonly [string, number]>;
}

/** A signed checkpoint of AUCTION_ID: its signature an 86-character base64url value that looks like an Ed25519 signature. */
function checkpoint(options: CheckpointOptions = {}): SignedCheckpoint {
  const [auctionSize, rejectionsSize] = options.sizes ?? [3, 0];
  const auctionId = options.auctionId ?? AUCTION_ID;
  const streams = [
    covered(auctionStreamId(auctionId), auctionSize),
    ...(rejectionsSize === null ? [] : [covered(auctionRejectionsStreamId(auctionId), rejectionsSize)]),
    ...(options.extraStreams ?? []).map(([streamId, size]) => covered(streamId, size)),
  ];
  const statement = {
    format: 'provenance.checkpoint.v1' as const,
    auctionId,
    streams,
    closed: options.closed ?? false,
    signedAt: options.signedAt ?? FIRST_SIGNED_AT,
    keyId: options.keyId ?? KEY_ID,
  };
  return { ...statement, signature: createHash('sha512').update(JSON.stringify(statement)).digest('base64url') };
}

function record(data: SignedCheckpoint, actor: Actor = signer): CheckpointCommand {
  const sizes = data.streams.map((stream) => stream.size).join('/');
  return { type: 'RecordCheckpoint', data, metadata: metadata(actor, data.signedAt, `checkpoint:${data.auctionId}:${sizes}:${data.closed}`) };
}

/** What the log holds once `data` was recorded. */
function signed(data: SignedCheckpoint): CheckpointEvent {
  const command = record(data);
  return { type: 'LogCheckpointSigned', data, metadata: eventMetadata(signer, data.signedAt, command.metadata.commandId) };
}

/** Three bids and no refusal, the auction running: the usual last checkpoint. */
const first = checkpoint({ sizes: [3, 0] });

// ---------------------------------------------------------------------------------------------

describe('the checkpoints stream', () => {
  test("an auction's checkpoints are a stream of their own", () => {
    expect(auctionCheckpointsStreamId(AUCTION_ID)).toBe('auction_checkpoints-auction-1');
  });

  test('the commands and events of these tests are valid by the schemas', () => {
    expect(checkpointCommandSchema.safeParse(record(first)).success).toBe(true);
    expect(checkpointEventSchema.safeParse(signed(first)).success).toBe(true);
    expect(checkpoint().signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
  });
});

describe('RecordCheckpoint', () => {
  test('the first checkpoint is recorded as it was signed', () => {
    checkpoints
      .given([])
      .when(record(first))
      .thenEvents([
        {
          type: 'LogCheckpointSigned',
          data: first,
          metadata: { actorId: 'signing-keys', actorRoles: ['SYSTEM'], occurredAt: FIRST_SIGNED_AT, correlationId: 'corr-1', commandId: 'checkpoint:auction-1:3/0:false' },
        },
      ]);
  });

  test('the first checkpoint is recorded whatever it covers: empty streams, or an auction closed already', () => {
    const empty = checkpoint({ sizes: [0, 0] });
    checkpoints.given([]).when(record(empty)).thenEvents([signed(empty)]);
    const closed = checkpoint({ sizes: [5, 2], closed: true });
    checkpoints.given([]).when(record(closed)).thenEvents([signed(closed)]);
  });

  test("a checkpoint covering more of the auction's stream is recorded", () => {
    const next = checkpoint({ sizes: [4, 0], signedAt: LATER });
    checkpoints.given([signed(first)]).when(record(next)).thenEvents([signed(next)]);
  });

  test('a checkpoint covering more of the refused attempts alone is recorded', () => {
    const next = checkpoint({ sizes: [3, 1], signedAt: LATER });
    checkpoints.given([signed(first)]).when(record(next)).thenEvents([signed(next)]);
  });

  test('a checkpoint that covers nothing more but finds the auction closed is recorded: its result is in it', () => {
    const next = checkpoint({ sizes: [3, 0], closed: true, signedAt: LATER });
    checkpoints.given([signed(first)]).when(record(next)).thenEvents([signed(next)]);
  });

  test('a checkpoint that covers a new stream with events, beside all the ones before, is recorded', () => {
    const next = checkpoint({ sizes: [3, 0], extraStreams: [['auction_notes-auction-1', 2]], signedAt: LATER });
    checkpoints.given([signed(first)]).when(record(next)).thenEvents([signed(next)]);
  });

  test('the same state signed again decides nothing', () => {
    checkpoints.given([signed(first)]).when(record(first)).thenNothing();
  });

  test('two workers signing the same state record it once: the second decides nothing, whatever its time, key and signature', () => {
    const second = checkpoint({ sizes: [3, 0], signedAt: LATER, keyId: OTHER_KEY_ID });
    expect(second.signature).not.toBe(first.signature);
    checkpoints.given([signed(first)]).when(record(second)).thenNothing();
  });

  test('a closed auction signed again, nothing more covered, decides nothing', () => {
    const closed = checkpoint({ sizes: [5, 1], closed: true });
    checkpoints
      .given([signed(closed)])
      .when(record(checkpoint({ sizes: [5, 1], closed: true, signedAt: LATER })))
      .thenNothing();
  });

  test('a checkpoint of another auction: CHECKPOINT_OF_ANOTHER_AUCTION', () => {
    const error = checkpoints
      .given([signed(first)])
      .when(record(checkpoint({ auctionId: 'auction-2', sizes: [9, 0], signedAt: LATER })))
      .thenError('CHECKPOINT_OF_ANOTHER_AUCTION', 'This checkpoint is of another auction');
    expect(error.kind).toBe('rejected');
  });

  test("a checkpoint covering less of the auction's stream than the one before: CHECKPOINT_BEHIND, naming the stream", () => {
    const error = checkpoints
      .given([signed(first)])
      .when(record(checkpoint({ sizes: [2, 0], signedAt: LATER })))
      .thenError('CHECKPOINT_BEHIND', `A checkpoint cannot cover less of ${AUCTION_STREAM} than the one before it`);
    expect(error.kind).toBe('rejected');
  });

  test('covering less of one stream is refused even when another grows: CHECKPOINT_BEHIND', () => {
    checkpoints
      .given([signed(checkpoint({ sizes: [3, 2] }))])
      .when(record(checkpoint({ sizes: [7, 1], signedAt: LATER })))
      .thenError('CHECKPOINT_BEHIND', `A checkpoint cannot cover less of ${REJECTIONS_STREAM} than the one before it`);
  });

  test('covering less is refused even when the auction is found closed: CHECKPOINT_BEHIND', () => {
    checkpoints
      .given([signed(first)])
      .when(record(checkpoint({ sizes: [2, 0], closed: true, signedAt: LATER })))
      .thenError('CHECKPOINT_BEHIND', `A checkpoint cannot cover less of ${AUCTION_STREAM} than the one before it`);
  });

  test('a checkpoint leaving out a stream the one before covered: CHECKPOINT_BEHIND', () => {
    checkpoints
      .given([signed(first)])
      .when(record(checkpoint({ sizes: [4, null], signedAt: LATER })))
      .thenError('CHECKPOINT_BEHIND', 'A checkpoint must cover every stream the one before it covered');
  });

  test('the same number of events with another root or last hash: CHECKPOINT_FORKED, the log changed between two signatures', () => {
    const forked = checkpoint({ sizes: [3, 0], signedAt: LATER });
    const rewritten = { ...forked, streams: [{ ...forked.streams[0]!, rootHash: sha256('another root') }, forked.streams[1]!] };
    const error = checkpoints
      .given([signed(first)])
      .when(record(rewritten))
      .thenError('CHECKPOINT_FORKED', `${AUCTION_STREAM} has the same number of events as at the last checkpoint, but not the same ones`);
    expect(error.kind).toBe('rejected');
    const newHead = { ...forked, streams: [{ ...forked.streams[0]!, headHash: sha256('another head') }, forked.streams[1]!] };
    checkpoints.given([signed(first)]).when(record(newHead)).thenError('CHECKPOINT_FORKED', `${AUCTION_STREAM} has the same number of events as at the last checkpoint, but not the same ones`);
  });

  test('an auction closed at the last checkpoint found open again: CHECKPOINT_BEHIND', () => {
    checkpoints
      .given([signed(checkpoint({ sizes: [5, 0], closed: true }))])
      .when(record(checkpoint({ sizes: [5, 1], closed: false, signedAt: LATER })))
      .thenError('CHECKPOINT_BEHIND', 'The auction was closed at the last checkpoint: it cannot be open at a later one');
  });

  test('a checkpoint of no stream, or of one stream twice: INVALID_CHECKPOINT', () => {
    const none = { ...first, streams: [] };
    const error = checkpoints.given([]).when(record(none)).thenError('INVALID_CHECKPOINT', 'A checkpoint covers one or more streams, each once');
    expect(error.kind).toBe('invalid');
    const twice = { ...first, streams: [first.streams[0]!, first.streams[0]!] };
    checkpoints.given([signed(first)]).when(record(twice)).thenError('INVALID_CHECKPOINT', 'A checkpoint covers one or more streams, each once');
  });

  test('only a SYSTEM actor may record a checkpoint: FORBIDDEN', () => {
    for (const actor of [admin, buyer('alice'), auditor]) {
      const error = checkpoints.given([]).when(record(first, actor)).thenError('FORBIDDEN', 'Access denied');
      expect(error.kind).toBe('forbidden');
      checkpoints
        .given([signed(first)])
        .when(record(checkpoint({ sizes: [4, 0], signedAt: LATER }), actor))
        .thenError('FORBIDDEN', 'Access denied');
    }
  });
});

describe('the checkpoints as the log holds them', () => {
  test('none before the first', () => {
    expect(fold(checkpointsDecider, [])).toBeNull();
  });

  test('the state is the last checkpoint recorded', () => {
    const next = checkpoint({ sizes: [4, 1], signedAt: LATER });
    expect(fold(checkpointsDecider, [signed(first)])).toEqual(first);
    expect(fold(checkpointsDecider, [signed(first), signed(next)])).toEqual(next);
  });
});

// ---------------------------------------------------------------------------------------------

describe('properties', () => {
  const RUNS = 300;

  /** Small sizes, so that repeats and shrinks are frequent. */
  const signingArb = fc.record({ auction: fc.nat({ max: 8 }), rejections: fc.nat({ max: 4 }), closed: fc.boolean() });

  /** The checkpoints signed one after another, each run through the decider as the command handler does. */
  function run(signings: ReadonlyArray<{ auction: number; rejections: number; closed: boolean }>) {
    let state: CheckpointsState = checkpointsDecider.initialState;
    const recorded: SignedCheckpoint[] = [];
    const outcomes: Array<'recorded' | 'nothing' | 'refused'> = [];
    signings.forEach(({ auction, rejections, closed }, index) => {
      const command = record(checkpoint({ sizes: [auction, rejections], closed, signedAt: plusSeconds(FIRST_SIGNED_AT, 60 * index) }));
      let events: CheckpointEvent[];
      try {
        events = checkpointsDecider.decide(command, state);
      } catch (error) {
        // The same auction, both streams every time: only a shrink or a reopening can be refused.
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe('CHECKPOINT_BEHIND');
        outcomes.push('refused');
        return;
      }
      expect(events.length).toBeLessThanOrEqual(1);
      for (const event of events) {
        expect(event.data).toEqual(command.data);
        recorded.push(event.data);
        state = checkpointsDecider.evolve(state, event);
      }
      outcomes.push(events.length === 0 ? 'nothing' : 'recorded');
    });
    return { recorded, outcomes, state };
  }

  const sizesOf = (data: SignedCheckpoint) => data.streams.map((stream) => stream.size);

  test('the checkpoints recorded never cover less of a stream, and each covers more or changes closed', () => {
    fc.assert(
      fc.property(fc.array(signingArb, { minLength: 1, maxLength: 30 }), (signings) => {
        const { recorded, state } = run(signings);
        // The first is always recorded.
        expect(recorded.length).toBeGreaterThanOrEqual(1);
        expect(state).toEqual(recorded.at(-1));
        for (let index = 1; index < recorded.length; index++) {
          const before = sizesOf(recorded[index - 1]!);
          const after = sizesOf(recorded[index]!);
          after.forEach((size, stream) => expect(size).toBeGreaterThanOrEqual(before[stream]!));
          const grows = after.some((size, stream) => size > before[stream]!);
          expect(grows || recorded[index]!.closed !== recorded[index - 1]!.closed).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('a checkpoint is refused exactly when it covers less than the last recorded or reopens it, and decides nothing exactly when it covers the same with the same closed', () => {
    fc.assert(
      fc.property(fc.array(signingArb, { minLength: 1, maxLength: 30 }), (signings) => {
        const { outcomes } = run(signings);
        let last: { auction: number; rejections: number; closed: boolean } | null = null;
        signings.forEach((signing, index) => {
          let expected: 'recorded' | 'nothing' | 'refused' = 'recorded';
          if (last !== null) {
            if (signing.auction < last.auction || signing.rejections < last.rejections || (last.closed && !signing.closed)) expected = 'refused';
            else if (signing.auction === last.auction && signing.rejections === last.rejections && signing.closed === last.closed) expected = 'nothing';
          }
          expect(outcomes[index], JSON.stringify({ last, signing })).toBe(expected);
          if (expected === 'recorded') last = signing;
        });
      }),
      { numRuns: RUNS },
    );
  });
});
