/**
 * Section `engine` of `npm run bench`: the auction decider alone, decide + evolve, one bid after
 * another on one auction, in this process: the ceiling no store or server can raise. It has no
 * baseline of its own.
 */
import { randomUUID } from 'node:crypto';
import { auctionDecider, commandMetadata, EBAY_INCREMENTS, fold, minimumNextBid, type AuctionCommand, type AuctionState, type CommandMetadata } from '../../engine/domain';
import { median, NO_BASELINE, type Figure, type Trial } from './figures';
import type { ServerBenchOptions } from './server-harness';

const BIDS = 100_000;
const NOW = '2026-06-01T00:00:00.000Z';

export async function pureEngineFigures(options: ServerBenchOptions): Promise<Figure[]> {
  const trials: Trial[] = [];
  const heapGrowthMiB: number[] = [];
  for (let trial = 1; trial <= options.trials; trial++) {
    const run = bidOneAfterAnother(BIDS);
    trials.push({ value: run.bidsPerSecond, baseline: 0 });
    heapGrowthMiB.push(run.heapGrowthMiB);
    options.log(`pure engine, trial ${trial}: ${Math.round(run.bidsPerSecond)} bids/s`);
  }
  return [
    {
      name: 'pure engine (decide + evolve), one bid after another',
      unit: 'bids/s',
      baselineName: NO_BASELINE,
      higherIsBetter: true,
      goalRatio: null,
      trials,
      details: { bidsPerTrial: BIDS, heapGrowthMiB: median(heapGrowthMiB) },
    },
  ];
}

function metadata(userId: string, roles: CommandMetadata['actor']['roles']): CommandMetadata {
  return commandMetadata({ userId, roles }, NOW, { correlationId: randomUUID(), commandId: randomUUID() });
}

function bidOneAfterAnother(bids: number): { bidsPerSecond: number; heapGrowthMiB: number } {
  const schedule: AuctionCommand = {
    type: 'ScheduleAuction',
    data: {
      auctionId: 'pure',
      listingId: 'listing-pure',
      sellerId: 'seller',
      startsAt: '2026-01-01T00:00:00.000Z',
      endsAt: '2099-01-01T00:00:00.000Z',
      rules: { currency: 'USD', startingPrice: 10_000, incrementTable: EBAY_INCREMENTS, softClose: null, reservePrice: null, buyNowPrice: null },
    },
    metadata: metadata('admin', ['ADMIN']),
  };
  let state: AuctionState = fold(auctionDecider, auctionDecider.decide(schedule, auctionDecider.initialState));
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  for (let i = 0; i < bids; i++) {
    if (state.status !== 'ACTIVE') throw new Error('auction not active');
    const amount = minimumNextBid(state.facts.rules, state.standing);
    const bid: AuctionCommand = { type: 'PlaceBid', data: { auctionId: 'pure', bidId: randomUUID(), amount, maximum: null }, metadata: metadata(`bidder-${i % 50}`, ['BUYER']) };
    for (const event of auctionDecider.decide(bid, state)) state = auctionDecider.evolve(state, event);
  }
  const seconds = (performance.now() - started) / 1000;
  return { bidsPerSecond: bids / seconds, heapGrowthMiB: Math.round(((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024) * 10) / 10 };
}
