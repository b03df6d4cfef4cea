import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RawData, WebSocket } from 'ws';
import { ForeignEventFilter } from '../../engine/application/foreign-events';
import { consoleLogger, type Logger } from '../../engine/application/logger';
import { asEngineEvent } from '../../engine/application/messages';
import { assertNever, autoBidId, endsAtAfterBid, minimumNextBid, type AuctionEvent } from '../../engine/domain';
import { comparePositions, START, type EventStore, type LogPosition, type RecordedEvent, type Subscription } from '../../engine/eventstore/port';
import { AuctionViews, type AppliedEvent } from './auction-views';
import { clientMessageSchema, MALFORMED_MESSAGE, type ServerMessage } from '../contracts/live';
import { toDollars } from '../http/money';
import { presentAuctionSummary } from '../listings/presenters';

export interface LiveHubOptions {
  /** Sockets one API process serves; the next one is closed with 1013 "Too many connections". */
  readonly maxConnections?: number;
  readonly maxSubscriptionsPerSocket?: number;
  /** A socket with more than this waiting to be sent is not reading: it is closed (1013 "Too slow"). */
  readonly maxBufferedBytes?: number;
  /** Sockets that did not answer the previous ping by the next one are terminated. */
  readonly pingIntervalMs?: number;
  /** How many auctions' rules and standings the hub keeps in memory. */
  readonly cachedAuctions?: number;
  /** What time it is: an auction's status and whether it takes bids depend on it. */
  readonly clock?: () => Date;
  /** Told of every message in and out, for metrics. */
  readonly observer?: LiveObserver;
}

export interface LiveObserver {
  messageReceived(): void;
  messagesSent(count: number): void;
}

export interface LiveHubStats {
  readonly connections: number;
  readonly watchedAuctions: number;
  /** Sockets closed because they did not read what they were sent. */
  readonly closedAsTooSlow: number;
}

const OPEN = 1; // WebSocket.OPEN
const CLOSED = 3; // WebSocket.CLOSED

/**
 * Sockets one message is written to before the hub lets the event loop turn: writing costs ~10 µs
 * a socket, and a message to thousands of watchers must not hold up HTTP for its whole fan-out.
 */
export const SOCKETS_PER_TURN = 250;

/** Close codes (RFC 6455): going away (shutdown), try again later (full, or a socket that does not read). */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_TRY_AGAIN_LATER = 1013;

/**
 * How a socket signs in (with an access token in a message, never in the URL): given by the routes,
 * which hold the token verifier and the notices.
 */
export interface SocketSignIn {
  /** The token's user, or null when the token is not a valid, current access token. */
  verify(token: string): Promise<{ userId: string; expiresAt: Date; isCurrent(): Promise<boolean> } | null>;
  unreadCount(userId: string): Promise<number>;
  /** The user has no signed-in socket on this process any more. */
  signedOut(userId: string): void;
}

/** A socket's user, as its token said when checked. */
type SignedIn = NonNullable<Awaited<ReturnType<SocketSignIn['verify']>>>;

interface Client {
  readonly socket: WebSocket;
  readonly auctions: Set<string>;
  readonly signIn: SocketSignIn | undefined;
  /** Set once the socket has signed in: it then also carries that user's notices. */
  user: SignedIn | null;
  /** Moves with each sign-in or sign-out asked for: a token check that finishes after a later one counts for nothing. */
  signInTurn: number;
  /** Answered the last ping. */
  alive: boolean;
  /** Being closed by the hub: nothing more is sent or accepted. */
  dropped: boolean;
}

const AUCTION_EVENT_TYPES: ReadonlySet<string> = new Set<AuctionEvent['type']>([
  'AuctionScheduled',
  'AuctionOpened',
  'BidPlaced',
  'MaximumBidRaised',
  'AuctionExtended',
  'BidRetracted',
  'AuctionClosed',
  'AuctionCancelled',
]);

/**
 * Live auction updates for one API process. One event-store subscription (from the end of the log
 * at start: the past is not news) feeds every socket this process serves, so a bid decided by any
 * process, or anything else that writes to the log, reaches every watcher; nothing is broadcast
 * from an HTTP handler. A message is worded and encoded once and the same bytes go to each
 * watcher, a few hundred sockets per turn of the event loop, one message after the other.
 */
export class LiveHub {
  readonly #store: EventStore;
  readonly #log: Logger;
  readonly #foreign: ForeignEventFilter;
  readonly #maxConnections: number;
  readonly #maxSubscriptions: number;
  readonly #maxBufferedBytes: number;
  readonly #pingIntervalMs: number;
  readonly #clock: () => Date;
  readonly #observer: LiveObserver | undefined;
  readonly #views: AuctionViews;
  readonly #clients = new Set<Client>();
  readonly #watchers = new Map<string, Set<Client>>();
  /** Signed-in sockets by user: where a user's notices go. */
  readonly #users = new Map<string, Set<Client>>();
  #subscription: Subscription | undefined;
  /** The last event handled: where a failed subscription resumes, so that nothing is skipped. */
  #position: LogPosition | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #started = false;
  #stopped = false;
  #closedAsTooSlow = 0;

  constructor(store: EventStore, options: LiveHubOptions = {}, log: Logger = consoleLogger) {
    this.#store = store;
    this.#log = log;
    this.#foreign = new ForeignEventFilter('the live hub', log, store);
    this.#maxConnections = options.maxConnections ?? 10_000;
    this.#maxSubscriptions = options.maxSubscriptionsPerSocket ?? 50;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.#pingIntervalMs = options.pingIntervalMs ?? 30_000;
    this.#clock = options.clock ?? (() => new Date());
    this.#observer = options.observer;
    this.#views = new AuctionViews(store, options.cachedAuctions);
  }

  /**
   * Starts from the end of the log as it is now: resolves once the hub is positioned there, so that
   * anything appended after `start()` resolves reaches its watchers. `after`, a position known to be
   * in the log (a projection checkpoint), spares reading the log from its beginning to find the end.
   */
  async start(options: { after?: LogPosition } = {}): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    let position = options.after && comparePositions(options.after, START) > 0 ? options.after : undefined;
    for (;;) {
      const page = await this.#store.readAll({ ...(position ? { after: position } : {}), maxCount: 1000 });
      if (page.length === 0) break;
      position = page.at(-1)!.position;
    }
    this.#position = position;
    this.#subscribe(position ?? 'start');
    this.#heartbeat = setInterval(() => this.#ping(), this.#pingIntervalMs);
    this.#heartbeat.unref();
  }

  /** Stops listening to the log and closes every socket with 1001 (going away). */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#retry);
    await this.#subscription?.stop();
    await this.closeSockets([...this.#clients].map((client) => client.socket));
  }

  /**
   * Closes `sockets` with 1001 and resolves once they are closed; a socket that does not answer the
   * close handshake within `graceMs` is cut off, so that a shutdown never waits on a client.
   */
  async closeSockets(sockets: Iterable<WebSocket>, graceMs = 1000): Promise<void> {
    await Promise.all(
      [...sockets].map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === CLOSED) return resolve();
            const cutOff = setTimeout(() => socket.terminate(), graceMs);
            cutOff.unref();
            socket.once('close', () => {
              clearTimeout(cutOff);
              resolve();
            });
            socket.close(CLOSE_GOING_AWAY, 'Server shutting down');
          }),
      ),
    );
  }

  /** Takes a new socket: from now on it may subscribe to auctions, and sign in with `signIn`. */
  connect(socket: WebSocket, signIn?: SocketSignIn): void {
    if (this.#stopped) {
      socket.close(CLOSE_GOING_AWAY, 'Server shutting down');
      return;
    }
    if (this.#clients.size >= this.#maxConnections) {
      socket.close(CLOSE_TRY_AGAIN_LATER, 'Too many connections');
      return;
    }
    const client: Client = { socket, auctions: new Set(), signIn, user: null, signInTurn: 0, alive: true, dropped: false };
    this.#clients.add(client);
    socket.on('message', (data, isBinary) => this.#receive(client, data, isBinary));
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('close', () => {
      this.#unwatchAll(client);
      this.#signOut(client);
      this.#clients.delete(client);
    });
  }

  /** Users with a signed-in socket on this process. */
  signedInUsers(): string[] {
    return [...this.#users.keys()];
  }

  isSignedIn(userId: string): boolean {
    return this.#users.has(userId);
  }

  /** Sends a message to every signed-in socket of the user here, unless its token has expired meanwhile. */
  sendToUser(userId: string, message: ServerMessage): void {
    const clients = this.#users.get(userId);
    if (!clients) return;
    const data = encode(message);
    const now = this.#clock().getTime();
    let sent = 0;
    for (const client of [...clients]) {
      if (client.user && client.user.expiresAt.getTime() <= now) {
        this.#signOut(client, 'The access token has expired');
        continue;
      }
      if (this.#send(client, data)) sent++;
    }
    this.#observer?.messagesSent(sent);
  }

  stats(): LiveHubStats {
    return { connections: this.#clients.size, watchedAuctions: this.#watchers.size, closedAsTooSlow: this.#closedAsTooSlow };
  }

  // ---- client messages ----------------------------------------------------------------------

  #receive(client: Client, data: RawData, isBinary: boolean): void {
    if (client.dropped) return;
    this.#observer?.messageReceived();
    if (isBinary) return this.#reply(client, { type: 'error', message: 'Messages must be JSON text' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(textOf(data));
    } catch {
      return this.#reply(client, { type: 'error', message: 'Message is not valid JSON' });
    }
    const message = clientMessageSchema.safeParse(parsed);
    if (!message.success) return this.#reply(client, { type: 'error', message: MALFORMED_MESSAGE });
    if (message.data.action === 'authenticate') return void this.#signIn(client, message.data.token);
    if (message.data.action === 'deauthenticate') {
      client.signInTurn++;
      return this.#signOut(client, 'Signed out');
    }
    const { action, auctionId } = message.data;
    if (action === 'subscribe') {
      if (!client.auctions.has(auctionId) && client.auctions.size >= this.#maxSubscriptions) {
        return this.#reply(client, { type: 'error', message: 'Too many subscriptions' });
      }
      client.auctions.add(auctionId);
      let watchers = this.#watchers.get(auctionId);
      if (!watchers) this.#watchers.set(auctionId, (watchers = new Set()));
      watchers.add(client);
      return this.#reply(client, { type: 'subscribed', auctionId });
    }
    this.#unwatch(client, auctionId);
    return this.#reply(client, { type: 'unsubscribed', auctionId });
  }

  async #signIn(client: Client, token: string): Promise<void> {
    const turn = ++client.signInTurn;
    const verified = client.signIn ? await client.signIn.verify(token).catch(() => null) : null;
    // Gone while the token was checked (its 'close' has already forgotten it), or asked to do otherwise since.
    if (client.dropped || client.socket.readyState !== OPEN || client.signInTurn !== turn) return;
    if (!verified) {
      this.#signOut(client, 'Invalid access token');
      return;
    }
    if (client.user && client.user.userId !== verified.userId) this.#signOut(client);
    client.user = verified;
    let clients = this.#users.get(verified.userId);
    if (!clients) this.#users.set(verified.userId, (clients = new Set()));
    clients.add(client);
    const unreadCount = await client.signIn!.unreadCount(verified.userId).catch(() => 0);
    if (client.user === verified && client.signInTurn === turn) this.#reply(client, { type: 'authenticated', userId: verified.userId, unreadCount });
  }

  /** Back to public news only; `reason` is told to the socket when given. */
  #signOut(client: Client, reason?: string): void {
    const user = client.user;
    client.user = null;
    if (user) {
      const clients = this.#users.get(user.userId);
      clients?.delete(client);
      if (clients?.size === 0) {
        this.#users.delete(user.userId);
        client.signIn?.signedOut(user.userId);
      }
    }
    if (reason !== undefined) this.#reply(client, { type: 'unauthenticated', reason });
  }

  /** Signed-in sockets whose token expired, or whose sessions were ended (a password reset), sign out. */
  async #checkSignIns(): Promise<void> {
    const now = this.#clock().getTime();
    for (const clients of [...this.#users.values()]) {
      for (const client of [...clients]) {
        const user = client.user;
        if (!user) continue;
        if (user.expiresAt.getTime() <= now) this.#signOut(client, 'The access token has expired');
        else if (!(await user.isCurrent().catch(() => true)) && client.user === user) this.#signOut(client, 'The session has ended');
      }
    }
  }

  #reply(client: Client, message: ServerMessage): void {
    if (this.#send(client, encode(message))) this.#observer?.messagesSent(1);
  }

  /**
   * Sends `data` (JSON, sent as text) unless the socket has stopped reading, in which case it is
   * closed: memory stays bounded. True when sent.
   */
  #send(client: Client, data: Buffer): boolean {
    const { socket } = client;
    if (client.dropped || socket.readyState !== OPEN) return false;
    if (socket.bufferedAmount > this.#maxBufferedBytes) {
      client.dropped = true;
      this.#closedAsTooSlow++;
      this.#unwatchAll(client);
      socket.close(CLOSE_TRY_AGAIN_LATER, 'Too slow');
      return false;
    }
    socket.send(data, { binary: false });
    return true;
  }

  /**
   * Sends one message to the auction's watchers, SOCKETS_PER_TURN at a time; resolves once all
   * have it, so that the next message follows it on every socket. The watchers are those at the
   * start, less any that unsubscribed or went meanwhile.
   */
  async #broadcast(auctionId: string, message: ServerMessage): Promise<void> {
    const watchers = [...(this.#watchers.get(auctionId) ?? [])];
    const data = encode(message);
    let sent = 0;
    for (let start = 0; start < watchers.length; start += SOCKETS_PER_TURN) {
      if (start > 0) await nextTurn();
      for (let index = start; index < Math.min(start + SOCKETS_PER_TURN, watchers.length); index++) {
        const client = watchers[index]!;
        if (client.auctions.has(auctionId) && this.#send(client, data)) sent++;
      }
    }
    this.#observer?.messagesSent(sent);
  }

  #unwatch(client: Client, auctionId: string): void {
    client.auctions.delete(auctionId);
    const watchers = this.#watchers.get(auctionId);
    if (!watchers) return;
    watchers.delete(client);
    if (watchers.size === 0) this.#watchers.delete(auctionId);
  }

  #unwatchAll(client: Client): void {
    for (const auctionId of [...client.auctions]) this.#unwatch(client, auctionId);
  }

  #ping(): void {
    void this.#checkSignIns();
    for (const client of this.#clients) {
      if (!client.alive) {
        client.socket.terminate(); // 'close' follows and forgets it
        continue;
      }
      client.alive = false;
      try {
        client.socket.ping();
      } catch {
        // not open any more: 'close' is on its way
      }
    }
  }

  // ---- the log ------------------------------------------------------------------------------

  #subscribe(after: LogPosition | 'start'): void {
    const subscription = this.#store.subscribeToAll({ after }, (batch) => this.#deliver(batch));
    this.#subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.#stopped) return;
      this.#log.error({ err: error }, 'live hub: event subscription failed; resuming in 1 s');
      this.#retry = setTimeout(() => this.#subscribe(this.#position ?? 'start'), 1000);
      this.#retry.unref();
    });
  }

  async #deliver(batch: readonly RecordedEvent[]): Promise<void> {
    for (let index = 0; index < batch.length; index++) {
      const recorded = batch[index]!;
      this.#position = recorded.position;
      if (!recorded.streamId.startsWith('auction-') || !AUCTION_EVENT_TYPES.has(recorded.type)) continue;
      if (!this.#foreign.admits(recorded)) continue;
      const event = asEngineEvent(recorded) as AuctionEvent;
      try {
        await this.#announce(event, recorded.revision);
      } catch (error) {
        // One auction's trouble (its stream unreadable for a moment) must not stop the others' news.
        this.#log.error({ err: error, eventId: recorded.id }, 'live hub: could not announce an event');
      }
    }
  }

  async #announce(event: AuctionEvent, revision: number): Promise<void> {
    const { auctionId } = event.data;
    let applied = this.#views.apply(event, revision);
    const watchers = this.#watchers.get(auctionId);
    if (!watchers || watchers.size === 0) return;
    if (!applied) {
      if ((await this.#views.get(auctionId)) === null) return;
      applied = this.#views.apply(event, revision);
      if (!applied) return;
    }
    // The watchers are looked up again by #broadcast: a socket may have gone while the view was being read.
    for (const message of messagesFor(event, applied, this.#clock())) await this.#broadcast(auctionId, message);
  }
}

/**
 * The public messages an event makes. A bid and each automatic bid answering it are one
 * bid_placed each, all carrying the standing after the exchange. A leader raising their maximum is
 * private; only the automatic bid that a met reserve forces becomes public. Each message is worded
 * from the event and the summaries around it alone, never from the events next to it in a batch: a
 * store may hand over one append in several batches.
 */
export function messagesFor(event: AuctionEvent, { view, before }: AppliedEvent, now: Date): ServerMessage[] {
  const { auctionId } = event.data;
  // The view may already be ahead of this event (read from the stream): a client keeps the newer.
  const auction = presentAuctionSummary(view, now);
  switch (event.type) {
    case 'AuctionScheduled':
      return [];
    case 'AuctionOpened':
      return [{ type: 'auction_opened', auctionId, auction }];
    case 'BidPlaced':
    case 'MaximumBidRaised': {
      const { bidId, bidderId, amount, placedAt, autoBids, standing } = event.data;
      // The end this bid's decision made (a soft-close extension is appended after it); a view read
      // from the stream already holds the whole append.
      const endsAt = before ? endsAtAfterBid(before, event) : view.endsAt;
      const auctionData = {
        currentPrice: toDollars(standing.price),
        currentLeaderId: standing.leaderId,
        status: 'ACTIVE' as const,
        endsAt,
        minimumBid: toDollars(minimumNextBid(view.rules, standing)),
      };
      const bid = (id: string, bidder: string, cents: number, kind: 'BID' | 'AUTO'): ServerMessage => ({
        type: 'bid_placed',
        auctionId,
        auctionData,
        auction,
        bidData: { bidId: id, bidderId: bidder, amount: toDollars(cents), placedAt, status: 'ACCEPTED', kind },
      });
      // Automatic bids carry the ids the bid history (bids read model) gives them.
      const automatic = autoBids.map((auto, index) => bid(autoBidId(bidId, index + 1), auto.bidderId, auto.amount, 'AUTO'));
      return event.type === 'BidPlaced' ? [bid(bidId, bidderId, amount, 'BID'), ...automatic] : automatic;
    }
    case 'AuctionExtended':
      return [{ type: 'auction_extended', auctionId, endsAt: event.data.endsAt, previousEndsAt: event.data.previousEndsAt, auction }];
    case 'BidRetracted': {
      const { standing } = event.data;
      return [
        {
          type: 'bid_retracted',
          auctionId,
          bidId: event.data.bidId,
          auctionData: {
            currentPrice: toDollars(standing.price),
            currentLeaderId: standing.leaderId,
            status: view.status,
            minimumBid: toDollars(minimumNextBid(view.rules, standing)),
          },
          auction,
        },
      ];
    }
    case 'AuctionClosed': {
      const { result, winnerId, finalPrice, closedAt } = event.data;
      return [{ type: 'auction_closed', auctionId, result, winnerId, finalPrice: finalPrice === null ? null : toDollars(finalPrice), closedAt, auction }];
    }
    case 'AuctionCancelled':
      return [{ type: 'auction_cancelled', auctionId, reason: event.data.reason, auction }];
    default:
      return assertNever(event);
  }
}

function encode(message: ServerMessage): Buffer {
  return Buffer.from(JSON.stringify(message));
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
