import { invalid } from '../shared/errors';

/** ISO 14443 tags carry 4, 7 or 10 byte UIDs; ISO 15693 tags 8. Anything in 4..10 bytes is accepted. */
const MIN_UID_BYTES = 4;
const MAX_UID_BYTES = 10;

/**
 * "04a2b3c4d5e6f7", "04-A2-B3-C4-D5-E6-F7" and "04:a2:b3:c4:d5:e6:f7" all name one tag:
 * "04:A2:B3:C4:D5:E6:F7". Returns null for anything that is not a UID.
 */
export function normalizeNfcUid(input: string): string | null {
  const digits = input.trim().replace(/[\s:-]/g, '');
  // Test before upper-casing: some characters upper-case into hex digits ('ﬀ' becomes 'FF').
  if (!/^[0-9A-Fa-f]+$/.test(digits) || digits.length % 2 !== 0) return null;
  const hex = digits.toUpperCase();
  const bytes = hex.length / 2;
  if (bytes < MIN_UID_BYTES || bytes > MAX_UID_BYTES) return null;
  return hex.match(/../g)!.join(':');
}

export function requireNfcUid(input: string): string {
  const uid = normalizeNfcUid(input);
  if (uid === null) throw invalid('INVALID_NFC_UID', 'Please enter a valid NFC UID', { uid: input });
  return uid;
}

/** Claim codes are printed on the tag's card; they are matched in upper case. */
export function normalizeClaimCode(input: string): string | null {
  const code = input.trim();
  return /^[A-Za-z0-9][A-Za-z0-9-]{2,30}[A-Za-z0-9]$/.test(code) ? code.toUpperCase() : null;
}

export function requireClaimCode(input: string): string {
  const code = normalizeClaimCode(input);
  if (code === null) throw invalid('INVALID_CLAIM_CODE', 'Please enter a valid claim code', { claimCode: input });
  return code;
}
