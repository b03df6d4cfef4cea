/**
 * The hot auction over HTTP: 32 bidders raising each other on one auction of a real server, and the
 * read models following it; then the same with two server processes on one database. Each trial
 * measures the product and, right after it on the same database, its baseline: one INSERT per commit
 * from as many clients, for as long; and then what bare Fastify answers (the HTTP ceiling, in the
 * details). Bids carry an Idempotency-Key each, as the web app sends them.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { PlacedBid } from '../../api/contracts/bids';
import { NO_BASELINE, percentile, type Figure, type Trial } from './figures';
import {
  ApiClient,
  cpuSeconds,
  BID_INCREMENT_DOLLARS,
  inFreshDeployment,
  publishAuction,
  registerBidders,
  round,
  signInAsAdmin,
  startHelper,
  startProductServer,
  STARTING_PRICE_DOLLARS,
  uploadPhoto,
  type Bidder,
  type ErrorBody,
  type ProductServer,
  checkoutOf,
  postgresCpuSeconds,
  postgresCpuSecondsBetween,
  type ServerBenchOptions,
  type ServerSettings,
} from './server-harness';

const BIDDERS = 32;
/**
 * Seconds of unmeasured load before the first trial: the server's code paths compiled and warm.
 * One second was not enough: perf showed V8's optimizing compiler at some 14% of a fresh server's
 * CPU through a 10-second race, a one-off cost the figures would charge to every bid.
 */
const WARM_UP_SECONDS = 10;
/**
 * Then two shorter races, each on a lot of its own, still unmeasured. Publishing a lot and a lot's
 * first checkpoint run other shapes of data through functions the first race made hot (the
 * projections, the canonical text of events, the checkpointer): V8 drops their optimized code, and
 * recompiled it during the measured race. --trace-opt in that race, same run, before and after: the
 * product before verifiable history 105 functions and 0.67 s of compiling in 5 s, 55 and 0.34 s;
 * the product 128 and 0.8 s, 37 and 0.27 s (one settling race left it at 75 and 0.57 s).
 */
const SETTLING_SECONDS = 3;
const SETTLING_LOTS = 2;
/** How long the read models may take to show a trial's last bids before the rest count as missing. */
const READ_MODEL_WAIT_MS = 180_000;
const LAG_POLL_INTERVAL_MS = 5;
/**
 * How many of the oldest bids not yet seen one poll asks about. The read model applies the log in
 * order, so the next rows to appear are among the oldest answered; a bounded question keeps the
 * probe's own load on the database small when the read model falls seconds behind.
 */
const LAG_POLL_WINDOW = 500;

/** Figures 1 and 2: accepted bids/s on one auction, one server; the read models' lag under that load. */
export async function hotAuctionFigures(options: ServerBenchOptions): Promise<Figure[]> {
  return withDeployment(options, 1, async (deployment) => {
    const { throughput, lag, details } = await runTrials(options, deployment, 'hot auction');
    return [
      throughputFigure(`accepted bids/s on ONE auction over HTTP, ${BIDDERS} bidders raising each other`, throughput, details),
      {
        name: 'read-model lag under that load (201 -> row in the bids read model), p99',
        unit: 'ms',
        baselineName: NO_BASELINE,
        higherIsBetter: false,
        goalRatio: null,
        goalValue: { atMost: 100 },
        trials: lag,
        details: details.lag(),
      },
    ];
  });
}

/** Figure 3: the same hot auction with two server processes on one database, the bidders split between them. */
export async function twoProcessHotAuctionFigures(options: ServerBenchOptions): Promise<Figure[]> {
  return withDeployment(options, 2, async (deployment) => {
    const { throughput, details } = await runTrials(options, deployment, 'hot auction on two processes');
    return [throughputFigure(`accepted bids/s on ONE auction, TWO server processes on one database, ${BIDDERS} bidders split between them`, throughput, details)];
  });
}

/**
 * What notices cost: the hot auction with the notifier on, against the same with it off (NOTIFIER),
 * trial by trial; and how many notices it made per second of the race (nearly every bid outbids
 * the leader before it: one OUTBID each).
 */
export async function noticeFigures(options: ServerBenchOptions): Promise<Figure[]> {
  // A fresh deployment for each race, off and on in turn: neither gains from a warmer machine.
  const raceIn = (notifier: boolean) =>
    withDeployment(
      options,
      1,
      async (deployment) => {
        const race = await deployment.race(options.seconds);
        return { race, ...(await noticesSince(deployment.databaseUrl, race.startedAt, options.seconds)) };
      },
      { notifier },
    );
  const off: Array<Awaited<ReturnType<typeof raceIn>>> = [];
  const on: Array<Awaited<ReturnType<typeof raceIn>>> = [];
  for (let trial = 1; trial <= options.trials; trial++) {
    off.push(await raceIn(false));
    on.push(await raceIn(true));
    options.log(
      `notices, trial ${trial}: ${on.at(-1)!.race.acceptedPerSecond} accepted bids/s with the notifier (${on.at(-1)!.noticesPerSecond} notices/s) vs ${off.at(-1)!.race.acceptedPerSecond} without`,
    );
  }
  return [
    {
      name: `accepted bids/s on ONE auction, ${BIDDERS} bidders, with the notifier making notices`,
      unit: 'bids/s',
      baselineName: 'the same with the notifier off (NOTIFIER=off)',
      higherIsBetter: true,
      goalRatio: 0.9,
      trials: on.map((run, index) => ({ value: run.race.acceptedPerSecond, baseline: off[index]!.race.acceptedPerSecond })),
      details: { serverCpuCoresOn: on.map((run) => run.race.serverCpuCores[0]), serverCpuCoresOff: off.map((run) => run.race.serverCpuCores[0]) },
    },
    {
      name: 'notices made per second while the hot auction runs (OUTBID, by the notifier from the log)',
      unit: 'notices/s',
      baselineName: NO_BASELINE,
      higherIsBetter: true,
      goalRatio: null,
      trials: on.map((run) => ({ value: run.noticesPerSecond, baseline: 0 })),
      details: {
        acceptedBidsPerSecond: on.map((run) => run.race.acceptedPerSecond),
        // Notices of the race made after it ended: how far the notifier fell behind.
        madeAfterTheRaceShare: on.map((run) => run.noticesMadeLaterShare),
      },
    },
  ];
}

/** The last commit before verifiable history (issue 19): events not hashed, no receipts, no checkpoints. */
const BEFORE_VERIFIABLE_HISTORY = 'e618d99';
/**
 * What changed on the bid path since then that is not verifiable history (bearer tokens checked
 * once, name-based ids, the foreign-event filter's verdicts), applied to that version before it is
 * built: the figure is verifiable history's own cost, not net of speed-ups made meanwhile.
 */
const LATER_SPEED_UPS = fileURLToPath(new URL('before-verifiable-history.patch', import.meta.url));

/**
 * What verifiable history costs a hot auction: every event hashed into its stream's chain in the
 * append, every accepted bid's receipt signed in its answer, a checkpoint signed once 100 events or
 * more are new (the checkpointer looks every second); against the product as it was just before
 * (BEFORE_VERIFIABLE_HISTORY, built from this repository's history, with LATER_SPEED_UPS), race by
 * race, each in a fresh deployment, the two in turn (each first in every other trial): saturated
 * (bids/s, and server CPU a bid) and at an equal load (server CPU a bid), all held to the same goal.
 */
export async function verifiableHistoryFigures(options: ServerBenchOptions): Promise<Figure[]> {
  const before = await checkoutOf(BEFORE_VERIFIABLE_HISTORY);
  if (before === null) {
    options.log(`verifiable-history: NOT RUN: this clone's history lacks ${BEFORE_VERIFIABLE_HISTORY}, the version to compare with (fetch the whole history)`);
    return [];
  }
  try {
    execFileSync('git', ['apply', LATER_SPEED_UPS], { cwd: before.folder, stdio: ['ignore', 'ignore', 'pipe'] });
    const races = await racesAgainst(options, before.folder, 'verifiable history', ['hashed and signed', 'before']);
    return costFigures(races, {
      bidsPerSecond: `accepted bids/s on ONE auction, ${BIDDERS} bidders, every event hashed and chained, every receipt signed, checkpoints signed`,
      cpuPerBid: 'server CPU per accepted bid on that hot auction, hashed and signed',
      baselineName: `the same product before verifiable history (${BEFORE_VERIFIABLE_HISTORY} with the bid path's later speed-ups), same database server`,
      // At most 10% more costly: no less than 1 / 1.1 of the bids per second, no more than 1.1 times the CPU a bid.
      goalRatio: round(1 / 1.1, 3),
      details: ['hashedAndSigned', 'before'],
    });
  } finally {
    await before.remove();
  }
}

/**
 * The load at which paired races also compare a bid's cost: the same bids offered to both sides, well
 * below either's capacity on this machine (1,200-2,000 bids/s saturated). Saturated, the server
 * takes some 0.7 of a core whatever it does (the database, the client and the kernel share the other
 * 1.3), so its CPU a bid there follows throughput; at one load for both, it is the server's own cost.
 */
const EQUAL_LOAD_BIDS_PER_SECOND = 800;

/** The same races of this checkout and of another, trial by trial. */
export interface PairedRaces {
  /** Saturated: each bidder sends its next bid as soon as its last is answered. */
  readonly here: readonly RaceResult[];
  readonly there: readonly RaceResult[];
  /** Then, in the same deployments, bids offered at EQUAL_LOAD_BIDS_PER_SECOND to each. */
  readonly hereAtEqualLoad: readonly RaceResult[];
  readonly thereAtEqualLoad: readonly RaceResult[];
}

/**
 * The hot auction raced by this checkout (its working tree as it is) and by the product in
 * `folder`, each deployed afresh once a trial on the same database server and raced there
 * saturated, then at an equal load; each first in every other trial: whatever a deployment leaves
 * behind for the next one on this machine (dirty pages being written out, a dropped database's
 * files) falls on both alike. `names` label the two in the log lines.
 */
export async function racesAgainst(options: ServerBenchOptions, folder: string, label: string, names: readonly [string, string]): Promise<PairedRaces> {
  const raceIn = (repository: string | undefined) =>
    withDeployment(
      options,
      1,
      async (deployment) => ({ saturated: await deployment.race(options.seconds), atEqualLoad: await deployment.race(options.seconds, EQUAL_LOAD_BIDS_PER_SECOND) }),
      repository ? { repository } : {},
    );
  const races = { here: [] as RaceResult[], there: [] as RaceResult[], hereAtEqualLoad: [] as RaceResult[], thereAtEqualLoad: [] as RaceResult[] };
  const add = (side: 'here' | 'there', { saturated, atEqualLoad }: { saturated: RaceResult; atEqualLoad: RaceResult }) => {
    races[side].push(saturated);
    races[side === 'here' ? 'hereAtEqualLoad' : 'thereAtEqualLoad'].push(atEqualLoad);
  };
  for (let trial = 1; trial <= options.trials; trial++) {
    if (trial % 2 === 1) {
      add('there', await raceIn(folder));
      add('here', await raceIn(undefined));
    } else {
      add('here', await raceIn(undefined));
      add('there', await raceIn(folder));
    }
    const cpu = (race: RaceResult) => `server ${race.serverCpuCores[0]}, database ${race.databaseCpuCores}, client ${race.clientCpuCores} cores; refused ${Math.round(race.refusedShare * 100)}%`;
    const [here, there] = [races.here.at(-1)!, races.there.at(-1)!];
    const [hereAtLoad, thereAtLoad] = [races.hereAtEqualLoad.at(-1)!, races.thereAtEqualLoad.at(-1)!];
    options.log(
      `${label}, trial ${trial}: ${here.acceptedPerSecond} accepted bids/s ${names[0]} (${cpu(here)}) vs ${there.acceptedPerSecond} ${names[1]} (${cpu(there)}); ` +
        `offered ${EQUAL_LOAD_BIDS_PER_SECOND} bids/s: ${msPerBid(hereAtLoad.serverCpuCores[0]!, hereAtLoad)} vs ${msPerBid(thereAtLoad.serverCpuCores[0]!, thereAtLoad)} ms of server CPU a bid ` +
        `(${hereAtLoad.acceptedPerSecond} vs ${thereAtLoad.acceptedPerSecond} accepted/s)`,
    );
    // Below capacity each side sends on the schedule; one that fell behind it was not at the load compared.
    for (const [name, race] of [[names[0], hereAtLoad], [names[1], thereAtLoad]] as const) {
      if (race.attemptsPerSecond < 0.95 * EQUAL_LOAD_BIDS_PER_SECOND || race.refusedShare > 0.05) {
        options.log(
          `${label}, trial ${trial}: NOT AT THE EQUAL LOAD: ${name} sent ${race.attemptsPerSecond} of ${EQUAL_LOAD_BIDS_PER_SECOND} bids/s offered, ` +
            `${Math.round(race.refusedShare * 100)}% refused; its CPU a bid is not comparable`,
        );
      }
    }
  }
  return races;
}

/** What paired races say of a change's cost: accepted bids/s and the server's CPU a bid saturated, and its CPU a bid at an equal load, against the other checkout's. */
export function costFigures(
  { here, there, hereAtEqualLoad, thereAtEqualLoad }: PairedRaces,
  about: { bidsPerSecond: string; cpuPerBid: string; baselineName: string; goalRatio: number | null; details: readonly [string, string] },
): Figure[] {
  const [hereName, thereName] = about.details;
  return [
    {
      name: about.bidsPerSecond,
      unit: 'bids/s',
      baselineName: about.baselineName,
      higherIsBetter: true,
      goalRatio: about.goalRatio,
      trials: here.map((race, index) => ({ value: race.acceptedPerSecond, baseline: there[index]!.acceptedPerSecond })),
      details: { [hereName]: raceDetails(here), [thereName]: raceDetails(there) },
    },
    {
      name: about.cpuPerBid,
      unit: 'ms',
      baselineName: about.baselineName,
      higherIsBetter: false,
      goalRatio: about.goalRatio,
      trials: here.map((race, index) => ({ value: msPerBid(race.serverCpuCores[0]!, race), baseline: msPerBid(there[index]!.serverCpuCores[0]!, there[index]!) })),
      details: { [hereName]: cpuDetails(here), [thereName]: cpuDetails(there) },
    },
    {
      name: `${about.cpuPerBid}, at an equal load: ${EQUAL_LOAD_BIDS_PER_SECOND} bids/s offered to both`,
      unit: 'ms',
      baselineName: about.baselineName,
      higherIsBetter: false,
      goalRatio: about.goalRatio,
      trials: hereAtEqualLoad.map((race, index) => ({ value: msPerBid(race.serverCpuCores[0]!, race), baseline: msPerBid(thereAtEqualLoad[index]!.serverCpuCores[0]!, thereAtEqualLoad[index]!) })),
      details: { [hereName]: equalLoadDetails(hereAtEqualLoad), [thereName]: equalLoadDetails(thereAtEqualLoad) },
    },
  ];
}

/** Per trial: what was sent and accepted (EQUAL_LOAD_BIDS_PER_SECOND on both sides, or the trial was not at that load), and where the CPU went. */
function equalLoadDetails(races: readonly RaceResult[]): Record<string, unknown> {
  return { attemptsPerSecond: races.map((race) => race.attemptsPerSecond), acceptedPerSecond: races.map((race) => race.acceptedPerSecond), ...cpuDetails(races) };
}

const msPerBid = (cores: number, race: RaceResult) => round((cores / race.acceptedPerSecond) * 1000, 3);

/** Per trial: the server's cores through the race, and the database's CPU a bid beside it. */
function cpuDetails(races: readonly RaceResult[]): Record<string, unknown> {
  return { serverCpuCores: races.map((race) => race.serverCpuCores[0]), databaseCpuMsPerBid: races.map((race) => msPerBid(race.databaseCpuCores, race)) };
}

/** Per trial: what a race's throughput figure hides (refusals, answer times, where the CPU went). */
function raceDetails(races: readonly RaceResult[]): Record<string, unknown> {
  return {
    attemptsPerSecond: races.map((race) => race.attemptsPerSecond),
    refusedShare: races.map((race) => race.refusedShare),
    postP50Ms: races.map((race) => race.postMs.p50),
    serverCpuCores: races.map((race) => race.serverCpuCores[0]),
    databaseCpuCores: races.map((race) => race.databaseCpuCores),
    clientCpuCores: races.map((race) => race.clientCpuCores),
  };
}

/** Notices made during the race (from `startedAt`, for `seconds`), per second; and the share of the race's notices made after it, once the notifier caught up. */
async function noticesSince(databaseUrl: string, startedAt: Date, seconds: number): Promise<{ noticesPerSecond: number; noticesMadeLaterShare: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const endedAt = new Date(startedAt.getTime() + seconds * 1000);
    const count = async () => {
      const { rows } = await client.query<{ during: string; later: string }>(
        'SELECT count(*) FILTER (WHERE created_at <= $2) AS during, count(*) FILTER (WHERE created_at > $2) AS later FROM notifications WHERE created_at >= $1',
        [startedAt, endedAt],
      );
      return { during: Number(rows[0]!.during), later: Number(rows[0]!.later) };
    };
    // The race has ended and the read models have caught up; the notifier may still be at it.
    let last = await count();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await count();
      if (now.during + now.later === last.during + last.later) break;
      last = now;
    }
    return { noticesPerSecond: Math.round(last.during / seconds), noticesMadeLaterShare: round(last.later / Math.max(1, last.during + last.later), 3) };
  } finally {
    await client.end();
  }
}

/** Accepted bids/s against one INSERT per commit from as many clients: at least as many is the goal. */
function throughputFigure(name: string, trials: Trial[], details: TrialDetails): Figure {
  return { name, unit: 'bids/s', baselineName: `one INSERT per commit, ${BIDDERS} clients`, higherIsBetter: true, goalRatio: 1.0, trials, details: details.throughput() };
}

/** Each trial: a race on a fresh auction, then as long a run of the baseline on the same database. */
async function runTrials(options: ServerBenchOptions, deployment: Deployment, label: string): Promise<{ throughput: Trial[]; lag: Trial[]; details: TrialDetails }> {
  const throughput: Trial[] = [];
  const lag: Trial[] = [];
  const details = new TrialDetails(deployment);
  for (let trial = 1; trial <= options.trials; trial++) {
    const run = await deployment.race(options.seconds);
    const insert = await oneInsertPerCommit(deployment.databaseUrl, BIDDERS, options.seconds);
    const ceiling = await httpCeiling(BIDDERS, options.seconds);
    throughput.push({ value: run.acceptedPerSecond, baseline: insert.rowsPerSecond });
    lag.push({ value: run.lagMs.p99, baseline: 0 });
    details.add(run, insert, ceiling);
    options.log(
      `${label}, trial ${trial}: ${run.acceptedPerSecond} accepted bids/s (refused ${Math.round(run.refusedShare * 100)}%) vs ${insert.rowsPerSecond} INSERTs/s ` +
        `and ${ceiling.answersPerSecond} answers/s of bare Fastify; read-model lag p50 ${run.lagMs.p50} ms, p99 ${run.lagMs.p99} ms`,
    );
  }
  return { throughput, lag, details };
}

interface Deployment {
  readonly databaseUrl: string;
  readonly servers: readonly ProductServer[];
  /** Each server's RSS (MiB) right after it was ready. */
  readonly rssAtStart: readonly number[];
  /** A fresh auction raced for `seconds`; returns once the read models show every accepted bid (or gave up). */
  race(seconds: number, offeredPerSecond?: number): Promise<RaceResult>;
}

/**
 * A database, `processes` servers on it (sharing DATA_DIR and the JWT secret, as replicas do), an
 * admin's photo and the bidders, split evenly between the servers; all removed afterwards.
 */
async function withDeployment<T>(
  options: ServerBenchOptions,
  processes: number,
  work: (deployment: Deployment) => Promise<T>,
  server: Pick<ServerSettings, 'notifier' | 'repository'> = {},
): Promise<T> {
  return inFreshDeployment(options, async (settings) => {
    const servers: ProductServer[] = [];
    const clients: ApiClient[] = [];
    try {
      // One after the other: both would migrate the same empty database at once otherwise.
      for (let index = 1; index <= processes; index++) servers.push(await startProductServer({ ...settings, ...server, name: `server-${index}` }));
      const rssAtStart = servers.map((server) => server.rssMiB());
      clients.push(...servers.map((server) => new ApiClient(server.url, BIDDERS)));
      const admin = clients[0]!;
      const adminToken = await signInAsAdmin(admin, settings.admin);
      const photoId = await uploadPhoto(admin, adminToken);
      const bidders = await registerBidders(admin, BIDDERS);
      const participants = bidders.map((bidder, index) => ({ bidder, api: clients[index % clients.length]! }));
      const deployment: Deployment = {
        databaseUrl: settings.databaseUrl,
        servers,
        rssAtStart,
        race: async (seconds, offeredPerSecond) => {
          const auctionId = await publishAuction(admin, adminToken, photoId);
          await untilIdle(servers);
          return raceOnce(settings.databaseUrl, auctionId, participants, servers, seconds, offeredPerSecond);
        },
      };
      options.log(`hot auction: ${processes} server process(es) ready, RSS ${rssAtStart.join(', ')} MiB; warming up`);
      await deployment.race(WARM_UP_SECONDS);
      for (let lot = 0; lot < SETTLING_LOTS; lot++) await deployment.race(SETTLING_SECONDS);
      return await work(deployment);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(servers.map((server) => server.stop()));
    }
  });
}

/** A server below this share of a core over IDLE_SAMPLE_MS is idle (timers only). */
const IDLE_CORES = 0.05;
const IDLE_SAMPLE_MS = 500;
const IDLE_WAIT_MS = 15_000;

/**
 * Waits (up to IDLE_WAIT_MS) until every server is idle: what a race left to finish (notices made
 * after it, a checkpoint, the read models of a lot just published) is not charged to the next.
 */
async function untilIdle(servers: readonly ProductServer[]): Promise<void> {
  const giveUpAt = performance.now() + IDLE_WAIT_MS;
  let before = servers.map((server) => server.cpuSeconds());
  while (performance.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
    const now = servers.map((server) => server.cpuSeconds());
    if (now.every((seconds, index) => (seconds - before[index]!) / (IDLE_SAMPLE_MS / 1000) < IDLE_CORES)) return;
    before = now;
  }
}

interface RaceResult {
  /** When the load began (after the lot was published and the servers idled). */
  readonly startedAt: Date;
  readonly acceptedPerSecond: number;
  readonly attemptsPerSecond: number;
  readonly refusedShare: number;
  readonly refusedByCode: Record<string, number>;
  /** POST /api/bids, every answer (accepted or refused), from sending to the whole answer read. */
  readonly postMs: { readonly p50: number; readonly p99: number };
  /** From each 201 to its row in the bids read model. */
  readonly lagMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Accepted bids the read model had not shown READ_MODEL_WAIT_MS after the load ended. */
  readonly missingFromReadModel: number;
  /** CPU time over the load's wall time: 1 is one core busy all along. Per server process, and this (client) process. */
  readonly serverCpuCores: readonly number[];
  /** Every PostgreSQL process on this machine (zero when the database runs elsewhere). */
  readonly databaseCpuCores: number;
  readonly clientCpuCores: number;
}

/**
 * What the bidders know, as the live feed would tell them: the highest price answered so far and
 * who leads at it; and the next amount anyone will send, so that bids leave the clients strictly
 * increasing. Only requests overtaking each other on the way to the auction can then be refused.
 */
interface Feed {
  nextAmount: number;
  highestPrice: number;
  leaderId: string | null;
}

async function raceOnce(
  databaseUrl: string,
  auctionId: string,
  participants: ReadonlyArray<{ bidder: Bidder; api: ApiClient }>,
  servers: readonly ProductServer[],
  seconds: number,
  offeredPerSecond?: number,
): Promise<RaceResult> {
  const feed: Feed = { nextAmount: STARTING_PRICE_DOLLARS + BID_INCREMENT_DOLLARS, highestPrice: STARTING_PRICE_DOLLARS, leaderId: null };
  const probe = await ReadModelLagProbe.open(databaseUrl);
  const latencies: number[] = [];
  const refusedByCode: Record<string, number> = {};
  let accepted = 0;
  let refused = 0;
  const serverCpuBefore = servers.map((server) => server.cpuSeconds());
  const databaseCpuBefore = postgresCpuSeconds();
  const clientCpuBefore = process.cpuUsage();
  const startedAt = new Date();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  // Paced: each bidder has a turn every `interval` ms, the bidders' turns spread evenly over it.
  const interval = offeredPerSecond === undefined ? 0 : (participants.length / offeredPerSecond) * 1000;
  await Promise.all(
    participants.map(async ({ bidder, api }, index) => {
      // The minimum this bidder last heard of: from its own last answer, accepted or refused.
      let knownMinimum = feed.nextAmount;
      let turnAt = started + (index / participants.length) * interval;
      while (performance.now() < deadline) {
        if (interval > 0) {
          if (turnAt >= deadline) break;
          const wait = turnAt - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          // The next turn on this bidder's own beat: one whose answer came late skips the turns it
          // missed, rather than sending them in a burst or moving its beat onto another bidder's.
          turnAt += (Math.floor(Math.max(0, performance.now() - turnAt) / interval) + 1) * interval;
        }
        if (feed.leaderId === bidder.userId) {
          // A leader does not bid against itself: it watches until someone outbids it.
          await new Promise((resolve) => setTimeout(resolve, 1));
          continue;
        }
        const amount = Math.max(feed.nextAmount, knownMinimum);
        feed.nextAmount = amount + BID_INCREMENT_DOLLARS;
        const sentAt = performance.now();
        // As the web app sends every bid: with an Idempotency-Key of its own.
        const headers = { 'idempotency-key': randomUUID() };
        const answer = await api.call<PlacedBid | ErrorBody>('POST', '/api/bids', { body: { auctionId, amount }, token: bidder.token, headers });
        const answeredAt = performance.now();
        latencies.push(answeredAt - sentAt);
        if (answer.status === 201) {
          accepted++;
          const placed = answer.body as PlacedBid;
          probe.expect(placed.id, answeredAt);
          const standing = placed.auction;
          knownMinimum = standing.minimumBid;
          if (standing.currentPrice > feed.highestPrice) {
            feed.highestPrice = standing.currentPrice;
            feed.leaderId = standing.currentLeaderId;
          }
        } else if (answer.status === 409) {
          refused++;
          const refusal = answer.body as ErrorBody;
          const code = refusal.code ?? 'UNKNOWN';
          refusedByCode[code] = (refusedByCode[code] ?? 0) + 1;
          knownMinimum = Math.max(knownMinimum, minimumFromRefusal(refusal.message ?? '') ?? knownMinimum);
        } else {
          throw new Error(`POST /api/bids answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        }
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  // To a thousandth: a hundredth of a core is 1.5% of a paced race's CPU.
  const serverCpuCores = servers.map((server, index) => round((server.cpuSeconds() - serverCpuBefore[index]!) / elapsedSeconds, 3));
  const databaseCpuCores = round(postgresCpuSecondsBetween(databaseCpuBefore, postgresCpuSeconds()) / elapsedSeconds, 3);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientCpuCores = round((clientCpu.user + clientCpu.system) / 1e6 / elapsedSeconds, 2);
  const { lags, missing } = await probe.settle(READ_MODEL_WAIT_MS);
  const attempts = accepted + refused;
  return {
    startedAt,
    acceptedPerSecond: Math.round(accepted / elapsedSeconds),
    attemptsPerSecond: Math.round(attempts / elapsedSeconds),
    refusedShare: round(refused / Math.max(1, attempts), 3),
    refusedByCode,
    postMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
    lagMs: { p50: round(percentile(lags, 50)), p99: round(percentile(lags, 99)), max: round(percentile(lags, 100)) },
    missingFromReadModel: missing,
    serverCpuCores,
    databaseCpuCores,
    clientCpuCores,
  };
}

/**
 * The next minimum a refusal tells of, in dollars: "Bid must be at least $X" says it; "Bid must be
 * higher than current price of $X" says the price, one increment below it. Undefined for other
 * refusals (a conflict between processes: the bidder tries again with what it knew).
 */
function minimumFromRefusal(message: string): number | undefined {
  const money = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/,/g, '')));
  const atLeast = /at least \$([\d,.]+)/.exec(message)?.[1];
  if (atLeast !== undefined) return money(atLeast);
  const price = money(/current price of \$([\d,.]+)/.exec(message)?.[1]);
  return price === undefined ? undefined : price + BID_INCREMENT_DOLLARS;
}

/**
 * Read-model lag seen from outside: every ~5 ms one query asks the bids read model which of the
 * oldest accepted bids not yet seen are there. A bid's lag is from its 201 to the start of the first
 * query that found it (resolution: the poll interval plus one query).
 */
class ReadModelLagProbe {
  readonly #client: pg.Client;
  readonly #pending = new Map<string, number>();
  readonly #lags: number[] = [];
  #stopped = false;
  readonly #polling: Promise<void>;

  private constructor(client: pg.Client) {
    this.#client = client;
    this.#polling = this.#poll();
  }

  static async open(databaseUrl: string): Promise<ReadModelLagProbe> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return new ReadModelLagProbe(client);
  }

  expect(bidId: string, answeredAt: number): void {
    this.#pending.set(bidId, answeredAt);
  }

  /** Waits until every expected bid was seen, or `timeoutMs`; then stops. */
  async settle(timeoutMs: number): Promise<{ lags: number[]; missing: number }> {
    const deadline = performance.now() + timeoutMs;
    while (this.#pending.size > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    this.#stopped = true;
    await this.#polling;
    await this.#client.end();
    return { lags: this.#lags, missing: this.#pending.size };
  }

  async #poll(): Promise<void> {
    while (!this.#stopped) {
      if (this.#pending.size > 0) {
        const askedAt = performance.now();
        // A Map iterates in insertion order: the oldest answers first.
        const oldest: string[] = [];
        for (const id of this.#pending.keys()) {
          if (oldest.length === LAG_POLL_WINDOW) break;
          oldest.push(id);
        }
        const { rows } = await this.#client.query<{ id: string }>('SELECT id FROM bids WHERE id = ANY($1::text[])', [oldest]);
        for (const { id } of rows) {
          this.#lags.push(askedAt - this.#pending.get(id)!);
          this.#pending.delete(id);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, LAG_POLL_INTERVAL_MS));
    }
  }
}

interface InsertRun {
  readonly rowsPerSecond: number;
  readonly insertMs: { readonly p50: number; readonly p99: number };
}

/**
 * The baseline: what the database commits when every write is one INSERT in its own transaction.
 * `clients` connections (pg Pool) each insert rows shaped like a bid's event (a bigint and a jsonb
 * payload of the same size) into a scratch table, one after the other, for `seconds`.
 */
async function oneInsertPerCommit(databaseUrl: string, clients: number, seconds: number): Promise<InsertRun> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: clients });
  const table = 'bench_one_insert_per_commit';
  try {
    await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload jsonb NOT NULL)`);
    const latencies: number[] = [];
    let rows = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < deadline) {
          const sentAt = performance.now();
          await pool.query({ name: 'one-insert', text: `INSERT INTO ${table} (payload) VALUES ($1)`, values: [bidEventLikePayload()] });
          latencies.push(performance.now() - sentAt);
          rows++;
        }
      }),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    return { rowsPerSecond: Math.round(rows / elapsedSeconds), insertMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) } };
  } finally {
    await pool.end();
  }
}

interface CeilingRun {
  readonly answersPerSecond: number;
  readonly serverCpuCores: number;
}

/**
 * A second reference, in the details: what HTTP alone allows on this machine. Bare Fastify with
 * @fastify/jwt (server-bare-http.ts, its own process) answers the same POST /api/bids, bearer
 * token, body and Idempotency-Key from as many clients, for as long, with nothing behind it.
 */
async function httpCeiling(clients: number, seconds: number): Promise<CeilingRun> {
  const server = startHelper('server-bare-http.ts');
  try {
    const { port, token } = (await server.next()) as { port: number; token: string };
    const api = new ApiClient(`http://127.0.0.1:${port}`, clients);
    let answers = 0;
    const cpuBefore = cpuSeconds(server.child.pid!);
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let amount = 101 + client; performance.now() < deadline; amount += clients) {
          const answer = await api.call('POST', '/api/bids', { body: { auctionId: randomUUID(), amount }, token, headers: { 'idempotency-key': randomUUID() } });
          if (answer.status !== 201) throw new Error(`bare Fastify answered ${answer.status}`);
          answers++;
        }
      }),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    const serverCpuCores = round((cpuSeconds(server.child.pid!) - cpuBefore) / elapsedSeconds, 2);
    await api.close();
    return { answersPerSecond: Math.round(answers / elapsedSeconds), serverCpuCores };
  } finally {
    await server.stop();
  }
}

/** A BidPlaced event's data and metadata, as the product stores one (~0.7 KB of JSON). */
function bidEventLikePayload(): string {
  const now = new Date().toISOString();
  const bidderId = randomUUID();
  const bidId = randomUUID();
  return JSON.stringify({
    type: 'BidPlaced',
    data: {
      auctionId: randomUUID(),
      bidId,
      bidderId,
      amount: 1_234_500,
      maximum: null,
      placedAt: now,
      autoBids: [],
      standing: { price: 1_234_500, leaderId: bidderId, leadingBidId: bidId, leaderMaximum: 1_234_500, reserveMet: null },
    },
    metadata: { actorId: bidderId, actorRoles: ['BUYER'], occurredAt: now, correlationId: randomUUID(), commandId: randomUUID() },
  });
}

/** Per-trial figures worth reading beside the table's rows, and the servers' memory. */
class TrialDetails {
  readonly #runs: RaceResult[] = [];
  readonly #inserts: InsertRun[] = [];
  readonly #ceilings: CeilingRun[] = [];
  readonly #rssAfterTrials: number[][] = [];

  constructor(private readonly deployment: Deployment) {}

  add(run: RaceResult, insert: InsertRun, ceiling: CeilingRun): void {
    this.#runs.push(run);
    this.#inserts.push(insert);
    this.#ceilings.push(ceiling);
    this.#rssAfterTrials.push(this.deployment.servers.map((server) => server.rssMiB()));
  }

  throughput(): Record<string, unknown> {
    return {
      attemptsPerSecond: this.#runs.map((run) => run.attemptsPerSecond),
      refusedShare: this.#runs.map((run) => run.refusedShare),
      refusedByCode: this.#runs.map((run) => run.refusedByCode),
      postP50Ms: this.#runs.map((run) => run.postMs.p50),
      postP99Ms: this.#runs.map((run) => run.postMs.p99),
      baselineInsertP50Ms: this.#inserts.map((insert) => insert.insertMs.p50),
      baselineInsertP99Ms: this.#inserts.map((insert) => insert.insertMs.p99),
      httpCeilingAnswersPerSecond: this.#ceilings.map((ceiling) => ceiling.answersPerSecond),
      ofHttpCeiling: this.#runs.map((run, index) => round(run.acceptedPerSecond / this.#ceilings[index]!.answersPerSecond, 3)),
      httpCeilingServerCpuCores: this.#ceilings.map((ceiling) => ceiling.serverCpuCores),
      serverCpuCores: this.#runs.map((run) => run.serverCpuCores),
      databaseCpuCores: this.#runs.map((run) => run.databaseCpuCores),
      clientCpuCores: this.#runs.map((run) => run.clientCpuCores),
      ...this.#memory(),
    };
  }

  lag(): Record<string, unknown> {
    return {
      p50Ms: this.#runs.map((run) => run.lagMs.p50),
      p99Ms: this.#runs.map((run) => run.lagMs.p99),
      maxMs: this.#runs.map((run) => run.lagMs.max),
      missingFromReadModel: this.#runs.map((run) => run.missingFromReadModel),
      measuredBy: `SELECT id FROM bids WHERE id = ANY(...) every ${LAG_POLL_INTERVAL_MS} ms from the client process, over the ${LAG_POLL_WINDOW} oldest accepted bids not yet seen`,
      ...this.#memory(),
    };
  }

  /** One entry per server process: RSS right after it was ready, then after each trial. */
  #memory(): Record<string, unknown> {
    return {
      serverRssMiB: this.deployment.rssAtStart.map((atStart, index) => ({ atStart, afterEachTrial: this.#rssAfterTrials.map((trial) => trial[index]) })),
    };
  }
}
