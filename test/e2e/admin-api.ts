import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { demoAccounts, productUrl } from './browser';

/** The demo admin, signed in through the API: POST calls and an uploaded photo to list with. */
async function adminSession() {
  const login = await fetch(`${productUrl()}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(demoAccounts().admin),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${productUrl()}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    expect(response.status, `${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
    return answer;
  };

  const form = new FormData();
  const image = await readFile(new URL('../../api/seed/images/judge-bat.jpg', import.meta.url));
  form.append('file', new Blob([image], { type: 'image/jpeg' }), 'judge-bat.jpg');
  const uploaded = await fetch(`${productUrl()}/api/admin/listings/media/upload`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: form });
  expect(uploaded.status).toBe(201);
  const { mediaId } = (await uploaded.json()) as { mediaId: string };

  /** A saved listing with the photo; with `nfcUid`, that provisioned tag bound in the same step. */
  const saveListing = async (title: string, price: number, nfcUid?: string) =>
    call('/api/admin/listings', {
      title,
      description: 'Made by the marketplace browser test.',
      category: 'EQUIPMENT',
      condition: 'GAME_USED',
      sportType: 'BASEBALL',
      price,
      mediaIds: [mediaId],
      save: true,
      ...(nfcUid ? { nfcUid } : {}),
    });
  return { accessToken, call, saveListing };
}

/** A random 7-byte UID, as upper-case colon pairs. */
export function randomUid(): string {
  return `04:${[...randomBytes(6)].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
}

/** As an admin makes them through the admin API: media, saved with a provisioned tag bound, published. */
export async function publishListings(
  count: number,
  titleOf: (index: number) => string,
  /** The auction's rules, as POST /api/admin/listings/{id}/publish takes them; default: every default. */
  rules?: Record<string, unknown>,
): Promise<{ ids: string[]; token: string }> {
  const { accessToken, call, saveListing } = await adminSession();
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const uid = randomUid();
    await call('/api/admin/nfc/tags/provision', { uid });
    const listing = await saveListing(titleOf(index), 100 + index, uid);
    await call(`/api/admin/listings/${listing.id as string}/publish`, rules);
    ids.push(listing.id as string);
  }
  return { ids, token: accessToken };
}

/** Saved listings, not published: SAVED, or NFC_BOUND with `bindTag` (a provisioned tag bound to each). */
export async function saveListings(count: number, titleOf: (index: number) => string, { bindTag = false } = {}): Promise<string[]> {
  const { call, saveListing } = await adminSession();
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const uid = bindTag ? randomUid() : undefined;
    if (uid) await call('/api/admin/nfc/tags/provision', { uid });
    const listing = await saveListing(titleOf(index), 100 + index, uid);
    ids.push(listing.id as string);
  }
  return ids;
}

/**
 * What the admin's QR code is made for: a saved listing without a tag, a provisioned tag (UID and
 * claim code) in the pool, and the one-time phone link POST /api/admin/listings/{id}/nfc/qr answers.
 */
export async function savedListingWithBindingLink(title: string): Promise<{ listingId: string; uid: string; claimCode: string; url: string }> {
  const { call, saveListing } = await adminSession();
  const uid = randomUid();
  const claimCode = `E2E-${randomBytes(4).toString('hex').toUpperCase()}`;
  await call('/api/admin/nfc/tags/provision', { uid, claimCode });
  const listing = await saveListing(title, 150);
  const { url } = await call(`/api/admin/listings/${listing.id as string}/nfc/qr`);
  return { listingId: listing.id as string, uid, claimCode, url: url as string };
}

/** A tag in the pool, free to bind: its UID as upper-case colon pairs. */
export async function provisionTag(): Promise<string> {
  const { call } = await adminSession();
  const uid = randomUid();
  await call('/api/admin/nfc/tags/provision', { uid });
  return uid;
}
