/**
 * `npm run bench:against -- <commit>`: whether a change on the bid path pays. The hot auction raced
 * by this checkout (its working tree, changes not yet committed included) and by <commit>, in turns,
 * trial by trial (BENCH_TRIALS, BENCH_SECONDS and the database as `npm run bench` takes them), on
 * one machine in one run: paired, so that the machine's drift from run to run, larger than most
 * changes, falls on both. Prints the table; writes nothing, as results.json holds the figures the
 * project states.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { runCli, usageError } from '../cli';
import { markdownTable, summarise } from './figures';
import { checkoutOf } from './server-harness';
import { costFigures, racesAgainst } from './server-hot-auction';
import { benchOptionsFromEnv } from './settings';

const USAGE = `Usage: npm run bench:against -- <commit>

Races the hot auction (32 bidders on one auction, one server) with this checkout as it is and with
<commit>, each deployed once a trial and raced there saturated, then at an equal load (800 bids/s
offered to both), and prints accepted bids/s and server CPU a bid, with their ratios (>= 1: this
checkout is better). Settings as for npm run bench: BENCH_TRIALS (3; a saturated trial's ratio
scatters by up to 10-15%, an equal-load one's by ~5%, so give a 5% change 8), BENCH_SECONDS,
BENCH_DATABASE_URL.`;

runCli(async () => {
  const { positionals, values } = (() => {
    try {
      return parseArgs({ args: process.argv.slice(2), options: { help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
    } catch (error) {
      throw usageError((error as Error).message, USAGE);
    }
  })();
  if (values.help) return console.log(USAGE);
  if (positionals.length !== 1) throw usageError('Name one commit to race against', USAGE);
  const other = await checkoutOf(positionals[0]!);
  if (other === null) throw usageError(`${positionals[0]} is not a commit of this repository`, USAGE);
  const commit = execFileSync('git', ['rev-parse', '--short', `${positionals[0]}^{commit}`], { encoding: 'utf8' }).trim();
  try {
    const options = benchOptionsFromEnv();
    const races = await racesAgainst(options, other.folder, `against ${commit}`, ['this checkout', commit]);
    const figures = costFigures(races, {
      bidsPerSecond: 'accepted bids/s on ONE auction (the hot auction), this checkout',
      cpuPerBid: 'server CPU per accepted bid on that hot auction, this checkout',
      baselineName: `commit ${commit}, same database server`,
      goalRatio: null,
      details: ['here', 'there'],
    });
    console.log(markdownTable(figures.map(summarise)));
  } finally {
    await other.remove();
  }
});
