import { jcs } from '../integrity/canonical';
import type { EventMetadata } from '../shared/messages';
import { DomainError } from '../shared/errors';
import { auctionDecider, initialAuctionState, type AuctionState } from './auction';
import { auctionCommandSchema, auctionEventSchema, type AuctionCommand, type AuctionEvent } from './messages';

/** An auction event as the log holds it, with its revision. */
export interface ReplayedEvent {
  readonly revision: number;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

export type ReplayVerdict =
  | { readonly consistent: true; readonly state: AuctionState; readonly decisions: number }
  | { readonly consistent: false; readonly firstInvalidRevision: number; readonly problem: string; readonly state: AuctionState };

/**
 * Decides an auction's log again, command by command: the events one command caused share its
 * command id, and from them the command itself is rebuilt (who, when, what) and handed to the
 * auction's decider, against the state the events before it left. Each decision must be exactly
 * the events recorded: a log whose events the rules would not have produced (a bid accepted below
 * the increment, a winner who was not leading, a price the proxies would not have reached) fails
 * at its first such revision. The state at the end says who won and at what price.
 */
export function replayAuction(events: readonly ReplayedEvent[]): ReplayVerdict {
  let state = initialAuctionState;
  let decisions = 0;
  for (let start = 0; start < events.length; ) {
    const commandId = metadataOf(events[start]!).commandId;
    let end = start + 1;
    while (end < events.length && metadataOf(events[end]!).commandId === commandId) end++;
    const recorded = events.slice(start, end);
    const revision = recorded[0]!.revision;
    const unknown = recorded.find(({ type, data, metadata }) => !auctionEventSchema.safeParse({ type, data, metadata }).success);
    if (unknown) return { consistent: false, firstInvalidRevision: unknown.revision, problem: `Revision ${unknown.revision}: not an auction event as the engine writes them`, state };
    const command = wellFormed(commandOf(recorded as unknown as readonly AuctionEvent[]));
    if (command === null) return { consistent: false, firstInvalidRevision: revision, problem: `Revision ${revision}: no command of the auction causes ${recorded.map((event) => event.type).join(', ')}`, state };
    let decided: AuctionEvent[];
    try {
      decided = auctionDecider.decide(command, state);
    } catch (error) {
      const reason = error instanceof DomainError ? error.message : String(error);
      return { consistent: false, firstInvalidRevision: revision, problem: `Revision ${revision}: the engine refuses the ${command.type} recorded there (${reason})`, state };
    }
    const differs = recorded.findIndex((event, index) => !sameEvent(event, decided[index]));
    if (differs !== -1 || decided.length !== recorded.length) {
      const at = differs === -1 ? revision + Math.min(decided.length, recorded.length) : revision + differs;
      return { consistent: false, firstInvalidRevision: at, problem: `Revision ${at}: the engine decides otherwise than the ${command.type} recorded there`, state };
    }
    for (const event of decided) state = auctionDecider.evolve(state, event);
    decisions++;
    start = end;
  }
  return { consistent: true, state, decisions };
}

function metadataOf(event: ReplayedEvent): EventMetadata {
  return event.metadata as EventMetadata;
}

/** The same event: the same type, and data and metadata of the same canonical (RFC 8785) bytes. */
function sameEvent(recorded: ReplayedEvent, decided: AuctionEvent | undefined): boolean {
  return decided !== undefined && recorded.type === decided.type && jcs(recorded.data) === jcs(decided.data) && jcs(recorded.metadata) === jcs(decided.metadata);
}

/** The command that caused one command's events, rebuilt from them; null when no command could have. */
function commandOf(events: readonly AuctionEvent[]): AuctionCommand | null {
  const { actorId, actorRoles, occurredAt, correlationId, commandId } = events[0]!.metadata;
  const metadata = { actor: { userId: actorId, roles: actorRoles }, now: occurredAt, correlationId, commandId };
  // An opening that came with a bid or a buy-now is that command's; alone, it was an OpenAuction.
  const main = events.find((event) => event.type !== 'AuctionOpened' && event.type !== 'AuctionExtended') ?? events[0]!;
  switch (main.type) {
    case 'AuctionScheduled':
      return { type: 'ScheduleAuction', data: main.data, metadata };
    case 'AuctionOpened':
      return { type: 'OpenAuction', data: { auctionId: main.data.auctionId }, metadata };
    case 'BidPlaced':
    case 'MaximumBidRaised':
      return { type: 'PlaceBid', data: { auctionId: main.data.auctionId, bidId: main.data.bidId, amount: main.data.amount, maximum: main.data.maximum }, metadata };
    case 'BidRetracted':
      return { type: 'RetractBid', data: { auctionId: main.data.auctionId, bidId: main.data.bidId, reason: main.data.reason }, metadata };
    case 'AuctionClosed':
      if (main.data.closedBy === 'BUY_NOW') return main.data.winningBidId === null ? null : { type: 'BuyNow', data: { auctionId: main.data.auctionId, bidId: main.data.winningBidId }, metadata };
      return { type: 'CloseAuction', data: { auctionId: main.data.auctionId }, metadata };
    case 'AuctionCancelled':
      return { type: 'CancelAuction', data: { auctionId: main.data.auctionId, reason: main.data.reason }, metadata };
    default:
      return null;
  }
}

/** Whether a rebuilt command is one the engine takes at all (its schema): the decider trusts its input. */
function wellFormed(command: AuctionCommand | null): AuctionCommand | null {
  return command !== null && auctionCommandSchema.safeParse(command).success ? command : null;
}
