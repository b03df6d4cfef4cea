import { createHash, randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingStreamId, nfcTagStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing, type ListingStage } from '../support/marketplace';

const MINUTE = 60_000;
let now = new Date('2031-05-01T09:00:00.000Z');
const clock = () => now;

describe.each(API_BACKENDS)('phone binding links on %s', (backend) => {
  let api: TestApi;
  let admin: Awaited<ReturnType<TestApi['signUp']>>;
  beforeAll(async () => {
    api = await startTestApi(backend, { clock });
    admin = await api.signUp('ADMIN');
  });
  afterAll(async () => api.close());

  const listing = (stage: ListingStage, title?: string) => createMarketplaceListing(api, { stage, ...(title ? { title } : {}) });
  const requestQr = (listingId: string, headers?: Record<string, string>) =>
    api.call('POST', `/api/admin/listings/${listingId}/nfc/qr`, { token: admin.tokens.accessToken, ...(headers ? { headers } : {}) });
  const linkFor = async (listingId: string) => {
    const response = await requestQr(listingId);
    expect(response.status).toBe(201);
    return { ...response.body, token: new URL(response.body.url).searchParams.get('token')! } as { url: string; qrCode: string; expiresAt: string; token: string };
  };
  const provision = async (claimCode: string | null = null) => {
    const response = await api.call('POST', '/api/admin/nfc/tags/provision', { token: admin.tokens.accessToken, body: { uid: randomBytes(7).toString('hex'), claimCode } });
    expect(response.status).toBe(201);
    return response.body as { uid: string; claimCode: string | null };
  };
  const openLink = (token: string) => api.call('GET', `/api/mobile/nfc-binding/${token}`);
  const useLink = (token: string, body: unknown) => api.call('POST', `/api/mobile/nfc-binding/${token}`, { body });

  it('documents its routes in the OpenAPI description', async () => {
    const { body } = await api.call('GET', '/docs/json');
    expect(body.paths).toHaveProperty(['/api/mobile/nfc-binding/{token}', 'get']);
    expect(body.paths).toHaveProperty(['/api/mobile/nfc-binding/{token}', 'post']);
    expect(body.paths['/api/admin/listings/{id}/nfc/qr'].post.responses['201'].content['application/json'].schema.properties.qrCode.description).toContain('PNG');
  });

  describe('POST /api/admin/listings/{id}/nfc/qr', () => {
    it('answers an absolute /mobile link with a random token, kept only as its hash, expiring in 15 minutes', async () => {
      const { listingId } = await listing('SAVED');
      const link = await linkFor(listingId);

      const url = new URL(link.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${api.url}/mobile`);
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
      expect(link.expiresAt).toBe(new Date(now.getTime() + 15 * MINUTE).toISOString());
      const rows = await api.deps.db.selectFrom('nfc_binding_links').selectAll().where('listing_id', '=', listingId).execute();
      expect(rows).toEqual([
        expect.objectContaining({ token_hash: createHash('sha256').update(link.token).digest('hex'), created_by: admin.user.id, used_at: null, bound_uid: null }),
      ]);
      expect(JSON.stringify(rows)).not.toContain(link.token);

      const another = await linkFor(listingId);
      expect(another.token).not.toBe(link.token);
    });

    it('draws the link as a real QR code: a PNG whose modules are those of the link', async () => {
      const { listingId } = await listing('SAVED');
      const link = await linkFor(listingId);
      expect(link.qrCode).toMatch(/^data:image\/png;base64,/);
      const png = Buffer.from(link.qrCode.slice('data:image/png;base64,'.length), 'base64');
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

      const image = decodePng(png);
      const symbol = QRCode.create(link.url, { errorCorrectionLevel: 'M' }).modules;
      // Margin 2 and 8 pixels a module: a symbol a phone camera reads off a laptop screen.
      const scale = image.width / (symbol.size + 4);
      expect(image.width).toBe(image.height);
      expect(scale).toBe(8);
      for (let row = 0; row < symbol.size; row++) {
        for (let column = 0; column < symbol.size; column++) {
          const dark = image.isDark(Math.floor((column + 2.5) * scale), Math.floor((row + 2.5) * scale));
          expect(dark, `module ${row},${column}`).toBe(symbol.get(row, column) === 1);
        }
      }
      // The quiet zone is light.
      expect(image.isDark(1, 1)).toBe(false);
    });

    it('builds the link from the forwarded protocol and host behind a trusted proxy, and ignores them otherwise', async () => {
      const { listingId } = await listing('SAVED');
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'market.example.com' };
      const direct = await requestQr(listingId, forwarded);
      expect(new URL(direct.body.url).origin).toBe(api.url);

      const proxied = await startTestApi(backend, { sharing: api, clock, services: { trustProxy: true } });
      try {
        const token = (await proxied.signUp('ADMIN')).tokens.accessToken;
        const response = await proxied.call('POST', `/api/admin/listings/${listingId}/nfc/qr`, { token, headers: forwarded });
        expect(response.status).toBe(201);
        expect(response.body.url).toMatch(/^https:\/\/market\.example\.com\/mobile\?token=[A-Za-z0-9_-]{43}$/);
      } finally {
        await proxied.close();
      }
    });

    it('is refused for a listing a tag cannot be bound to', async () => {
      const cases: Array<[string, string, number, string]> = [
        ['a draft', (await listing('DRAFT')).listingId, 409, 'Listing must be saved before binding NFC tag'],
        ['a bound listing', (await listing('NFC_BOUND')).listingId, 409, 'This listing already has an NFC tag bound'],
        ['a live listing', (await listing('LIVE')).listingId, 409, 'This listing can no longer be changed: it is LIVE'],
        ['no listing', 'no-such-listing', 404, 'Listing not found'],
      ];
      for (const [what, listingId, status, message] of cases) {
        const response = await requestQr(listingId);
        expect(response.status, what).toBe(status);
        expect(response.body, what).toMatchObject({ statusCode: status, message });
        expect(await api.deps.db.selectFrom('nfc_binding_links').select('id').where('listing_id', '=', listingId).execute()).toEqual([]);
      }
    });
  });

  describe('the phone side: /api/mobile/nfc-binding/{token}', () => {
    it('shows the listing, binds once as the admin who made the link, then answers 410', async () => {
      const { listingId, slug } = await listing('SAVED', 'Signed Match Ball');
      const tag = await provision(`PRV-${randomBytes(4).toString('hex').toUpperCase()}`);
      const link = await linkFor(listingId);

      const opened = await openLink(link.token);
      expect(opened.status).toBe(200);
      expect(opened.body).toEqual({ listingId, title: 'Signed Match Ball', slug, status: 'SAVED', expiresAt: link.expiresAt });

      const bound = await useLink(link.token, { claimCode: tag.claimCode!.toLowerCase() });
      expect(bound.status).toBe(200);
      expect(bound.body).toEqual({ listingId, uid: tag.uid, status: 'BOUND', at: now.toISOString() });

      const [row] = await api.deps.db.selectFrom('nfc_binding_links').selectAll().where('listing_id', '=', listingId).execute();
      expect(row).toMatchObject({ used_at: now, bound_uid: tag.uid });
      const [tagBound] = (await api.deps.eventStore.readStream(nfcTagStreamId(tag.uid))).filter((event) => event.type === 'NfcTagBound');
      expect(tagBound!.metadata).toMatchObject({ actorId: admin.user.id, actorRoles: ['ADMIN', 'BUYER'], correlationId: `nfc-binding-link:${row!.id}` });
      const listingRow = await api.deps.db.selectFrom('listings').select(['status', 'nfc_uid']).where('id', '=', listingId).executeTakeFirstOrThrow();
      expect(listingRow).toEqual({ status: 'NFC_BOUND', nfc_uid: tag.uid });

      for (const response of [await useLink(link.token, { uid: tag.uid }), await openLink(link.token)]) {
        expect(response.status).toBe(410);
        expect(response.body).toMatchObject({ statusCode: 410, message: 'This binding link has already been used' });
      }
    });

    it('keeps the link usable after a refused bind, with the admin bind\'s messages', async () => {
      const { listingId } = await listing('SAVED');
      const link = await linkFor(listingId);
      const cases: Array<[unknown, number, string]> = [
        [{ uid: 'not a uid' }, 400, 'Please enter a valid NFC UID'],
        [{ claimCode: '' }, 400, 'Please enter a valid claim code'],
        [{ uid: randomBytes(7).toString('hex') }, 404, 'Selected tag not found'],
        [{}, 400, 'Please select a tag and ensure listing is saved'],
      ];
      for (const [body, status, message] of cases) {
        const response = await useLink(link.token, body);
        expect(response.status, message).toBe(status);
        expect(response.body).toMatchObject({ message });
      }
      const tag = await provision();
      expect((await useLink(link.token, { uid: tag.uid.replace(/:/g, '') })).status).toBe(200);
    });

    it('is used up exactly once by two phones using it at the same moment', async () => {
      const { listingId } = await listing('SAVED');
      const tag = await provision();
      const link = await linkFor(listingId);
      const responses = await Promise.all([useLink(link.token, { uid: tag.uid }), useLink(link.token, { uid: tag.uid })]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 410]);
      const events = await api.deps.eventStore.readStream(listingStreamId(listingId));
      expect(events.filter((event) => event.type === 'ListingTagBound')).toHaveLength(1);
    });

    it('answers 410 "This binding link has expired" after 15 minutes, and binds nothing', async () => {
      const { listingId } = await listing('SAVED');
      const tag = await provision();
      const link = await linkFor(listingId);
      now = new Date(now.getTime() + 15 * MINUTE - 1_000);
      expect((await openLink(link.token)).status).toBe(200);

      now = new Date(now.getTime() + 1_000);
      for (const response of [await openLink(link.token), await useLink(link.token, { uid: tag.uid })]) {
        expect(response.status).toBe(410);
        expect(response.body).toMatchObject({ statusCode: 410, message: 'This binding link has expired', code: 'BINDING_LINK_EXPIRED' });
      }
      const events = await api.deps.eventStore.readStream(listingStreamId(listingId));
      expect(events.map((event) => event.type)).not.toContain('ListingTagBound');
    });

    it('answers 404 for a token that opens no link', async () => {
      for (const token of ['nope', randomBytes(32).toString('base64url')]) {
        for (const response of [await openLink(token), await useLink(token, { uid: '04:A2:B3:C4' })]) {
          expect(response.status).toBe(404);
          expect(response.body).toMatchObject({ statusCode: 404, message: 'Binding link not found' });
        }
      }
    });

    it('carries no authority once its maker is no longer an admin', async () => {
      const maker = await api.signUp('ADMIN');
      const { listingId } = await listing('SAVED');
      const response = await api.call('POST', `/api/admin/listings/${listingId}/nfc/qr`, { token: maker.tokens.accessToken });
      const token = new URL(response.body.url).searchParams.get('token')!;
      await api.deps.db.updateTable('users').set({ roles: JSON.stringify(['BUYER']) }).where('id', '=', maker.user.id).execute();

      const refused = await useLink(token, { uid: (await provision()).uid });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ message: 'Access denied' });
      expect((await openLink(token)).status).toBe(200); // not used up by the refusal
    });
  });
});

/**
 * Just enough of PNG to read what the QR encoder wrote: 8-bit greyscale or colour, with or without
 * alpha, not interlaced; every row filter undone. Returns whether a pixel is dark.
 */
function decodePng(png: Buffer): { width: number; height: number; isDark(x: number, y: number): boolean } {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const compressed: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8], 'bit depth').toBe(8);
      expect(data[12], 'interlace').toBe(0);
      channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[data[9]!]!;
    }
    if (type === 'IDAT') compressed.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(compressed));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictors = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)];
      pixels[y * stride + x] = (value + predictors[filter]!) & 0xff;
    }
  }
  return { width, height, isDark: (x, y) => pixels[y * stride + x * channels]! < 128 };
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}
