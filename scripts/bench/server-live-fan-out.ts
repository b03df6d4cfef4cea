/**
 * Figure 4: a bid sent over HTTP until the LAST of 1,000 sockets following the auction has its
 * bid_placed, against a bare `ws` server broadcasting the same bytes to 1,000 sockets. Three
 * processes besides this one: the product server, the bare server (server-bare-ws.ts) and the
 * audience (server-live-sockets.ts), which holds both sets of sockets and sends the bids and the
 * broadcast orders itself, alternating one and the other.
 */
import { percentile, type Figure, type Trial } from './figures';
import {
  ApiClient,
  BID_INCREMENT_DOLLARS,
  inFreshDeployment,
  publishAuction,
  registerBidders,
  residentMiB,
  round,
  signInAsAdmin,
  startHelper,
  startProductServer,
  STARTING_PRICE_DOLLARS,
  uploadPhoto,
  type Helper,
  type ProductServer,
  type ServerBenchOptions,
} from './server-harness';
import type { LiveSocketsCommand, LiveSocketsReport } from './server-live-sockets';

const SOCKETS = 1000;
const WARM_UP_BIDS = 20;
/** value/baseline at most 1.2, as a good-is-higher ratio (1/1.2, rounded for the table). */
const GOAL_RATIO = 0.83;

export async function liveFanOutFigures(options: ServerBenchOptions): Promise<Figure[]> {
  return inFreshDeployment(options, async (settings) => {
    let server: ProductServer | undefined;
    let bare: Helper | undefined;
    let audience: Helper | undefined;
    try {
      server = await startProductServer({ ...settings, name: 'server' });
      const rssAtStart = server.rssMiB();
      const api = new ApiClient(server.url, 4);
      const adminToken = await signInAsAdmin(api, settings.admin);
      const auctionId = await publishAuction(api, adminToken, await uploadPhoto(api, adminToken));
      const bidders = await registerBidders(api, 2);
      await api.close();

      bare = startHelper('server-bare-ws.ts');
      const barePort = ((await bare.next()) as { port: number }).port;
      audience = startHelper('server-live-sockets.ts');
      const command: LiveSocketsCommand = {
        sockets: SOCKETS,
        trials: options.trials,
        seconds: options.seconds,
        warmUpBids: WARM_UP_BIDS,
        product: { url: server.url, auctionId, bidderTokens: bidders.map((bidder) => bidder.token), firstAmount: STARTING_PRICE_DOLLARS + BID_INCREMENT_DOLLARS },
        bare: { url: `http://127.0.0.1:${barePort}` },
      };
      audience.child.send(command);
      expectReport(await audience.next(), 'connected');
      options.log(`live fan-out: ${SOCKETS} sockets on the product and on the bare server; product RSS ${server.rssMiB()} MiB`);

      const p50: Trial[] = [];
      const p99: Trial[] = [];
      const answerP50Ms: number[] = [];
      const samples: number[] = [];
      const rssAfterEachTrial: number[] = [];
      const bareRssAfterEachTrial: number[] = [];
      let messageBytes = 0;
      for (let trial = 1; trial <= options.trials; trial++) {
        const report = expectReport(await audience.next(), 'trial');
        p50.push({ value: round(percentile(report.productMs, 50)), baseline: round(percentile(report.baselineMs, 50)) });
        p99.push({ value: round(percentile(report.productMs, 99)), baseline: round(percentile(report.baselineMs, 99)) });
        answerP50Ms.push(round(percentile(report.answerMs, 50)));
        samples.push(report.productMs.length);
        rssAfterEachTrial.push(server.rssMiB());
        bareRssAfterEachTrial.push(residentMiB(bare.child.pid!));
        messageBytes = report.messageBytes;
        options.log(`live fan-out, trial ${trial}: p50 ${p50.at(-1)!.value} vs ${p50.at(-1)!.baseline} ms, p99 ${p99.at(-1)!.value} vs ${p99.at(-1)!.baseline} ms (${report.productMs.length} bids)`);
      }
      const details = {
        sockets: SOCKETS,
        samplesPerTrial: samples,
        messageBytes,
        bidAnswerP50Ms: answerP50Ms,
        serverRssMiB: { atStart: rssAtStart, afterEachTrial: rssAfterEachTrial },
        bareWsServerRssMiB: { afterEachTrial: bareRssAfterEachTrial },
        measuredBy:
          'one client process holds both sets of sockets and sends each bid (POST /api/bids) and each broadcast order (POST /broadcast) itself, alternating, ' +
          'from sending until the last socket has parsed the message',
      };
      const figure = (percentileName: string, trials: Trial[]): Figure => ({
        name: `bid -> bid_placed at the LAST of ${SOCKETS.toLocaleString('en-US')} sockets, ${percentileName}`,
        unit: 'ms',
        baselineName: `a bare ws server broadcasting the same bytes to ${SOCKETS.toLocaleString('en-US')} sockets`,
        higherIsBetter: false,
        goalRatio: GOAL_RATIO,
        trials,
        details,
      });
      return [figure('p50', p50), figure('p99', p99)];
    } finally {
      await audience?.stop();
      await bare?.stop();
      await server?.stop();
    }
  });
}

function expectReport<Kind extends LiveSocketsReport['kind']>(report: unknown, kind: Kind): Extract<LiveSocketsReport, { kind: Kind }> {
  const received = report as LiveSocketsReport;
  if (received.kind === 'failed') throw new Error(`the sockets' process failed: ${received.message}`);
  if (received.kind !== kind) throw new Error(`expected ${kind} from the sockets' process, got ${received.kind}`);
  return received as Extract<LiveSocketsReport, { kind: Kind }>;
}
