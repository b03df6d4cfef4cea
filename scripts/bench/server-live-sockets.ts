/**
 * The audience of the live fan-out (server-live-fan-out.ts), in a process of its own: N sockets
 * following one auction on the product's /ws/bidding as the web app does (subscribe, parse every
 * message), N more on the bare `ws` server. It sends the bids itself, one at a time over HTTP, so
 * that each sample is read on one clock: from sending the POST until the last of the N sockets has
 * the bid_placed. Each product bid is followed by a broadcast of the very same bytes from the bare
 * server, measured the same way. Driven by its parent over IPC (LiveSocketsCommand, LiveSocketsReport).
 */
import WebSocket from 'ws';
import { Pool } from 'undici';

export interface LiveSocketsCommand {
  readonly sockets: number;
  readonly trials: number;
  /** Seconds of product bids (and as many baseline broadcasts) per trial. */
  readonly seconds: number;
  readonly warmUpBids: number;
  readonly product: { readonly url: string; readonly auctionId: string; readonly bidderTokens: readonly string[]; readonly firstAmount: number };
  readonly bare: { readonly url: string };
}

export type LiveSocketsReport =
  | { readonly kind: 'connected' }
  | {
      readonly kind: 'trial';
      /** Send -> the last socket has it, ms, one per bid. */
      readonly productMs: number[];
      readonly baselineMs: number[];
      /** The POST /api/bids answer, ms. */
      readonly answerMs: number[];
      readonly messageBytes: number;
    }
  | { readonly kind: 'failed'; readonly message: string };

/** A sample waits at most this long for every socket; longer means a socket lost a message. */
const SAMPLE_TIMEOUT_MS = 10_000;
/** Between samples: what one sample left running (the product's projections, a flush) settles first. */
const PAUSE_BETWEEN_SAMPLES_MS = 10;

/** N sockets on one server, following one auction; tells when all of them have had one bid_placed. */
class Audience {
  readonly #sockets: WebSocket[] = [];
  #received = 0;
  #arrived: ((at: number) => void) | undefined;
  /** The last bid_placed as one socket received it, byte for byte. */
  lastMessage: Buffer = Buffer.alloc(0);

  static async connect(wsUrl: string, auctionId: string, count: number): Promise<Audience> {
    const audience = new Audience();
    for (let index = 0; index < count; index += 50) {
      await Promise.all(Array.from({ length: Math.min(50, count - index) }, () => audience.#join(wsUrl, auctionId)));
    }
    return audience;
  }

  async #join(wsUrl: string, auctionId: string): Promise<void> {
    const socket = new WebSocket(wsUrl);
    this.#sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('message', (data: Buffer) => {
        // As the web app does: every message is parsed, then looked at.
        const message = JSON.parse(data.toString()) as { type: string };
        if (message.type === 'subscribed') resolve();
        else if (message.type === 'bid_placed') this.#bidPlaced(data);
      });
      socket.once('open', () => socket.send(JSON.stringify({ action: 'subscribe', auctionId })));
    });
  }

  #bidPlaced(data: Buffer): void {
    this.#received++;
    if (this.#received === 1) this.lastMessage = data;
    if (this.#received === this.#sockets.length) this.#arrived?.(performance.now());
  }

  /** When the last socket has the next bid_placed. One at a time. */
  nextArrival(): Promise<number> {
    this.#received = 0;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.#received} of ${this.#sockets.length} sockets got the message`)), SAMPLE_TIMEOUT_MS);
      this.#arrived = (at) => {
        clearTimeout(timer);
        this.#arrived = undefined;
        resolve(at);
      };
    });
  }

  close(): void {
    for (const socket of this.#sockets) socket.terminate();
  }
}

async function post(pool: Pool, path: string, body: string, token?: string): Promise<{ status: number; text: string }> {
  const response = await pool.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

async function run(command: LiveSocketsCommand, report: (message: LiveSocketsReport) => void): Promise<void> {
  const { product, bare } = command;
  const productAudience = await Audience.connect(`${product.url.replace(/^http/, 'ws')}/ws/bidding`, product.auctionId, command.sockets);
  const bareAudience = await Audience.connect(`${bare.url.replace(/^http/, 'ws')}/ws`, product.auctionId, command.sockets);
  report({ kind: 'connected' });
  const productApi = new Pool(product.url, { connections: 1 });
  const bareApi = new Pool(bare.url, { connections: 1 });
  let amount = product.firstAmount;
  let bids = 0;

  const productSample = async () => {
    // Two bidders take turns, so that nobody bids against themselves.
    const token = product.bidderTokens[bids++ % product.bidderTokens.length]!;
    const arrival = productAudience.nextArrival();
    const sentAt = performance.now();
    const answer = await post(productApi, '/api/bids', JSON.stringify({ auctionId: product.auctionId, amount: amount++ }), token);
    const answeredAt = performance.now();
    if (answer.status !== 201) throw new Error(`POST /api/bids answered ${answer.status}: ${answer.text}`);
    return { ms: (await arrival) - sentAt, answerMs: answeredAt - sentAt };
  };
  const baselineSample = async () => {
    await post(bareApi, '/message', productAudience.lastMessage.toString());
    const arrival = bareAudience.nextArrival();
    const sentAt = performance.now();
    await post(bareApi, '/broadcast', '');
    return (await arrival) - sentAt;
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_SAMPLES_MS));

  try {
    for (let index = 0; index < command.warmUpBids; index++) {
      await productSample();
      await pause();
      await baselineSample();
      await pause();
    }
    for (let trial = 0; trial < command.trials; trial++) {
      const productMs: number[] = [];
      const baselineMs: number[] = [];
      const answerMs: number[] = [];
      // Alternating, so that both see the machine in the same state; each gets `seconds` in all.
      const deadline = performance.now() + 2 * command.seconds * 1000;
      while (performance.now() < deadline) {
        const sample = await productSample();
        productMs.push(sample.ms);
        answerMs.push(sample.answerMs);
        await pause();
        baselineMs.push(await baselineSample());
        await pause();
      }
      report({ kind: 'trial', productMs, baselineMs, answerMs, messageBytes: productAudience.lastMessage.length });
    }
  } finally {
    productAudience.close();
    bareAudience.close();
    await productApi.close();
    await bareApi.close();
  }
}

process.once('message', (command: LiveSocketsCommand) => {
  const report = (message: LiveSocketsReport) => process.send!(message);
  run(command, report)
    .then(() => process.disconnect())
    .catch((error: unknown) => {
      report({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      process.disconnect();
    });
});
