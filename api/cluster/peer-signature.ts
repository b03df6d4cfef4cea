import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a forwarded command carries: `<unix ms>.<HMAC-SHA256 of the time and the body, hex>`. */
export const PEER_SIGNATURE_HEADER = 'x-provenance-peer-signature';
/** How old a signature may be: peers share a clock closely enough, a replay later is refused. */
const MAX_AGE_MS = 30_000;

/**
 * Requests between API processes are signed with the secret they share (JWT_SECRET, which
 * replicas must share anyway): only a peer can have a command decided on its behalf, and a user's
 * token is never enough.
 */
export function signPeerRequest(secret: string, body: string, now = Date.now()): string {
  return `${now}.${mac(secret, now, body)}`;
}

export function verifyPeerRequest(secret: string, body: string, signature: string | undefined, now = Date.now()): boolean {
  const [time, given] = (signature ?? '').split('.');
  const signedAt = Number(time);
  if (!given || !Number.isSafeInteger(signedAt) || Math.abs(now - signedAt) > MAX_AGE_MS) return false;
  const expected = Buffer.from(mac(secret, signedAt, body), 'hex');
  const received = Buffer.from(given, 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

function mac(secret: string, signedAt: number, body: string): string {
  return createHmac('sha256', secret).update(`provenance-peer\n${signedAt}\n${body}`).digest('hex');
}
