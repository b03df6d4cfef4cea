import { auctionDecider, auctionRejectionsStreamId, auctionStreamId, bidRejection, type AuctionState } from '../domain/auction/auction';
import type { AuctionCommand, AuctionEvent } from '../domain/auction/messages';
import { DomainError } from '../domain/shared/errors';
import { toNewEvents, type CommandHandler, type HandledCommand } from './command-handler';

/**
 * Handles an auction command. A refused bid or buy-now is recorded in the auction's rejections
 * stream, judged against the state it was refused at, before the error goes back to the caller.
 */
export function handleAuctionCommand(handler: CommandHandler, command: AuctionCommand): Promise<HandledCommand<AuctionEvent, AuctionState>> {
  return handler.handle(auctionDecider, auctionStreamId(command.data.auctionId), command, {
    onRefused: async (error, state) => {
      if (!(error instanceof DomainError) || (command.type !== 'PlaceBid' && command.type !== 'BuyNow')) return;
      const rejection = bidRejection(command, error, state);
      await handler.store.appendToStream(auctionRejectionsStreamId(command.data.auctionId), toNewEvents(command, [rejection]), {
        expectedRevision: 'any',
      });
    },
  });
}
