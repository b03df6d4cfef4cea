import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingStreamId, nfcTagStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing, type ListingStage } from '../support/marketplace';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A 7-byte UID as a reader prints it, and as the API stores it. */
function freshUid(): { typed: string; stored: string } {
  const hex = randomBytes(7).toString('hex');
  return { typed: hex, stored: hex.toUpperCase().match(/../g)!.join(':') };
}

/** A claim code no other test uses, in upper case; `prefix` groups a test's codes for searching. */
function freshClaimCode(prefix = 'PRV'): string {
  return `${prefix}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

describe.each(API_BACKENDS)('admin NFC tags and binding on %s', (backend) => {
  let api: TestApi;
  let adminToken: string;
  let buyerToken: string;
  beforeAll(async () => {
    api = await startTestApi(backend);
    adminToken = (await api.signUp('ADMIN')).tokens.accessToken;
    buyerToken = (await api.signUp('BUYER')).tokens.accessToken;
  });
  afterAll(async () => api.close());

  const provision = (body: unknown) => api.call('POST', '/api/admin/nfc/tags/provision', { token: adminToken, body });
  const provisionTag = async (claimCode: string | null = null) => {
    const uid = freshUid();
    const response = await provision({ uid: uid.typed, claimCode });
    expect(response.status).toBe(201);
    return { uid: uid.stored, claimCode };
  };
  const bind = (listingId: string, body: unknown, token = adminToken) => api.call('POST', `/api/admin/listings/${listingId}/bind`, { token, body });
  const listingAt = async (stage: ListingStage) => (await createMarketplaceListing(api, { stage })).listingId;
  const eventTypes = async (streamId: string) => (await api.deps.eventStore.readStream(streamId)).map((event) => event.type);

  it('documents its routes in the OpenAPI description', async () => {
    const { body } = await api.call('GET', '/docs/json');
    for (const [path, method] of [
      ['/api/admin/nfc/tags/provision', 'post'],
      ['/api/admin/nfc/tags', 'get'],
      ['/api/admin/nfc/tags/available', 'get'],
      ['/api/admin/nfc/tags/{uid}', 'get'],
      ['/api/admin/listings/{id}/bind', 'post'],
      ['/api/admin/listings/{id}/unbind', 'post'],
      ['/api/admin/listings/{id}/nfc/qr', 'post'],
    ] as const) {
      expect(body.paths, `${method} ${path}`).toHaveProperty([path, method]);
    }
  });

  it('answers every route 401 without a sign-in and 403 to a buyer, and changes nothing', async () => {
    const listingId = await listingAt('SAVED');
    const { uid } = await provisionTag();
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/api/admin/nfc/tags/provision', { uid: freshUid().typed }],
      ['GET', '/api/admin/nfc/tags', undefined],
      ['GET', '/api/admin/nfc/tags/available', undefined],
      ['GET', `/api/admin/nfc/tags/${uid}`, undefined],
      ['POST', `/api/admin/listings/${listingId}/bind`, { uid }],
      ['POST', `/api/admin/listings/${listingId}/unbind`, { reason: 'wrong tag' }],
      ['POST', `/api/admin/listings/${listingId}/nfc/qr`, undefined],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await api.call(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body).toMatchObject({ statusCode: 401, message: 'Authentication required' });
      const buyer = await api.call(method, path, { token: buyerToken, body });
      expect(buyer.status, `${method} ${path}`).toBe(403);
      expect(buyer.body).toMatchObject({ statusCode: 403, message: 'Access denied' });
    }
    expect(await eventTypes(listingStreamId(listingId))).not.toContain('ListingTagBound');
    expect(await eventTypes(nfcTagStreamId(uid))).toEqual(['NfcTagProvisioned']);
    expect(await api.deps.db.selectFrom('nfc_binding_links').select('id').where('listing_id', '=', listingId).execute()).toEqual([]);
  });

  describe('POST /api/admin/nfc/tags/provision', () => {
    it('adds the tag to the pool: UID as colon-separated upper-case pairs, claim code upper-cased', async () => {
      const uid = freshUid();
      const code = freshClaimCode();
      const response = await provision({ uid: uid.typed.match(/../g)!.join('-'), claimCode: ` ${code.toLowerCase()} ` });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: uid.stored,
        uid: uid.stored,
        displayUid: uid.stored,
        claimCode: code,
        status: 'AVAILABLE',
        availableForAssignment: true,
        listingId: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      // Straight away in the pool: the answer waited for the read model.
      expect((await api.call('GET', `/api/admin/nfc/tags/${uid.stored}`, { token: adminToken })).body).toEqual(response.body);
    });

    it('accepts a tag without a claim code', async () => {
      const uid = freshUid();
      for (const body of [{ uid: uid.typed }, { uid: freshUid().typed, claimCode: null }]) {
        const response = await provision(body);
        expect(response.status).toBe(201);
        expect(response.body.claimCode).toBeNull();
      }
    });

    it('refuses a tag provisioned already, in any spelling: 409', async () => {
      const uid = freshUid();
      expect((await provision({ uid: uid.typed })).status).toBe(201);
      const again = await provision({ uid: uid.stored.toLowerCase() });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ message: `NFC tag ${uid.stored} is already provisioned`, code: 'NFC_TAG_ALREADY_PROVISIONED' });
    });

    it("refuses a claim code another tag has, in any case: 409, and the second tag is not provisioned", async () => {
      const code = freshClaimCode();
      expect((await provision({ uid: freshUid().typed, claimCode: code })).status).toBe(201);
      const second = freshUid();
      const response = await provision({ uid: second.typed, claimCode: code.toLowerCase() });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ message: `Claim code ${code} is already used by another NFC tag`, code: 'CLAIM_CODE_TAKEN' });
      expect(await api.deps.eventStore.readStream(nfcTagStreamId(second.stored))).toEqual([]);
    });

    it('answers 400 "Please enter a valid NFC UID" or "Please enter a valid claim code"', async () => {
      for (const uid of ['', '   ', '04:A2', 'not-hex-at-all', '04A2B3C4D5E6F', '00112233445566778899AA']) {
        const response = await provision({ uid });
        expect(response.status, uid).toBe(400);
        expect(response.body).toMatchObject({ message: 'Please enter a valid NFC UID', code: 'INVALID_NFC_UID' });
      }
      for (const claimCode of ['', 'AB', 'PRV ABCD', '-PRV-1']) {
        const response = await provision({ uid: freshUid().typed, claimCode });
        expect(response.status, claimCode).toBe(400);
        expect(response.body).toMatchObject({ message: 'Please enter a valid claim code', code: 'INVALID_CLAIM_CODE' });
      }
      const missing = await provision({ claimCode: freshClaimCode() });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/^body\.uid: /);
      const extra = await provision({ uid: freshUid().typed, colour: 'red' });
      expect(extra.status).toBe(400);
    });
  });

  describe('reading the pool', () => {
    it('GET /api/admin/nfc/tags pages, filters by status and searches UIDs and claim codes in any spelling', async () => {
      const prefix = `PG${randomBytes(3).toString('hex').toUpperCase()}`;
      const tags = [];
      for (let i = 0; i < 3; i++) tags.push(await provisionTag(freshClaimCode(prefix)));
      const listingId = await listingAt('SAVED');
      expect((await bind(listingId, { uid: tags[0]!.uid })).status).toBe(200);
      const list = (query: string) => api.call('GET', `/api/admin/nfc/tags?${query}`, { token: adminToken });

      const first = await list(`search=${prefix.toLowerCase()}&size=2`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 0, size: 2, first: true, last: false });
      const second = await list(`search=${prefix}&size=2&page=1`);
      expect(second.body).toMatchObject({ totalElements: 3, number: 1, first: false, last: true });
      const seen = [...first.body.content, ...second.body.content].map((tag: { uid: string }) => tag.uid);
      expect(seen.sort()).toEqual(tags.map((tag) => tag.uid).sort());

      const bound = await list(`search=${prefix}&status=BOUND`);
      expect(bound.body.content).toEqual([expect.objectContaining({ uid: tags[0]!.uid, status: 'BOUND', availableForAssignment: false, listingId })]);
      const available = await list(`search=${prefix}&status=AVAILABLE`);
      expect(available.body.totalElements).toBe(2);

      // A UID fragment matches with or without separators, in either case.
      const fragment = tags[1]!.uid.slice(3, 11); // "A2:B3:C4"
      for (const spelling of [fragment, fragment.replace(/:/g, ''), fragment.toLowerCase().replace(/:/g, '-')]) {
        const found = await list(`search=${encodeURIComponent(spelling)}`);
        expect(found.body.content.map((tag: { uid: string }) => tag.uid), spelling).toContain(tags[1]!.uid);
      }

      expect((await list('status=LOST')).status).toBe(400);
      const pattern = await list(`search=${encodeURIComponent('%')}`);
      expect(pattern.status).toBe(400);
      expect(pattern.body.message).toBe('querystring.search: must be part of a UID or of a claim code');
      expect((await list('size=101')).status).toBe(400);
    });

    it('GET /api/admin/nfc/tags/available lists only tags free to bind', async () => {
      const prefix = `AV${randomBytes(3).toString('hex').toUpperCase()}`;
      const free = await provisionTag(freshClaimCode(prefix));
      const taken = await provisionTag(freshClaimCode(prefix));
      expect((await bind(await listingAt('SAVED'), { claimCode: taken.claimCode })).status).toBe(200);

      const response = await api.call('GET', `/api/admin/nfc/tags/available?search=${prefix}`, { token: adminToken });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([expect.objectContaining({ uid: free.uid, claimCode: free.claimCode, status: 'AVAILABLE', availableForAssignment: true })]);
      const all = await api.call('GET', '/api/admin/nfc/tags/available?limit=500', { token: adminToken });
      expect(all.body.every((tag: { status: string }) => tag.status === 'AVAILABLE')).toBe(true);
      expect(all.body.map((tag: { uid: string }) => tag.uid)).not.toContain(taken.uid);
    });

    it('GET /api/admin/nfc/tags/{uid} finds a tag by any spelling; 404 "NFC tag not found"; 400 for a UID that is none', async () => {
      const { uid } = await provisionTag();
      const found = await api.call('GET', `/api/admin/nfc/tags/${uid.replace(/:/g, '').toLowerCase()}`, { token: adminToken });
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ uid, status: 'AVAILABLE' });

      const unknown = await api.call('GET', `/api/admin/nfc/tags/${freshUid().typed}`, { token: adminToken });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ statusCode: 404, message: 'NFC tag not found' });

      const invalid = await api.call('GET', '/api/admin/nfc/tags/xyz', { token: adminToken });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ message: 'Please enter a valid NFC UID' });
    });
  });

  describe('POST /api/admin/listings/{id}/bind', () => {
    it('binds by UID: the listing becomes NFC_BOUND and the tag leaves the pool', async () => {
      const listingId = await listingAt('SAVED');
      const { uid } = await provisionTag();
      const response = await bind(listingId, { uid: uid.toLowerCase() });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ listingId, uid, status: 'BOUND', at: expect.stringMatching(ISO) });

      const listing = await api.deps.db.selectFrom('listings').select(['status', 'nfc_uid']).where('id', '=', listingId).executeTakeFirstOrThrow();
      expect(listing).toEqual({ status: 'NFC_BOUND', nfc_uid: uid });
      const tag = await api.call('GET', `/api/admin/nfc/tags/${uid}`, { token: adminToken });
      expect(tag.body).toMatchObject({ status: 'BOUND', availableForAssignment: false, listingId });

      // Asking again for the same pair is no change, and no error.
      expect((await bind(listingId, { uid })).status).toBe(200);
      expect(await eventTypes(nfcTagStreamId(uid))).toEqual(['NfcTagProvisioned', 'NfcTagBound']);
    });

    it('binds by claim code, typed in lower case', async () => {
      const listingId = await listingAt('SAVED');
      const tag = await provisionTag(freshClaimCode());
      const response = await bind(listingId, { claimCode: tag.claimCode!.toLowerCase() });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ listingId, uid: tag.uid, status: 'BOUND' });
      expect(await eventTypes(listingStreamId(listingId))).toContain('ListingTagBound');
    });

    it("answers with the spec's messages", async () => {
      const saved = await listingAt('SAVED');
      const draft = await listingAt('DRAFT');
      const tag = await provisionTag(freshClaimCode());
      const cases: Array<[string, string, unknown, number, string]> = [
        ['a draft listing', draft, { uid: tag.uid }, 409, 'Listing must be saved before binding NFC tag'],
        ['a draft listing, even with a bad UID', draft, { uid: 'nonsense' }, 409, 'Listing must be saved before binding NFC tag'],
        ['a listing that does not exist', randomUUID(), { uid: tag.uid }, 409, 'Listing must be saved before binding NFC tag'],
        ['an empty UID', saved, { uid: '' }, 400, 'Please enter a valid NFC UID'],
        ['a UID that is no UID', saved, { uid: '04:ZZ:11:22' }, 400, 'Please enter a valid NFC UID'],
        ['an empty claim code', saved, { claimCode: '' }, 400, 'Please enter a valid claim code'],
        ['a claim code that is none', saved, { claimCode: 'a b' }, 400, 'Please enter a valid claim code'],
        ['an unknown UID', saved, { uid: freshUid().typed }, 404, 'Selected tag not found'],
        ['an unknown claim code', saved, { claimCode: freshClaimCode() }, 404, 'Selected tag not found'],
        ['no tag at all', saved, {}, 400, 'Please select a tag and ensure listing is saved'],
        ['both a UID and a claim code', saved, { uid: tag.uid, claimCode: tag.claimCode }, 400, 'Send either a uid or a claimCode, not both'],
      ];
      for (const [what, listingId, body, status, message] of cases) {
        const response = await bind(listingId, body);
        expect(response.status, what).toBe(status);
        expect(response.body, what).toMatchObject({ statusCode: status, message });
      }
      expect(await eventTypes(listingStreamId(saved))).not.toContain('ListingTagBound');
      expect(await eventTypes(nfcTagStreamId(tag.uid))).toEqual(['NfcTagProvisioned']);
    });

    it('refuses a tag bound to another listing, and a listing that has a tag: 409', async () => {
      const first = await listingAt('SAVED');
      const second = await listingAt('SAVED');
      const tag = await provisionTag();
      expect((await bind(first, { uid: tag.uid })).status).toBe(200);

      const taken = await bind(second, { uid: tag.uid });
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ message: 'This NFC tag is already bound to another listing', code: 'NFC_TAG_ALREADY_BOUND' });
      const full = await bind(first, { uid: (await provisionTag()).uid });
      expect(full.status).toBe(409);
      expect(full.body).toMatchObject({ message: 'This listing already has an NFC tag bound', code: 'LISTING_ALREADY_HAS_TAG' });
    });

    it('binds one tag to exactly one of two listings asking at the same moment', async () => {
      const [a, b] = [await listingAt('SAVED'), await listingAt('SAVED')];
      const tag = await provisionTag();
      const responses = await Promise.all([bind(a, { uid: tag.uid }), bind(b, { uid: tag.uid })]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const refused = responses.find((response) => response.status === 409)!;
      expect(refused.body.message).toBe('This NFC tag is already bound to another listing');

      const winner = responses.find((response) => response.status === 200)!.body.listingId;
      expect(await eventTypes(nfcTagStreamId(tag.uid))).toEqual(['NfcTagProvisioned', 'NfcTagBound']);
      const bindings = await Promise.all([a, b].map(async (listingId) => (await eventTypes(listingStreamId(listingId))).filter((type) => type === 'ListingTagBound').length));
      expect(bindings).toEqual([a, b].map((listingId) => (listingId === winner ? 1 : 0)));
    });

    it('binds one tag to exactly one of two listings asking through two API processes at once', async () => {
      const other = await startTestApi(backend, { sharing: api });
      try {
        const otherAdmin = (await other.signUp('ADMIN')).tokens.accessToken;
        const [a, b] = [await listingAt('SAVED'), await listingAt('SAVED')];
        const tag = await provisionTag();
        const responses = await Promise.all([
          bind(a, { uid: tag.uid }),
          other.call('POST', `/api/admin/listings/${b}/bind`, { token: otherAdmin, body: { uid: tag.uid } }),
        ]);
        expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
        expect((await eventTypes(nfcTagStreamId(tag.uid))).filter((type) => type === 'NfcTagBound')).toHaveLength(1);
        const bound = await Promise.all([a, b].map(async (listingId) => (await eventTypes(listingStreamId(listingId))).includes('ListingTagBound')));
        expect(bound.filter(Boolean)).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  });

  describe('POST /api/admin/listings/{id}/unbind', () => {
    const unbind = (listingId: string, body: unknown) => api.call('POST', `/api/admin/listings/${listingId}/unbind`, { token: adminToken, body });

    it('gives the tag back to the pool before publishing; the listing is SAVED again', async () => {
      const listingId = await listingAt('SAVED');
      const tag = await provisionTag();
      await bind(listingId, { uid: tag.uid });
      const response = await unbind(listingId, { reason: 'Tag glued to the wrong jersey' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ listingId, uid: tag.uid, status: 'UNBOUND', at: expect.stringMatching(ISO) });

      const listing = await api.deps.db.selectFrom('listings').select(['status', 'nfc_uid']).where('id', '=', listingId).executeTakeFirstOrThrow();
      expect(listing).toEqual({ status: 'SAVED', nfc_uid: null });
      expect((await api.call('GET', `/api/admin/nfc/tags/${tag.uid}`, { token: adminToken })).body).toMatchObject({ status: 'AVAILABLE', listingId: null });
      const [unbound] = (await api.deps.eventStore.readStream(nfcTagStreamId(tag.uid))).filter((event) => event.type === 'NfcTagUnbound');
      expect(unbound!.data).toEqual({ uid: tag.uid, listingId, reason: 'Tag glued to the wrong jersey' });
      // And the tag can go on another item.
      expect((await bind(await listingAt('SAVED'), { uid: tag.uid })).status).toBe(200);
    });

    it('refuses without a reason, without a tag, for a live listing, for a listing that does not exist', async () => {
      const bound = await listingAt('NFC_BOUND');
      const live = await listingAt('LIVE');
      const cases: Array<[string, string, unknown, number, string]> = [
        ['no reason', bound, { reason: '  ' }, 400, 'A reason is required'],
        ['no tag bound', await listingAt('SAVED'), { reason: 'why not' }, 409, 'This listing has no NFC tag bound'],
        ['a live listing', live, { reason: 'why not' }, 409, 'The NFC tag of a published listing cannot be unbound'],
        ['no such listing', randomUUID(), { reason: 'why not' }, 404, 'Listing not found'],
      ];
      for (const [what, listingId, body, status, message] of cases) {
        const response = await unbind(listingId, body);
        expect(response.status, what).toBe(status);
        expect(response.body, what).toMatchObject({ message });
      }
      expect((await unbind(bound, {})).status).toBe(400);
      expect(await eventTypes(listingStreamId(bound))).not.toContain('ListingTagUnbound');
    });
  });
});
