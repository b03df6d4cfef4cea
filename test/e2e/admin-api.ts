import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { demoAccounts, productUrl } from './browser';

/** As an admin makes them through the admin API: media, saved with a provisioned tag bound, published. */
export async function publishListings(
  count: number,
  titleOf: (index: number) => string,
  /** The auction's rules, as POST /api/admin/listings/{id}/publish takes them; default: every default. */
  rules?: Record<string, unknown>,
): Promise<{ ids: string[]; token: string }> {
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

  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const uid = `04:${[...randomBytes(6)].map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
    await call('/api/admin/nfc/tags/provision', { uid });
    const listing = await call('/api/admin/listings', {
      title: titleOf(index),
      description: 'Made by the marketplace browser test.',
      category: 'EQUIPMENT',
      condition: 'GAME_USED',
      sportType: 'BASEBALL',
      price: 100 + index,
      mediaIds: [mediaId],
      save: true,
      nfcUid: uid,
    });
    await call(`/api/admin/listings/${listing.id as string}/publish`, rules);
    ids.push(listing.id as string);
  }
  return { ids, token: accessToken };
}
