import { createHash } from 'node:crypto';

/** Tokens of 256 random bits are kept as their SHA-256 (refresh tokens, mailed links): a leaked table holds nothing usable. */
export function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
