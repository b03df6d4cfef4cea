/**
 * `npm run audit:verify -- bundle.json [--receipt receipt.json] [--keys keys.json]`
 *
 * Checks an auction's audit bundle offline: no server, no database. Exits 0 when everything holds,
 * 1 when anything does not, naming the first bad stream revision.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { formatUsd } from '../engine/domain';
import type { AnyBidReceipt } from '../engine/domain/integrity/receipts';
import type { PublishedKey } from '../engine/domain/integrity/signatures';
import { verifyAuditBundle, verifyReceiptInBundle, type BundleCheck, type BundleVerdict } from '../engine/integrity/audit-bundle';
import { CliError, runCli, usageError } from './cli';

const USAGE = `Usage: npm run audit:verify -- bundle.json [--receipt receipt.json] [--keys keys.json]

Checks an auction's audit bundle (GET /api/audit/auctions/{auctionId}/bundle) offline: its bytes are
its canonical form, every event's hash and link, every signature (export, checkpoints, key
endorsements), that the checkpoints sign the very events given; then the engine decides the auction
again from its events and names the winner and the price. Exits 1, naming the first bad stream
revision, when anything fails.

Options:
  --receipt R   also check a bidder's receipt (from POST /api/bids or the listing page) against the bundle
  --keys K      trust only these keys (the JSON of /.well-known/provenance-keys.json, fetched yourself)
                instead of the keys the bundle carries
  -h, --help    show this help`;

runCli(async () => {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { receipt: { type: 'string' }, keys: { type: 'string' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError((error as Error).message, USAGE);
  }
  const [bundleFile, ...extra] = parsed.positionals;
  if (bundleFile === undefined || extra.length > 0) throw usageError('Give exactly one bundle file', USAGE);
  const text = await readText(bundleFile);
  const pinned = parsed.values.keys === undefined ? undefined : ((await readJson(parsed.values.keys)) as { keys: PublishedKey[] }).keys;

  const verdict = await verifyAuditBundle(text, pinned);
  console.log(`Audit bundle ${bundleFile}${verdict.auctionId ? ` of auction ${verdict.auctionId}` : ''}`);
  print(verdict.checks);
  let holds = verdict.valid;
  console.log(verdictLine(verdict));

  if (parsed.values.receipt !== undefined) {
    const receipt = (await readJson(parsed.values.receipt)) as Partial<AnyBidReceipt>;
    console.log(`\nReceipt ${parsed.values.receipt}${receipt.bidId ? ` (bid ${receipt.bidId})` : ''}`);
    const checks = await verifyReceiptInBundle(text, receipt, pinned);
    print(checks);
    const receiptHolds = checks.every((check) => check.ok);
    console.log(receiptHolds ? `RECEIPT HOLDS: the bid of $${receipt.amount!.toFixed(2)} is in the auction's log, as signed.` : 'RECEIPT FAILS: see above.');
    holds &&= receiptHolds;
  }
  if (!holds) process.exitCode = 1;
});

function print(checks: readonly BundleCheck[]): void {
  for (const check of checks) console.log(`  ${check.ok ? '✓' : '✗'} ${check.what}`);
}

function verdictLine(verdict: BundleVerdict): string {
  if (!verdict.valid) {
    const first = verdict.firstInvalid;
    return first ? `TAMPERED: ${first.streamId} revision ${first.revision}: ${first.problem}` : `NOT VERIFIED: ${verdict.checks.find((check) => !check.ok)!.what}`;
  }
  const outcome = verdict.outcome;
  if (outcome === null) return 'VERIFIED, but the auction was never scheduled.';
  if (outcome.status === 'ENDED') {
    if (outcome.winnerId === null) return `VERIFIED: the auction ended unsold (${outcome.result === 'RESERVE_NOT_MET' ? 'the reserve was not met' : 'no bids'}), closed ${outcome.closedAt}.`;
    const how = outcome.closedBy === 'BUY_NOW' ? 'bought now' : 'won';
    return `VERIFIED: ${how} by bidder ${outcome.winnerId} (bid ${outcome.winningBidId}) for ${formatUsd(outcome.finalPrice!)}, closed ${outcome.closedAt}.`;
  }
  if (outcome.status === 'CANCELLED') return 'VERIFIED: the auction was cancelled; nobody won.';
  const lead = outcome.leaderId === null ? 'no bids yet' : `bidder ${outcome.leaderId} leads at ${formatUsd(outcome.price!)}`;
  return `VERIFIED so far: the auction is still ${outcome.status.toLowerCase()}, ${lead}${verdict.unsigned > 0 ? ` (${verdict.unsigned} events not yet signed by a checkpoint)` : ''}.`;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readText(file));
  } catch (error) {
    throw error instanceof CliError ? error : new CliError(`${file} is not JSON`);
  }
}
