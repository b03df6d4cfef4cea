import { auctionDecider, auctionRejectionsStreamId, auctionStreamId, bidRejection, type AuctionState } from '../domain/auction/auction';
import type { AuctionCommand, AuctionEvent } from '../domain/auction/messages';
import { DomainError } from '../domain/shared/errors';
import { loadStream, toNewEvents, type CommandHandler, type HandledCommand } from './command-handler';

/**
 * Handles an auction command. A refused bid or buy-now is recorded in the auction's rejections
 * stream before the error goes back to the caller, so the refusal and its reason stay on record.
 */
export async function handleAuctionCommand(
  handler: CommandHandler,
  command: AuctionCommand,
): Promise<HandledCommand<AuctionEvent, AuctionState>> {
  const streamId = auctionStreamId(command.data.auctionId);
  try {
    return await handler.handle(auctionDecider, streamId, command);
  } catch (error) {
    if (error instanceof DomainError && (command.type === 'PlaceBid' || command.type === 'BuyNow')) {
      const { state } = await loadStream(handler.store, auctionDecider, streamId);
      const rejection = bidRejection(command, error, state);
      await handler.store.appendToStream(auctionRejectionsStreamId(command.data.auctionId), toNewEvents(command, [rejection]), {
        expectedRevision: 'any',
      });
    }
    throw error;
  }
}
