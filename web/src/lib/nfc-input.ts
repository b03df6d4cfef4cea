import { requireClaimCode, requireNfcUid, type TagChoice } from '../../../api/contracts/admin/nfc';

/**
 * What an admin or a phone user types for a tag, read by the engine's own rules: a UID in any
 * common spelling, or the claim code printed on the tag's card. A claim code may look like a UID
 * (all hex digits), so the person says which of the two they are typing.
 */

export type TagInputKind = 'uid' | 'claimCode';

export type ParsedTagInput =
  | { readonly kind: 'uid'; readonly uid: string }
  | { readonly kind: 'claimCode'; readonly claimCode: string }
  | { readonly kind: 'invalid'; readonly message: string };

export type ValidTagInput = Exclude<ParsedTagInput, { kind: 'invalid' }>;

/**
 * The tag `text` names, read as `kind`: the UID as upper-case colon pairs, the claim code in upper
 * case; or the engine's message ("Please enter a valid NFC UID", "Please enter a valid claim code").
 */
export function parseTagInput(text: string, kind: TagInputKind): ParsedTagInput {
  try {
    return kind === 'uid' ? { kind, uid: requireNfcUid(text) } : { kind, claimCode: requireClaimCode(text) };
  } catch (error) {
    // The engine's require* functions fail only with a DomainError, whose message is the one to show.
    return { kind: 'invalid', message: (error as Error).message };
  }
}

/** The bind request's body (admin or phone) for a tag read from the input. */
export function tagChoiceOf(tag: ValidTagInput): TagChoice {
  return tag.kind === 'uid' ? { uid: tag.uid } : { claimCode: tag.claimCode };
}

const UID_CHARACTERS = /^[0-9A-Fa-f\s:-]*$/;
const UID_SEPARATORS = /[\s:-]/g;

/**
 * What a tag field shows while it is typed in: a UID as upper-case colon pairs as far as it goes
 * ("04a2b" -> "04:A2:B"), a claim code in upper case. `caret` (the input's selection) moves to stay
 * after the same character. Text that cannot be a UID is left as typed, for its message to explain.
 */
export function formatTagInput(text: string, kind: TagInputKind, caret = text.length): { text: string; caret: number } {
  // Only a-z: other letters may change length when upper-cased, and no claim code holds them.
  if (kind === 'claimCode') return { text: text.replace(/[a-z]+/g, (letters) => letters.toUpperCase()), caret };
  if (!UID_CHARACTERS.test(text)) return { text, caret };
  const digits = text.replace(UID_SEPARATORS, '').toUpperCase();
  const digitsBeforeCaret = text.slice(0, caret).replace(UID_SEPARATORS, '').length;
  return {
    text: (digits.match(/.{1,2}/g) ?? []).join(':'),
    // The n-th digit sits after floor((n - 1) / 2) colons.
    caret: digitsBeforeCaret === 0 ? 0 : digitsBeforeCaret + Math.floor((digitsBeforeCaret - 1) / 2),
  };
}

/** A UID as upper-case colon pairs ("04a2b3c4" -> "04:A2:B3:C4"), as far as `text` is one. */
export function formatUid(text: string): string {
  return formatTagInput(text, 'uid').text;
}
