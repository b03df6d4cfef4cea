import { randomUUID } from 'node:crypto';
import { auctionDecider, auctionRejectionsStreamId, auctionStreamId, bidRejection, type AuctionState } from '../domain/auction/auction';
import type { AuctionCommand, AuctionEvent } from '../domain/auction/messages';
import { DomainError } from '../domain/shared/errors';
import type { AppendRequest, NewEvent } from '../eventstore/port';
import { type CommandHandler, type HandledCommand, type Refusal } from './command-handler';

/**
 * Handles an auction command. Refused bids and buy-nows are recorded in the auction's rejections
 * stream, each judged against the state it was refused at, in the batch's append, before the
 * errors go back to callers.
 */
export function handleAuctionCommand(handler: CommandHandler, command: AuctionCommand): Promise<HandledCommand<AuctionEvent, AuctionState>> {
  return handler.handle(auctionDecider, auctionStreamId(command.data.auctionId), command, { recordRefusals: recordBidRejections });
}

/** One request for all of a batch's refused attempts, appended with the batch: a hot auction refuses many. */
function recordBidRejections(refusals: Refusal<AuctionCommand, AuctionState>[]): AppendRequest[] {
  const byAuction = new Map<string, NewEvent[]>();
  for (const { command, error, state } of refusals) {
    if (!(error instanceof DomainError) || (command.type !== 'PlaceBid' && command.type !== 'BuyNow')) continue;
    const records = byAuction.get(command.data.auctionId) ?? [];
    const rejection = bidRejection(command, error, state);
    // Every refused attempt is its own record, a client's retry included: random ids, never the
    // command-derived ids that an accepted retry of the same command will use.
    records.push({ id: randomUUID(), type: rejection.type, data: rejection.data, metadata: rejection.metadata });
    byAuction.set(command.data.auctionId, records);
  }
  return [...byAuction].map(([auctionId, events]) => ({ streamId: auctionRejectionsStreamId(auctionId), events, expectedRevision: 'any' }));
}
