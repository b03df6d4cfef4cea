import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  DomainError,
  decideListing,
  decideNfcTag,
  decideTagBinding,
  evolveListing,
  evolveNfcTag,
  fromMillis,
  initialListingState,
  initialNfcTagState,
  listingEventSchema,
  nfcTagEventSchema,
  nfcTagStreamId,
  normalizeNfcUid,
  type Actor,
  type CommandMetadata,
  type ListingCommand,
  type ListingDetails,
  type ListingEvent,
  type ListingState,
  type NfcTagCommand,
  type NfcTagEvent,
  type NfcTagState,
  type TagBindingCommand,
} from '../../engine/domain';

/**
 * Properties of NFC tags and their binding to listings: random interleavings of provisioning,
 * binding and unbinding several tags to several listings, through the tag decider alone and
 * through the two-aggregate binding decision, plus the UID normalisation everything keys on.
 */

const RUNS = 500;

// ---- UIDs -----------------------------------------------------------------------------------

const hex2 = (byte: number) => byte.toString(16).padStart(2, '0');
const canonical = (bytes: readonly number[]) => bytes.map((byte) => hex2(byte).toUpperCase()).join(':');

const uidBytesArb = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 10 });

/** How a person might type a UID: any separators between bytes, any case, stray whitespace around. */
interface UidStyle {
  readonly separators: readonly string[];
  readonly upper: readonly boolean[];
  readonly before: string;
  readonly after: string;
}

const uidStyleArb: fc.Arbitrary<UidStyle> = fc.record({
  separators: fc.oneof(
    // one separator throughout, as a reader or a label prints it
    fc.constantFrom('', ':', '-', ' ').map((separator) => Array.from({ length: 9 }, () => separator)),
    // anything between any two bytes
    fc.array(fc.constantFrom('', ':', '-', ' ', '\t', ' : ', ' - ', '  '), { minLength: 9, maxLength: 9 }),
  ),
  upper: fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
  before: fc.constantFrom('', ' ', '\t', '\n', '  '),
  after: fc.constantFrom('', ' ', '\t', '\n', '  '),
});

function render(bytes: readonly number[], style: UidStyle): string {
  let text = '';
  bytes.forEach((byte, index) => {
    if (index > 0) text += style.separators[index - 1] ?? '';
    [...hex2(byte)].forEach((digit, position) => {
      text += style.upper[(index * 2 + position) % style.upper.length] ? digit.toUpperCase() : digit.toLowerCase();
    });
  });
  return style.before + text + style.after;
}

/**
 * Characters a UID must never contain. Besides plain non-hex letters and symbols: look-alikes of
 * hex digits (fullwidth, Arabic-Indic, Cyrillic) and characters whose upper case is made of hex
 * digits (U+FB00 LATIN SMALL LIGATURE FF upper-cases to "FF").
 */
const FOREIGN = ['g', 'G', 'x', 'z', '_', '.', '/', '#', 'Ｆ', '０', '٣', 'а', 'е', 'ß', 'ﬀ', 'ﬁ', 'é'];

// ---- actors, listings -----------------------------------------------------------------------

const ADMIN: Actor = { userId: 'admin-1', roles: ['ADMIN'] };
const BUYER: Actor = { userId: 'bob', roles: ['BUYER'] };
const BASE_MS = Date.parse('2026-03-01T12:00:00.000Z');

const metadata = (actor: Actor, index: number): CommandMetadata => ({
  actor,
  now: fromMillis(BASE_MS + index * 1_000),
  correlationId: `corr-${index}`,
  commandId: `cmd-${index}`,
});

const DETAILS: ListingDetails = {
  title: 'Game-worn home jersey',
  description: 'Worn in the season opener.',
  category: 'CLOTHING',
  condition: 'GAME_WORN',
  sportType: 'FOOTBALL',
  price: 25_000,
  playerName: null,
  teamOrClub: null,
  leagueOrEvent: null,
  dateOrSeason: null,
  size: null,
  tags: [],
  jersey: null,
};

const LISTING_IDS = ['listing-0', 'listing-1', 'listing-2'] as const;

/** Hot loops compare first and let expect build a report only on failure. */
function mustEqual(actual: unknown, expected: unknown, message: string): void {
  if (actual !== expected) expect(actual, message).toBe(expected);
}

/** Runs a decision; a DomainError means "refused, nothing appended". Anything else fails the property. */
function attempt<T>(decide: () => T): { ok: true; value: T } | { ok: false; error: DomainError } {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0; // most random commands are refused; stacks would dominate the run
  try {
    return { ok: true, value: decide() };
  } catch (caught) {
    if (caught instanceof DomainError) return { ok: false, error: caught };
    throw caught;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

// ---- scenario data --------------------------------------------------------------------------

/** Three distinct tags (distinct bytes, so distinct canonical UIDs). */
const tagPoolArb = fc.uniqueArray(uidBytesArb, { minLength: 3, maxLength: 3, selector: canonical });

const tagIndexArb = fc.integer({ min: 0, max: 2 });
const listingIndexArb = fc.integer({ min: 0, max: 2 });
const reasonArb = fc.oneof({ weight: 5, arbitrary: fc.constant('wrong item') }, { weight: 1, arbitrary: fc.constant('  ') });
const actorArb = fc.oneof({ weight: 12, arbitrary: fc.constant(ADMIN) }, { weight: 1, arbitrary: fc.constant(BUYER) });
/** Now and then the admin mistypes the UID altogether. */
const typoArb = fc.oneof({ weight: 15, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
const claimCodeArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.constantFrom('CARD-0001', 'card-7x2q') },
  { weight: 1, arbitrary: fc.constant('!') },
);

type TagAction =
  | { readonly kind: 'provision'; readonly tag: number; readonly style: UidStyle; readonly claimCode: string | null; readonly actor: Actor }
  | { readonly kind: 'bind'; readonly tag: number; readonly style: UidStyle; readonly typo: boolean; readonly listing: number; readonly actor: Actor }
  | { readonly kind: 'unbind'; readonly tag: number; readonly style: UidStyle; readonly reason: string; readonly actor: Actor };

const provisionArb = fc.record({ tag: tagIndexArb, style: uidStyleArb, claimCode: claimCodeArb, actor: actorArb });

const tagActionArb: fc.Arbitrary<TagAction> = fc.oneof(
  { weight: 2, arbitrary: provisionArb.map((action): TagAction => ({ kind: 'provision', ...action })) },
  {
    weight: 4,
    arbitrary: fc
      .record({ tag: tagIndexArb, style: uidStyleArb, typo: typoArb, listing: listingIndexArb, actor: actorArb })
      .map((action): TagAction => ({ kind: 'bind', ...action })),
  },
  {
    weight: 2,
    arbitrary: fc.record({ tag: tagIndexArb, style: uidStyleArb, reason: reasonArb, actor: actorArb }).map((action): TagAction => ({ kind: 'unbind', ...action })),
  },
);

type BindingAction =
  | { readonly kind: 'provision'; readonly tag: number; readonly style: UidStyle; readonly claimCode: string | null; readonly actor: Actor }
  | { readonly kind: 'bind'; readonly listing: number; readonly tag: number; readonly style: UidStyle; readonly typo: boolean; readonly actor: Actor }
  | { readonly kind: 'unbind'; readonly listing: number; readonly reason: string; readonly actor: Actor }
  | { readonly kind: 'save'; readonly listing: number }
  | { readonly kind: 'publish'; readonly listing: number }
  | { readonly kind: 'outcome'; readonly listing: number; readonly sold: boolean }
  | { readonly kind: 'withdraw'; readonly listing: number };

const bindingActionArb: fc.Arbitrary<BindingAction> = fc.oneof(
  { weight: 4, arbitrary: provisionArb.map((action): BindingAction => ({ kind: 'provision', ...action })) },
  {
    weight: 12,
    arbitrary: fc
      .record({ listing: listingIndexArb, tag: tagIndexArb, style: uidStyleArb, typo: typoArb, actor: actorArb })
      .map((action): BindingAction => ({ kind: 'bind', ...action })),
  },
  {
    weight: 5,
    arbitrary: fc.record({ listing: listingIndexArb, reason: reasonArb, actor: actorArb }).map((action): BindingAction => ({ kind: 'unbind', ...action })),
  },
  { weight: 1, arbitrary: listingIndexArb.map((listing): BindingAction => ({ kind: 'save', listing })) },
  { weight: 1, arbitrary: listingIndexArb.map((listing): BindingAction => ({ kind: 'publish', listing })) },
  { weight: 1, arbitrary: fc.record({ listing: listingIndexArb, sold: fc.boolean() }).map((action): BindingAction => ({ kind: 'outcome', ...action })) },
  { weight: 1, arbitrary: listingIndexArb.map((listing): BindingAction => ({ kind: 'withdraw', listing })) },
);

/** Where each listing starts: not yet created, a draft (cannot take a tag), or saved. */
const listingStartsArb = fc.array(
  fc.oneof({ weight: 4, arbitrary: fc.constant('SAVED' as const) }, { weight: 1, arbitrary: fc.constantFrom('NONE' as const, 'DRAFT' as const) }),
  { minLength: 3, maxLength: 3 },
);

// ---- tests ----------------------------------------------------------------------------------

describe('NFC tag properties', () => {
  it('through the tag decider alone, a tag is bound to at most one listing at a time', () => {
    fc.assert(
      fc.property(tagPoolArb, fc.array(tagActionArb, { maxLength: 40, size: 'max' }), (pool, actions) => {
        const uids = pool.map(canonical);
        const tags = new Map<string, NfcTagState>(uids.map((uid) => [uid, initialNfcTagState]));
        const streams = new Map<string, NfcTagEvent[]>(uids.map((uid) => [uid, []]));
        /** Independent record of which listing each tag is bound to, built from the events alone. */
        const boundTo = new Map<string, string>();

        actions.forEach((action, index) => {
          const uid = uids[action.tag]!;
          const typed = action.kind === 'bind' && action.typo ? 'not-a-uid' : render(pool[action.tag]!, action.style);
          const listingId = action.kind === 'bind' ? LISTING_IDS[action.listing]! : '';
          const before = tags.get(uid)!;
          const command: NfcTagCommand =
            action.kind === 'provision'
              ? { type: 'ProvisionNfcTag', data: { uid: typed, claimCode: action.claimCode }, metadata: metadata(action.actor, index) }
              : action.kind === 'bind'
                ? { type: 'BindNfcTag', data: { uid: typed, listingId }, metadata: metadata(action.actor, index) }
                : { type: 'UnbindNfcTag', data: { uid: typed, reason: action.reason }, metadata: metadata(action.actor, index) };
          const outcome = attempt(() => decideNfcTag(command, before));

          // A bind of a tag bound elsewhere is refused; binding it again to its own listing is a no-op.
          if (action.kind === 'bind' && !action.typo && before.status === 'BOUND' && action.actor === ADMIN) {
            if (before.listingId === listingId) mustEqual(outcome.ok && outcome.value.length, 0, 'rebinding to the same listing is a no-op');
            else mustEqual(outcome.ok ? 'accepted' : outcome.error.code, 'NFC_TAG_ALREADY_BOUND', 'bound a bound tag elsewhere');
          }
          if (!outcome.ok) return;

          let state = before;
          for (const event of outcome.value) {
            const parsed = nfcTagEventSchema.safeParse(event);
            if (!parsed.success) expect.fail(`${event.type} is not valid data: ${parsed.error.message}`);
            mustEqual(event.data.uid, uid, 'events name the tag by its canonical UID');
            if (event.type === 'NfcTagBound') {
              mustEqual(boundTo.get(uid), undefined, `tag ${uid} bound to ${event.data.listingId} while bound to ${boundTo.get(uid)}`);
              boundTo.set(uid, event.data.listingId);
            } else if (event.type === 'NfcTagUnbound') {
              mustEqual(event.data.listingId, boundTo.get(uid), 'unbound from a listing it was not bound to');
              boundTo.delete(uid);
            }
            state = evolveNfcTag(state, event);
          }
          tags.set(uid, state);
          streams.get(uid)!.push(...outcome.value);

          // The state agrees with the events, and replaying the tag's stream rebuilds it.
          for (const [tagUid, tagState] of tags) {
            mustEqual(tagState.status === 'BOUND' ? tagState.listingId : undefined, boundTo.get(tagUid), `binding of ${tagUid}`);
            const replayed = streams.get(tagUid)!.reduce(evolveNfcTag, initialNfcTagState);
            if (!isDeepStrictEqual(replayed, tagState)) expect(replayed, `replay of ${tagUid}`).toStrictEqual(tagState);
          }
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('through the binding decision, a tag is never bound to two listings and a listing never holds two tags', () => {
    fc.assert(
      fc.property(tagPoolArb, listingStartsArb, fc.array(bindingActionArb, { maxLength: 40, size: 'max' }), (pool, starts, actions) => {
        const uids = pool.map(canonical);
        const tags = new Map<string, NfcTagState>(uids.map((uid) => [uid, initialNfcTagState]));
        const listings = new Map<string, ListingState>(LISTING_IDS.map((listingId) => [listingId, initialListingState]));
        let index = 0;

        const runListing = (command: ListingCommand) => {
          const listingId = command.data.listingId;
          const outcome = attempt(() => decideListing(command, listings.get(listingId)!));
          if (outcome.ok) listings.set(listingId, outcome.value.reduce(evolveListing, listings.get(listingId)!));
        };

        starts.forEach((start, position) => {
          const listingId = LISTING_IDS[position]!;
          if (start === 'NONE') return;
          const slug = `jersey-${position}`;
          runListing({ type: 'DraftListing', data: { listingId, slug, details: DETAILS, mediaIds: ['media-1'] }, metadata: metadata(ADMIN, index++) });
          if (start === 'SAVED') runListing({ type: 'SaveListing', data: { listingId }, metadata: metadata(ADMIN, index++) });
        });

        for (const action of actions) {
          index += 1;
          switch (action.kind) {
            case 'provision': {
              const uid = uids[action.tag]!;
              const command: NfcTagCommand = {
                type: 'ProvisionNfcTag',
                data: { uid: render(pool[action.tag]!, action.style), claimCode: action.claimCode },
                metadata: metadata(action.actor, index),
              };
              const outcome = attempt(() => decideNfcTag(command, tags.get(uid)!));
              if (outcome.ok) tags.set(uid, outcome.value.reduce(evolveNfcTag, tags.get(uid)!));
              break;
            }
            case 'save':
              runListing({ type: 'SaveListing', data: { listingId: LISTING_IDS[action.listing]! }, metadata: metadata(ADMIN, index) });
              break;
            case 'publish': {
              const listingId = LISTING_IDS[action.listing]!;
              runListing({ type: 'PublishListing', data: { listingId, auctionId: `auction-${listingId}` }, metadata: metadata(ADMIN, index) });
              break;
            }
            case 'outcome': {
              // The auction ends: a sold item keeps its tag, an unsold one may give it back.
              const listingId = LISTING_IDS[action.listing]!;
              runListing({
                type: 'RecordAuctionOutcome',
                data: action.sold
                  ? { listingId, auctionId: `auction-${listingId}`, result: 'SOLD', buyerId: 'bob', finalPrice: 30_000 }
                  : { listingId, auctionId: `auction-${listingId}`, result: 'NO_BIDS', buyerId: null, finalPrice: null },
                metadata: metadata({ userId: 'scheduler', roles: ['SYSTEM'] }, index),
              });
              break;
            }
            case 'withdraw':
              runListing({ type: 'WithdrawListing', data: { listingId: LISTING_IDS[action.listing]!, reason: 'consignor withdrew' }, metadata: metadata(ADMIN, index) });
              break;
            case 'bind':
            case 'unbind': {
              const listingId = LISTING_IDS[action.listing]!;
              const listing = listings.get(listingId)!;
              let command: TagBindingCommand;
              let tagUid: string | null;
              if (action.kind === 'bind') {
                const typed = action.typo ? 'not-a-uid' : render(pool[action.tag]!, action.style);
                command = { type: 'BindTagToListing', data: { listingId, uid: typed }, metadata: metadata(action.actor, index) };
                // The caller loads the tag's stream by its normalised UID, as nfcTagStreamId does.
                tagUid = normalizeNfcUid(typed);
              } else {
                command = { type: 'UnbindTagFromListing', data: { listingId, reason: action.reason }, metadata: metadata(action.actor, index) };
                // The caller loads the tag the listing holds.
                tagUid = listing.status === 'NONE' ? null : listing.nfcUid;
              }
              const tag = (tagUid && tags.get(tagUid)) || initialNfcTagState;
              const outcome = attempt(() => decideTagBinding(command, listing, tag));
              if (!outcome.ok) break; // refused: neither stream is appended to

              const { listingEvents, tagEvents } = outcome.value;
              for (const event of listingEvents) {
                const parsed = listingEventSchema.safeParse(event);
                if (!parsed.success) expect.fail(`${event.type} is not valid data: ${parsed.error.message}`);
              }
              for (const event of tagEvents) {
                const parsed = nfcTagEventSchema.safeParse(event);
                if (!parsed.success) expect.fail(`${event.type} is not valid data: ${parsed.error.message}`);
              }
              // The two streams record one fact: each listing-side change has its tag-side twin.
              const listingSide = listingEvents
                .filter((event) => event.type === 'ListingTagBound' || event.type === 'ListingTagUnbound')
                .map((event) => `${event.type === 'ListingTagBound' ? 'bound' : 'unbound'} ${event.data.listingId} ${event.data.uid}`);
              const tagSide = tagEvents.map((event) =>
                event.type === 'NfcTagBound'
                  ? `bound ${event.data.listingId} ${event.data.uid}`
                  : event.type === 'NfcTagUnbound'
                    ? `unbound ${event.data.listingId} ${event.data.uid}`
                    : `unexpected ${event.type}`,
              );
              expect(tagSide, 'tag events do not match listing events').toEqual(listingSide);

              listings.set(listingId, listingEvents.reduce<ListingState>((state, event: ListingEvent) => evolveListing(state, event), listing));
              if (tagEvents.length > 0) {
                if (tagUid === null) expect.fail('tag events without a tag stream');
                tags.set(tagUid, tagEvents.reduce(evolveNfcTag, tag));
              }
              break;
            }
            default: {
              const unreachable: never = action;
              throw new Error(`unknown action ${JSON.stringify(unreachable)}`);
            }
          }

          // The invariant, from both sides: tag T is bound to listing L exactly when L holds T.
          const holders = new Map<string, string[]>();
          for (const [listingId, listing] of listings) {
            if (listing.status === 'NONE') continue;
            if (listing.status === 'NFC_BOUND' && listing.nfcUid === null) expect.fail(`${listingId} is NFC_BOUND without a tag`);
            if ((listing.status === 'DRAFT' || listing.status === 'SAVED') && listing.nfcUid !== null) {
              expect.fail(`${listingId} is ${listing.status} but holds ${listing.nfcUid}`);
            }
            if (listing.nfcUid !== null) holders.set(listing.nfcUid, [...(holders.get(listing.nfcUid) ?? []), listingId]);
          }
          for (const [uid, holding] of holders) {
            if (holding.length > 1) expect.fail(`tag ${uid} is held by ${holding.join(' and ')}`);
            const tag = tags.get(uid);
            if (!tag || tag.status !== 'BOUND' || tag.listingId !== holding[0]) {
              expect.fail(`${holding[0]} holds ${uid}, but the tag is ${tag ? JSON.stringify(tag) : 'unknown'}`);
            }
          }
          for (const [uid, tag] of tags) {
            if (tag.status !== 'BOUND') continue;
            const holding = holders.get(uid) ?? [];
            if (holding.length !== 1 || holding[0] !== tag.listingId) {
              expect.fail(`tag ${uid} is bound to ${tag.listingId}, but the listings holding it are [${holding.join(', ')}]`);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('normalizeNfcUid is idempotent: a normalised UID normalises to itself', () => {
    const inputArb = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:- \t'.split('')), maxLength: 40 }),
      fc.tuple(uidBytesArb, uidStyleArb).map(([bytes, style]) => render(bytes, style)),
    );
    fc.assert(
      fc.property(inputArb, (input) => {
        const once = normalizeNfcUid(input);
        if (once === null) return;
        expect(normalizeNfcUid(once)).toBe(once);
        expect(once).toMatch(/^[0-9A-F]{2}(:[0-9A-F]{2}){3,9}$/);
      }),
      { numRuns: 1_000 },
    );
  });

  it('normalizeNfcUid accepts any separator and case variant of the same bytes, and only of the same bytes', () => {
    fc.assert(
      fc.property(uidBytesArb, uidStyleArb, uidStyleArb, uidBytesArb, (bytes, style, otherStyle, otherBytes) => {
        const typed = render(bytes, style);
        expect(normalizeNfcUid(typed), JSON.stringify(typed)).toBe(canonical(bytes));
        expect(normalizeNfcUid(render(bytes, otherStyle))).toBe(normalizeNfcUid(typed));
        // Both spellings name one tag stream, so two binds of one tag meet on one stream.
        expect(nfcTagStreamId(render(bytes, otherStyle))).toBe(nfcTagStreamId(typed));
        if (canonical(otherBytes) !== canonical(bytes)) expect(normalizeNfcUid(render(otherBytes, otherStyle))).not.toBe(normalizeNfcUid(typed));
      }),
      { numRuns: 1_000 },
    );
  });

  it('normalizeNfcUid refuses byte counts outside 4..10 and odd digit counts', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 11, maxLength: 20 })),
        uidStyleArb,
        uidBytesArb,
        fc.constantFrom(...'0123456789abcdefABCDEF'.split('')),
        (wrongLength, style, bytes, extraDigit) => {
          expect(normalizeNfcUid(render(wrongLength, style))).toBeNull();
          expect(normalizeNfcUid(render(bytes, style) + extraDigit)).toBeNull();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('normalizeNfcUid returns null for anything that is not a UID: one foreign character spoils it', () => {
    // The documented contract: "Returns null for anything that is not a UID".
    fc.assert(
      fc.property(uidBytesArb, uidStyleArb, fc.constantFrom(...FOREIGN), fc.nat(), (bytes, style, foreign, at) => {
        const typed = render(bytes, style);
        const position = at % (typed.length + 1);
        const spoiled = typed.slice(0, position) + foreign + typed.slice(position);
        expect(normalizeNfcUid(spoiled), `${JSON.stringify(spoiled)} was accepted`).toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});
