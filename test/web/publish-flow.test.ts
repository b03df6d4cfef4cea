import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { JerseyForm } from '../../api/contracts/admin/jersey-form';
import type { AdminListing, PublicationRequest, PublishedListing } from '../../api/contracts/admin/listings';
import { ApiError } from '../../web/src/lib/api-client';
import {
  MEDIA_REQUIRED,
  NOT_BOUND,
  NOT_CREATED,
  PUBLISHED_MESSAGE,
  publishFlowMachine,
  SAVED_MESSAGE,
} from '../../web/src/features/admin/add-item/publish-flow-machine';
import { EMPTY_ITEM, jerseyFormOf, publicationOf } from '../../web/src/features/admin/add-item/form-values';

const FORM: JerseyForm = {
  playerName: 'Tom Brady',
  jerseyNumber: 12,
  team: 'buccaneers',
  size: 'xl',
  condition: 'like-new',
  stats: {},
  mediaIds: ['m-1'],
};

function listing(overrides: Partial<AdminListing> = {}): AdminListing {
  return {
    id: 'l-1',
    ownerId: 'admin-1',
    title: 'Tom Brady #12 Buccaneers Jersey',
    description: '',
    price: '0.00',
    category: 'CLOTHING',
    condition: 'like-new',
    sportType: 'FOOTBALL',
    mediaUrls: ['/media/m-1'],
    mediaIds: ['m-1'],
    status: 'SAVED',
    slug: 'tom-brady-12-buccaneers-jersey',
    nfcUid: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    playerName: 'Tom Brady',
    teamOrClub: 'Tampa Bay Buccaneers',
    leagueOrEvent: 'NFL',
    dateOrSeason: null,
    size: 'XL',
    tags: [],
    jersey: null,
    auctionId: null,
    endsAt: null,
    ...overrides,
  } as AdminListing;
}

interface Calls {
  created: JerseyForm[];
  revised: Array<{ listingId: string; form: JerseyForm }>;
  published: Array<{ listingId: string; rules: PublicationRequest }>;
}

function start(options: { listing?: AdminListing | null; create?: () => Promise<AdminListing>; revise?: () => Promise<AdminListing>; publish?: () => Promise<PublishedListing> } = {}) {
  const calls: Calls = { created: [], revised: [], published: [] };
  const machine = publishFlowMachine.provide({
    actors: {
      createListing: fromPromise<AdminListing, JerseyForm>(async ({ input }) => {
        calls.created.push(input);
        return options.create ? options.create() : listing();
      }),
      reviseListing: fromPromise<AdminListing, { listingId: string; form: JerseyForm }>(async ({ input }) => {
        calls.revised.push(input);
        return options.revise ? options.revise() : listing();
      }),
      publishListing: fromPromise<PublishedListing, { listingId: string; rules: PublicationRequest }>(async ({ input }) => {
        calls.published.push(input);
        if (options.publish) return options.publish();
        return { message: PUBLISHED_MESSAGE, listing: listing({ status: 'LIVE', nfcUid: '04:A1' }), auction: {} as PublishedListing['auction'] };
      }),
    },
  });
  const actor = createActor(machine, { input: { listing: options.listing ?? null } });
  let changes = 0;
  actor.on('catalogueChanged', () => (changes += 1));
  actor.start();
  return { actor, calls, changes: () => changes, context: () => actor.getSnapshot().context, value: () => actor.getSnapshot().value };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the publish flow: not saved -> saved -> NFC bound -> published', () => {
  it('refuses to save without media, without calling the server: "At least one media file is required."', () => {
    const flow = start();
    flow.actor.send({ type: 'SAVE', form: { ...FORM, mediaIds: [] } });
    expect(flow.context().banner).toEqual({ kind: 'error', text: MEDIA_REQUIRED });
    expect(flow.context().fieldErrors).toEqual([{ field: 'mediaIds', message: MEDIA_REQUIRED }]);
    expect(flow.calls.created).toHaveLength(0);
  });

  it('publishing before saving says "Listing must be created before publishing"', () => {
    const flow = start();
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    expect(flow.context().banner).toEqual({ kind: 'error', text: NOT_CREATED });
    expect(flow.calls.published).toHaveLength(0);
  });

  it('saves (busy while the call runs), then says so; publishing unbound says "NFC tag must be bound before publishing"', async () => {
    const flow = start();
    flow.actor.send({ type: 'SAVE', form: FORM });
    expect(flow.actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.value()).toEqual({ saved: 'unbound' });
    expect(flow.context()).toMatchObject({ listing: { id: 'l-1' }, banner: { kind: 'success', text: SAVED_MESSAGE } });
    expect(flow.calls.created).toEqual([FORM]);
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    expect(flow.context().banner).toEqual({ kind: 'error', text: NOT_BOUND });
    expect(flow.calls.published).toHaveLength(0);
  });

  it('a tag bound by the panel makes it publishable; publishing says "Listing published successfully and is now LIVE!"', async () => {
    const flow = start({ listing: listing() });
    flow.actor.send({ type: 'TAG.CHANGED', listing: listing({ status: 'NFC_BOUND', nfcUid: '04:A1' }) });
    expect(flow.value()).toEqual({ saved: 'bound' });
    flow.actor.send({ type: 'PUBLISH', rules: { durationHours: 24 } });
    expect(flow.actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.value()).toBe('published');
    expect(flow.context().banner).toEqual({ kind: 'success', text: PUBLISHED_MESSAGE });
    expect(flow.calls.published).toEqual([{ listingId: 'l-1', rules: { durationHours: 24 } }]);
  });

  it("tells the page each time the catalogue changed (saved, bound, published), for the dashboard's counts", async () => {
    const flow = start();
    flow.actor.send({ type: 'SAVE', form: FORM });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.changes()).toBe(1);
    flow.actor.send({ type: 'TAG.CHANGED', listing: listing({ nfcUid: '04:A1' }) });
    expect(flow.changes()).toBe(2);
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.changes()).toBe(3);
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    expect(flow.changes()).toBe(3);
  });

  it('an unbound tag takes publishing away again', () => {
    const flow = start({ listing: listing({ nfcUid: '04:A1' }) });
    expect(flow.value()).toEqual({ saved: 'bound' });
    flow.actor.send({ type: 'TAG.CHANGED', listing: listing({ nfcUid: null }) });
    expect(flow.value()).toEqual({ saved: 'unbound' });
  });

  it('saving a saved listing again revises it, and it stays saved (bound stays bound)', async () => {
    const flow = start({ listing: listing({ nfcUid: '04:A1' }), revise: async () => listing({ nfcUid: '04:A1', title: 'Tom Brady #7 Buccaneers Jersey' }) });
    flow.actor.send({ type: 'SAVE', form: { ...FORM, jerseyNumber: 7 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.calls.revised).toEqual([{ listingId: 'l-1', form: { ...FORM, jerseyNumber: 7 } }]);
    expect(flow.calls.created).toHaveLength(0);
    expect(flow.value()).toEqual({ saved: 'bound' });
    expect(flow.context().listing?.title).toBe('Tom Brady #7 Buccaneers Jersey');
  });

  it("a refused save shows the server's message in the red banner and its field errors, and keeps the form", async () => {
    const flow = start({
      create: async () => {
        throw new ApiError('Failed to create jersey: Player name is required', 400, 'VALIDATION_FAILED', [{ field: 'playerName', message: 'Player name is required' }]);
      },
    });
    flow.actor.send({ type: 'SAVE', form: FORM });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.value()).toEqual({ notSaved: 'editing' });
    expect(flow.context().banner).toEqual({ kind: 'error', text: 'Failed to create jersey: Player name is required' });
    expect(flow.context().fieldErrors).toEqual([{ field: 'playerName', message: 'Player name is required' }]);
  });

  it('a draft opened for editing (a bulk-imported row) is not saved yet: Save revises and saves it; a refusal leaves it a draft', async () => {
    const draft = listing({ status: 'DRAFT', mediaIds: [], mediaUrls: [] });
    const flow = start({ listing: draft, revise: async () => listing({ status: 'SAVED' }) });
    expect(flow.value()).toEqual({ notSaved: 'editing' });
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    expect(flow.context().banner).toEqual({ kind: 'error', text: NOT_CREATED });
    flow.actor.send({ type: 'SAVE', form: FORM });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.calls.revised).toEqual([{ listingId: 'l-1', form: FORM }]);
    expect(flow.calls.created).toHaveLength(0);
    expect(flow.value()).toEqual({ saved: 'unbound' });

    const refused = start({
      listing: draft,
      revise: async () => {
        throw new ApiError('Failed to save listing: At least one media file is required.', 409);
      },
    });
    refused.actor.send({ type: 'SAVE', form: FORM });
    await vi.advanceTimersByTimeAsync(0);
    expect(refused.value()).toEqual({ notSaved: 'editing' });
  });

  it('a refused publish stays bound with the reason in the red banner', async () => {
    const flow = start({
      listing: listing({ nfcUid: '04:A1' }),
      publish: async () => {
        throw new ApiError('Failed to publish listing: Listing is not saved', 409);
      },
    });
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.value()).toEqual({ saved: 'bound' });
    expect(flow.context().banner).toEqual({ kind: 'error', text: 'Failed to publish listing: Listing is not saved' });
  });

  it('while a call runs, Save and Publish sent anyway do nothing more', async () => {
    const flow = start({ listing: listing({ nfcUid: '04:A1' }) });
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    flow.actor.send({ type: 'SAVE', form: FORM });
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.calls.published).toHaveLength(1);
    expect(flow.calls.revised).toHaveLength(0);
  });

  it('after publishing, "Add another item" starts over with nothing saved', async () => {
    const flow = start({ listing: listing({ nfcUid: '04:A1' }) });
    flow.actor.send({ type: 'PUBLISH', rules: {} });
    await vi.advanceTimersByTimeAsync(0);
    flow.actor.send({ type: 'START_OVER' });
    expect(flow.value()).toEqual({ notSaved: 'editing' });
    expect(flow.context()).toMatchObject({ listing: null, published: null, banner: null });
  });
});

describe("the Add Item form's values, checked by the contract's schemas", () => {
  const filled = { ...EMPTY_ITEM, playerName: 'Tom Brady', jerseyNumber: '12', team: 'buccaneers', size: 'xl', condition: 'like-new', touchdowns: '3', price: '250' };

  it('become the jersey form, numbers and stats included', () => {
    expect(jerseyFormOf(filled, ['m-2', 'm-1'])).toEqual({
      form: { playerName: 'Tom Brady', jerseyNumber: 12, team: 'buccaneers', size: 'xl', condition: 'like-new', stats: { touchdowns: 3 }, price: 250, mediaIds: ['m-2', 'm-1'] },
    });
  });

  it('name every problem at its field, with the messages the server gives', () => {
    const checked = jerseyFormOf({ ...EMPTY_ITEM, jerseyNumber: 'twelve', touchdowns: '-1' }, []);
    expect('errors' in checked && checked.errors).toEqual(
      expect.arrayContaining([
        { field: 'playerName', message: 'Player name is required' },
        { field: 'jerseyNumber', message: 'Jersey number must be a number' },
        { field: 'team', message: 'Team is required' },
        { field: 'touchdowns', message: 'Touchdowns must be at least 0' },
      ]),
    );
  });

  it("become the auction's rule set: the defaults as shown, a hard close, an end instead of a duration", () => {
    expect(publicationOf(EMPTY_ITEM)).toEqual({
      rules: { durationHours: 168, incrementTable: 'FLAT_ONE_DOLLAR', softClose: { windowSeconds: 180, maxExtensionHours: 24 }, reservePrice: null, buyNowPrice: null, buyersPremiumPercent: 20, paymentWindowHours: 168 },
    });
    const hard = publicationOf({ ...EMPTY_ITEM, softClose: false, reservePrice: '500', buyNowPrice: '900' });
    expect(hard).toMatchObject({ rules: { softClose: null, reservePrice: 500, buyNowPrice: 900 } });
    expect(publicationOf({ ...EMPTY_ITEM, buyersPremiumPercent: '12.5', paymentWindowHours: '0.01' })).toMatchObject({ rules: { buyersPremiumPercent: 12.5, paymentWindowHours: 0.01 } });
    expect(publicationOf({ ...EMPTY_ITEM, buyersPremiumPercent: '60' })).toMatchObject({ errors: [{ field: 'buyersPremiumPercent', message: expect.stringContaining("Buyer's premium") }] });
    const ending = publicationOf({ ...EMPTY_ITEM, timing: 'end', endsAt: '2031-05-01T18:30' });
    expect(ending).toMatchObject({ rules: { endsAt: new Date('2031-05-01T18:30').toISOString() } });
    expect(ending).not.toHaveProperty('rules.durationHours');
  });

  it('refuse rules outside the bounds, at their fields', () => {
    const checked = publicationOf({ ...EMPTY_ITEM, durationHours: '0', windowSeconds: '5' });
    expect('errors' in checked && checked.errors.map((error) => error.field)).toEqual(['durationHours', 'windowSeconds']);
    expect(publicationOf({ ...EMPTY_ITEM, timing: 'end', endsAt: '' })).toEqual({ errors: [{ field: 'endsAt', message: 'End is required' }] });
  });
});
