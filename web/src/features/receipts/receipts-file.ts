import type { z } from 'zod';
import { anyBidReceiptSchema, FORMER_RECEIPT_FORMAT, RECEIPT_FORMAT, type AnyBidReceipt } from '../../../../api/contracts/receipts';

/** Reading what a user brings to /verify: a receipt, or a list of them as "Download receipts" saves it. */

/** A receipts file is small: a few hundred bytes a receipt. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Each receipt is checked with a call of its own. */
export const MAX_RECEIPTS = 100;

export type ReceiptsReading = { readonly ok: true; readonly receipts: readonly AnyBidReceipt[] } | { readonly ok: false; readonly error: string };

const RECEIPT_FORMATS: readonly unknown[] = [FORMER_RECEIPT_FORMAT, RECEIPT_FORMAT];

function refused(error: string): ReceiptsReading {
  return { ok: false, error };
}

/** The first problem zod found, as "amount: expected number, received string". */
function firstIssue(error: z.ZodError): string {
  const [issue] = error.issues;
  if (!issue) return 'it does not have the shape of a receipt';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Why `value` is not a receipt; null when it is one. */
function receiptProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object';
  const { format } = value as { format?: unknown };
  if (format === 'provenance.audit-bundle.v1') return 'it is an audit bundle: check it offline with npm run audit:verify -- bundle.json';
  if (!RECEIPT_FORMATS.includes(format)) return `it has no "format": "${RECEIPT_FORMAT}"`;
  const parsed = anyBidReceiptSchema.safeParse(value);
  return parsed.success ? null : firstIssue(parsed.error);
}

/**
 * The receipts in `text`: one receipt, or an array of them. Each is kept exactly as written (a
 * signature covers every field but itself, so nothing is dropped or rewritten before the check).
 */
export function readReceipts(text: string): ReceiptsReading {
  if (text.trim() === '') return refused('Choose a receipt file or paste its text first.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused('This is not valid JSON. Use the file exactly as it was downloaded, or paste all of its text.');
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return refused('The list is empty: there is no receipt in it.');
  if (items.length > MAX_RECEIPTS) return refused(`There are ${items.length} receipts: check at most ${MAX_RECEIPTS} at a time.`);
  for (const [index, item] of items.entries()) {
    const problem = receiptProblem(item);
    if (problem === null) continue;
    const which = Array.isArray(value) ? `Item ${index + 1} of the list is` : 'This is';
    return refused(`${which} not a Provenance bid receipt: ${problem}.`);
  }
  return { ok: true, receipts: items as AnyBidReceipt[] };
}
