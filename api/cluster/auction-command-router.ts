import { Pool } from 'undici';
import { handleAuctionCommand } from '../../engine/application/auction-commands';
import { ConcurrencyConflictError, type CommandHandler, type HandledCommand } from '../../engine/application/command-handler';
import type { Logger } from '../../engine/application/logger';
import { DomainError, type AuctionCommand, type AuctionEvent, type AuctionState, type DomainErrorKind } from '../../engine/domain';
import type { AuctionOwners } from './auction-owners';
import { PEER_SIGNATURE_HEADER, signPeerRequest } from './peer-signature';

/** Where a process decides the commands other processes forward to it. */
export const FORWARDED_COMMANDS_PATH = '/internal/auction-commands';
/** A forwarded command unanswered this long is decided here instead (the owner is stuck or gone). */
const FORWARD_TIMEOUT_MS = 5_000;

type Handled = HandledCommand<AuctionEvent, AuctionState>;

/** The owner's answer to a forwarded command: what handleAuctionCommand returned or threw. */
export type ForwardedOutcome =
  | { readonly outcome: 'handled'; readonly handled: Handled }
  | { readonly outcome: 'refused'; readonly error: { readonly code: string; readonly kind: DomainErrorKind; readonly message: string; readonly details: Record<string, unknown> } }
  | { readonly outcome: 'conflict'; readonly streamIds: readonly string[]; readonly attempts: number };

/** Told how each command was routed, for metrics. */
export interface RoutingObserver {
  routed(route: 'local' | 'forwarded' | 'fallback'): void;
}

/**
 * Decides a bid or buy-now where its auction's owner is: here, or in the process holding the
 * auction's lease (AuctionOwners), over HTTP. Without owners (one process, or INSTANCE_URL unset)
 * everything is decided here. When the owner cannot be reached or fails, the command is decided
 * here after all: the append's revision check keeps that correct, and the command id makes it
 * exactly once even if the owner did decide it and only its answer was lost.
 */
export class AuctionCommandRouter {
  readonly #commands: CommandHandler;
  readonly #owners: AuctionOwners | null;
  readonly #secret: string;
  readonly #observer: RoutingObserver | undefined;
  readonly #log: Logger | undefined;
  readonly #pools = new Map<string, Pool>();

  constructor(options: { commands: CommandHandler; owners: AuctionOwners | null; secret: string; observer?: RoutingObserver; log?: Logger }) {
    this.#commands = options.commands;
    this.#owners = options.owners;
    this.#secret = options.secret;
    this.#observer = options.observer;
    this.#log = options.log;
  }

  async handle(command: AuctionCommand): Promise<Handled> {
    const owner = this.#owners ? await this.#owners.ownerOf(command.data.auctionId).catch(() => null) : null;
    if (owner && !owner.self) {
      const answer = await this.#forward(owner.url, command).catch((error: unknown) => {
        this.#log?.error({ err: error, owner: owner.url }, 'forwarding an auction command failed; deciding it here');
        this.#owners!.forget(command.data.auctionId);
        return null;
      });
      if (answer) {
        this.#observer?.routed('forwarded');
        return settle(answer);
      }
      this.#observer?.routed('fallback');
    } else {
      this.#observer?.routed('local');
    }
    return handleAuctionCommand(this.#commands, command);
  }

  /** Decides a command a peer forwarded: always here, never forwarded again (no loops when leases move). */
  async decideForwarded(command: AuctionCommand): Promise<ForwardedOutcome> {
    try {
      return { outcome: 'handled', handled: await handleAuctionCommand(this.#commands, command) };
    } catch (error) {
      if (error instanceof DomainError) return { outcome: 'refused', error: { code: error.code, kind: error.kind, message: error.message, details: { ...error.details } } };
      if (error instanceof ConcurrencyConflictError) return { outcome: 'conflict', streamIds: error.streamIds, attempts: error.attempts };
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close()));
    this.#pools.clear();
  }

  async #forward(url: string, command: AuctionCommand): Promise<ForwardedOutcome> {
    let pool = this.#pools.get(url);
    if (!pool) {
      pool = new Pool(url, { headersTimeout: FORWARD_TIMEOUT_MS, bodyTimeout: FORWARD_TIMEOUT_MS, connectTimeout: FORWARD_TIMEOUT_MS });
      this.#pools.set(url, pool);
    }
    const body = JSON.stringify(command);
    const response = await pool.request({
      method: 'POST',
      path: FORWARDED_COMMANDS_PATH,
      headers: { 'content-type': 'application/json', [PEER_SIGNATURE_HEADER]: signPeerRequest(this.#secret, body) },
      body,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as ForwardedOutcome;
  }
}

/** The owner's answer as if the command had been decided here. */
function settle(answer: ForwardedOutcome): Handled {
  switch (answer.outcome) {
    case 'handled':
      return answer.handled;
    case 'refused':
      throw new DomainError(answer.error.code, answer.error.kind, answer.error.message, answer.error.details);
    case 'conflict':
      throw new ConcurrencyConflictError(answer.streamIds, answer.attempts);
  }
}
