import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ProvisionTagRequest } from '../../api/contracts/admin/nfc';
import type { AdminListing, PublishedListing } from '../../web/src/features/admin/manage/api';
import { readManageState, toListingsQuery, writeManageState } from '../../web/src/features/admin/manage/listings-query';
import { listingActionMachine } from '../../web/src/features/admin/manage/manage-machines';
import { canEdit, canPublish, canWithdraw } from '../../web/src/features/admin/manage/row-actions';
import type { NfcTag, TagPage, TagsQuery } from '../../web/src/features/admin/nfc-tags/api';
import { provisionTagMachine, tagsTableMachine } from '../../web/src/features/admin/nfc-tags/tags-machines';
import { custodyLink, readTagsQuery, writeTagsQuery } from '../../web/src/features/admin/nfc-tags/tags-query';
import { editPath, openPath } from '../../web/src/features/admin/tables/listing-links';
import type { TableQuery } from '../../web/src/lib/paged-table-machine';
import { ApiError } from '../../web/src/lib/api-client';

function tag(uid: string, overrides: Partial<NfcTag> = {}): NfcTag {
  return {
    id: uid,
    uid,
    displayUid: uid,
    claimCode: null,
    status: 'AVAILABLE',
    availableForAssignment: true,
    listingId: null,
    createdAt: '2032-01-01T00:00:00.000Z',
    updatedAt: '2032-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function tagPage(uids: string[], number = 0, totalElements = uids.length): TagPage {
  const totalPages = Math.ceil(totalElements / 20);
  return {
    tags: { content: uids.map((uid) => tag(uid)), totalElements, totalPages, number, size: 20, first: number === 0, last: number >= totalPages - 1 },
    listings: {},
  };
}

function listing(status: AdminListing['status'], overrides: Partial<AdminListing> = {}): AdminListing {
  return {
    id: 'listing-1',
    ownerId: 'admin-1',
    title: 'Game-worn jersey',
    description: '',
    price: '150.00',
    category: 'CLOTHING',
    condition: 'GAME_WORN',
    sportType: 'FOOTBALL',
    mediaUrls: [],
    status,
    slug: 'game-worn-jersey',
    nfcUid: status === 'DRAFT' || status === 'SAVED' ? null : '04:A2:B3:C4',
    createdAt: '2032-01-01T00:00:00.000Z',
    updatedAt: '2032-01-01T00:00:00.000Z',
    playerName: null,
    teamOrClub: null,
    leagueOrEvent: null,
    dateOrSeason: null,
    size: null,
    tags: [],
    jersey: null,
    auctionId: null,
    endsAt: null,
    mediaIds: ['media-1'],
    ...overrides,
  };
}

const query = (overrides: Partial<TagsQuery> = {}): TagsQuery => ({ status: null, search: '', page: 0, ...overrides });

/** Each call waits until the test answers it, so a test decides the order answers arrive in. */
function controlled<Input, Output>() {
  const calls: Array<{ input: Input; signal: AbortSignal; resolve: (output: Output) => void; reject: (error: unknown) => void }> = [];
  const actor = fromPromise<Output, Input>(({ input, signal }) => new Promise((resolve, reject) => calls.push({ input, signal, resolve, reject })));
  return { calls, actor };
}

function startTable(initial = query()) {
  // The machine types its fetch loosely (unknown answers); the tab reads them as TagPage.
  const fetches = controlled<TableQuery, unknown>();
  const actor = createActor(tagsTableMachine.provide({ actors: { fetchPage: fetches.actor } }), { input: { query: initial } });
  actor.start();
  return { actor, calls: fetches.calls };
}

describe('an admin table: pages by filter, search and page number', () => {
  it('loads the page the query names, then shows it', async () => {
    const { actor, calls } = startTable(query({ status: 'BOUND', page: 2 }));
    expect(actor.getSnapshot().value).toBe('loading');
    expect(calls[0]!.input).toEqual(query({ status: 'BOUND', page: 2 }));
    calls[0]!.resolve(tagPage(['04:00:00:01'], 2, 41));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.answer?.tags.content.map((row) => row.uid)).toEqual(['04:00:00:01']);
  });

  it('a new query drops the rows and aborts the fetch under way, whose late answer is ignored', async () => {
    const { actor, calls } = startTable();
    calls[0]!.resolve(tagPage(['a']));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'QUERY_CHANGED', query: query({ search: '04' }) });
    expect(actor.getSnapshot().context.answer).toBeNull();
    actor.send({ type: 'QUERY_CHANGED', query: query({ search: '04A2' }) });
    expect(calls[1]!.signal.aborted).toBe(true);
    calls[2]!.resolve(tagPage(['04:A2:00:00']));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    calls[1]!.resolve(tagPage(['stale']));
    await Promise.resolve();
    expect(actor.getSnapshot().context.answer?.tags.content.map((row) => row.uid)).toEqual(['04:A2:00:00']);
  });

  it('the same query again does not fetch again', () => {
    const { actor, calls } = startTable(query({ search: 'x' }));
    actor.send({ type: 'QUERY_CHANGED', query: query({ search: 'x' }) });
    expect(calls).toHaveLength(1);
  });

  it('RELOAD asks for the same page again with the rows still shown', async () => {
    const { actor, calls } = startTable();
    calls[0]!.resolve(tagPage(['a']));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'RELOAD' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.answer?.tags.content).toHaveLength(1);
    expect(calls[1]!.input).toEqual(query());
    calls[1]!.resolve(tagPage(['new', 'a']));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.answer?.tags.content.map((row) => row.uid)).toEqual(['new', 'a']);
  });

  it('a failure names the table and the reason; Try Again recovers', async () => {
    const { actor, calls } = startTable();
    calls[0]!.reject(new ApiError('Access denied', 403, 'FORBIDDEN'));
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Failed to load NFC tags: Access denied');
    actor.send({ type: 'RETRY' });
    calls[1]!.reject(new ApiError('Failed to fetch', 0, 'NETWORK'));
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Failed to load NFC tags: Network error');
    actor.send({ type: 'RETRY' });
    calls[2]!.resolve(tagPage([]));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('the NFC Tags tab: URL state and links', () => {
  it('keeps status, search and the page (from 1) beside the tab; unknown values fall back', () => {
    const current = new URLSearchParams('tab=nfc-tags&stale=1');
    const written = writeTagsQuery(current, query({ status: 'AVAILABLE', search: '04A2', page: 1 }));
    expect(written.toString()).toBe('tab=nfc-tags&status=AVAILABLE&search=04A2&page=2');
    expect(readTagsQuery(written)).toEqual(query({ status: 'AVAILABLE', search: '04A2', page: 1 }));
    expect(writeTagsQuery(current, query()).toString()).toBe('tab=nfc-tags');
    expect(readTagsQuery(new URLSearchParams('status=LOST&page=-3'))).toEqual(query());
    expect(readTagsQuery(new URLSearchParams('page=2.5'))).toEqual(query());
  });

  it("links a tag to its chain of custody: on its listing's public page once there is one, else the public record", () => {
    const bound = tag('04:A2:B3:C4', { status: 'BOUND', listingId: 'l-1' });
    expect(custodyLink(bound, { id: 'l-1', slug: 'signed-bat', title: 'Signed bat', status: 'LIVE' })).toEqual({
      href: '/marketplace/signed-bat#chain-of-custody',
      page: true,
    });
    expect(custodyLink(bound, { id: 'l-1', slug: 'signed-bat', title: 'Signed bat', status: 'NFC_BOUND' })).toEqual({
      href: '/api/public/nfc/04%3AA2%3AB3%3AC4',
      page: false,
    });
    expect(custodyLink(tag('04:A2:B3:C5'), undefined).page).toBe(false);
  });
});

function startProvision(answer: (request: ProvisionTagRequest) => Promise<NfcTag>) {
  const requests: ProvisionTagRequest[] = [];
  const machine = provisionTagMachine.provide({
    actors: {
      provision: fromPromise<NfcTag, ProvisionTagRequest>(({ input }) => {
        requests.push(input);
        return answer(input);
      }),
    },
  });
  const actor = createActor(machine);
  const emitted: NfcTag[] = [];
  actor.on('provisioned', ({ tag: provisioned }) => emitted.push(provisioned));
  actor.start();
  return { actor, requests, emitted };
}

describe('provisioning a tag', () => {
  it('sends the request, keeps the new tag and tells the table', async () => {
    const { actor, requests, emitted } = startProvision(async (request) => tag(request.uid, { claimCode: request.claimCode ?? null }));
    actor.send({ type: 'PROVISION', request: { uid: '04:A2:B3:C4', claimCode: 'CARD-7' } });
    expect(actor.getSnapshot().value).toBe('provisioning');
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(requests).toEqual([{ uid: '04:A2:B3:C4', claimCode: 'CARD-7' }]);
    expect(actor.getSnapshot().context.provisioned?.uid).toBe('04:A2:B3:C4');
    expect(emitted.map((provisioned) => provisioned.uid)).toEqual(['04:A2:B3:C4']);
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().context.provisioned).toBeNull();
  });

  it.each([
    ['NFC_TAG_ALREADY_PROVISIONED', 409, 'NFC tag 04:A2:B3:C4 is already provisioned', 'uid'],
    ['INVALID_NFC_UID', 400, 'Please enter a valid NFC UID', 'uid'],
    ['CLAIM_CODE_TAKEN', 409, 'Claim code CARD-7 is already used by another NFC tag', 'claimCode'],
    ['INVALID_CLAIM_CODE', 400, 'Please enter a valid claim code', 'claimCode'],
    ['FORBIDDEN', 403, 'Access denied', null],
  ] as const)('shows %s at its field (or in the banner)', async (code, status, message, field) => {
    const { actor, emitted } = startProvision(async () => {
      throw new ApiError(message, status, code);
    });
    actor.send({ type: 'PROVISION', request: { uid: '04:A2:B3:C4' } });
    await waitFor(actor, (snapshot) => snapshot.matches('idle') && snapshot.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toEqual({ field, message });
    expect(emitted).toEqual([]);
  });

  it('editing the field a refusal names clears it; editing another does not', async () => {
    const { actor } = startProvision(async () => {
      throw new ApiError('NFC tag 04:A2:B3:C4 is already provisioned', 409, 'NFC_TAG_ALREADY_PROVISIONED');
    });
    actor.send({ type: 'PROVISION', request: { uid: '04:A2:B3:C4' } });
    await waitFor(actor, (snapshot) => snapshot.context.failure !== null);
    actor.send({ type: 'FIELD_EDITED', field: 'claimCode' });
    expect(actor.getSnapshot().context.failure?.field).toBe('uid');
    actor.send({ type: 'FIELD_EDITED', field: 'uid' });
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('takes one request at a time', () => {
    const { actor, requests } = startProvision(() => new Promise(() => {}));
    actor.send({ type: 'PROVISION', request: { uid: '04:A2:B3:C4' } });
    actor.send({ type: 'PROVISION', request: { uid: '04:A2:B3:C5' } });
    expect(requests).toHaveLength(1);
  });
});

describe('the Manage tab: URL state, row actions and links', () => {
  it('keeps status, search, sort and page beside the tab and maps the sort to the API', () => {
    const state = readManageState(new URLSearchParams('tab=manage&status=LIVE&search=brady&sort=price-desc&page=3'));
    expect(state).toEqual({ status: 'LIVE', search: 'brady', sort: 'price-desc', page: 2 });
    expect(toListingsQuery(state)).toEqual({ status: 'LIVE', search: 'brady', sort: 'price,desc', page: 2 });
    expect(writeManageState(new URLSearchParams('tab=manage'), state).toString()).toBe('tab=manage&status=LIVE&search=brady&sort=price-desc&page=3');
    expect(readManageState(new URLSearchParams('status=GONE&sort=popular'))).toEqual({ status: null, search: '', sort: 'newest', page: 0 });
    expect(writeManageState(new URLSearchParams('tab=manage'), { status: null, search: '', sort: 'newest', page: 0 }).toString()).toBe('tab=manage');
  });

  it('offers edit before publishing, publish with a bound tag only, withdraw until the listing is finished', () => {
    const statuses = ['DRAFT', 'SAVED', 'NFC_BOUND', 'LIVE', 'SOLD', 'UNSOLD', 'WITHDRAWN'] as const;
    expect(statuses.filter(canEdit)).toEqual(['DRAFT', 'SAVED', 'NFC_BOUND']);
    expect(statuses.filter(canPublish)).toEqual(['NFC_BOUND']);
    expect(statuses.filter(canWithdraw)).toEqual(['DRAFT', 'SAVED', 'NFC_BOUND', 'LIVE']);
  });

  it("opens a listing's public page once it has one, else its edit view", () => {
    expect(openPath(listing('LIVE'))).toBe('/marketplace/game-worn-jersey');
    expect(openPath(listing('SOLD'))).toBe('/marketplace/game-worn-jersey');
    expect(openPath(listing('WITHDRAWN'))).toBe('/admin/dashboard?tab=add-item&listing=listing-1');
    expect(editPath('a b')).toBe('/admin/dashboard?tab=add-item&listing=a+b');
  });
});

function startActions(options: { publish?: () => Promise<PublishedListing>; withdraw?: (reason: string) => Promise<AdminListing> } = {}) {
  const published: string[] = [];
  const withdrawn: Array<{ listingId: string; reason: string }> = [];
  const machine = listingActionMachine.provide({
    actors: {
      publish: fromPromise<PublishedListing, { listingId: string }>(({ input }) => {
        published.push(input.listingId);
        return options.publish ? options.publish() : new Promise(() => {});
      }),
      withdraw: fromPromise<AdminListing, { listingId: string; reason: string }>(({ input }) => {
        withdrawn.push(input);
        return options.withdraw ? options.withdraw(input.reason) : new Promise(() => {});
      }),
    },
  });
  const actor = createActor(machine);
  let changes = 0;
  actor.on('changed', () => (changes += 1));
  actor.start();
  return { actor, published, withdrawn, changes: () => changes };
}

describe('row actions: publish (confirmed) and withdraw (with a reason)', () => {
  it('publishes only a listing with its tag bound, after the admin confirms', async () => {
    const answer = { message: 'Listing published successfully and is now LIVE!', listing: listing('LIVE'), auction: {} } as PublishedListing;
    const { actor, published, changes } = startActions({ publish: async () => answer });
    actor.send({ type: 'PUBLISH', listing: listing('SAVED') });
    expect(actor.getSnapshot().value).toBe('idle');

    actor.send({ type: 'PUBLISH', listing: listing('NFC_BOUND') });
    expect(actor.getSnapshot().value).toBe('confirmingPublish');
    expect(published).toEqual([]);
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('publishing');
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(published).toEqual(['listing-1']);
    expect(actor.getSnapshot().context.notice).toBe('Game-worn jersey: Listing published successfully and is now LIVE!');
    expect(changes()).toBe(1);
  });

  it('Cancel publishes nothing', () => {
    const { actor, published } = startActions();
    actor.send({ type: 'PUBLISH', listing: listing('NFC_BOUND') });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.listing).toBeNull();
    expect(published).toEqual([]);
  });

  it('a refusal stays in the dialog; one saying the table is out of date (409) reads the table again', async () => {
    const { actor, changes } = startActions({
      publish: async () => {
        throw new ApiError('This listing cannot be published: it is WITHDRAWN', 409, 'LISTING_ALREADY_PUBLISHED');
      },
    });
    actor.send({ type: 'PUBLISH', listing: listing('NFC_BOUND') });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (snapshot) => snapshot.matches('confirmingPublish') && snapshot.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toBe('This listing cannot be published: it is WITHDRAWN');
    expect(changes()).toBe(1);
  });

  it('a network failure stays in the dialog and leaves the table alone', async () => {
    const { actor, changes } = startActions({
      publish: async () => {
        throw new ApiError('Failed to fetch', 0, 'NETWORK');
      },
    });
    actor.send({ type: 'PUBLISH', listing: listing('NFC_BOUND') });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (snapshot) => snapshot.context.failure !== null);
    expect(actor.getSnapshot().value).toBe('confirmingPublish');
    expect(changes()).toBe(0);
  });

  it('withdraws with the reason given, then tells the table', async () => {
    const { actor, withdrawn, changes } = startActions({ withdraw: async () => listing('WITHDRAWN') });
    actor.send({ type: 'WITHDRAW', listing: listing('WITHDRAWN') });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'WITHDRAW', listing: listing('LIVE') });
    expect(actor.getSnapshot().value).toBe('confirmingWithdrawal');
    actor.send({ type: 'CONFIRM_WITHDRAWAL', reason: 'Damaged in storage' });
    expect(actor.getSnapshot().value).toBe('withdrawing');
    // Busy: nothing else starts meanwhile.
    actor.send({ type: 'PUBLISH', listing: listing('NFC_BOUND') });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('withdrawing');
    await waitFor(actor, (snapshot) => snapshot.matches('idle'));
    expect(withdrawn).toEqual([{ listingId: 'listing-1', reason: 'Damaged in storage' }]);
    expect(actor.getSnapshot().context.notice).toBe('Game-worn jersey was withdrawn.');
    expect(changes()).toBe(1);
  });

  it("the server's refusal of a reason stays in the withdraw dialog", async () => {
    const { actor } = startActions({
      withdraw: async () => {
        throw new ApiError('The reason must be at most 500 characters', 400, 'REASON_TOO_LONG');
      },
    });
    actor.send({ type: 'WITHDRAW', listing: listing('SAVED') });
    actor.send({ type: 'CONFIRM_WITHDRAWAL', reason: 'x'.repeat(600) });
    await waitFor(actor, (snapshot) => snapshot.context.failure !== null);
    expect(actor.getSnapshot().value).toBe('confirmingWithdrawal');
    expect(actor.getSnapshot().context.failure).toBe('The reason must be at most 500 characters');
  });
});
