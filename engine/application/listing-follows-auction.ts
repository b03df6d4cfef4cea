import type { ClosingResult } from '../domain/auction/messages';
import type { ListingCommand, ListingEvent, ListingState } from '../domain/listing/listing';
import type { CommandMetadata } from '../domain/shared/messages';
import type { CommandHandler, HandledCommand } from './command-handler';
import { handleListingCommand } from './listing-commands';

type RecordAuctionOutcome = Extract<ListingCommand, { type: 'RecordAuctionOutcome' }>;

/** An auction that has ended (by time or by buy-now) or been cancelled, while its listing is still live. */
export interface FinishedAuction {
  readonly auctionId: string;
  readonly listingId: string;
  readonly status: 'ENDED' | 'CANCELLED';
  /** How an ended auction closed; null for a cancelled one. */
  readonly result: ClosingResult | null;
  readonly winnerId: string | null;
  /** In cents; null when nothing was sold. */
  readonly finalPrice: number | null;
}

/**
 * The listing follows its auction: SOLD to the winner at the final price, or UNSOLD with the reason.
 * Issued more than once (by two workers, or again after a restart), the same `metadata.commandId`
 * makes it one command; a listing that has moved on already refuses it (LISTING_NOT_LIVE).
 */
export function recordAuctionOutcome(handler: CommandHandler, auction: FinishedAuction, metadata: CommandMetadata): Promise<HandledCommand<ListingEvent, ListingState>> {
  // Only a cancelled auction has no result.
  const result = auction.status === 'CANCELLED' ? 'CANCELLED' : auction.result!;
  const sold = result === 'SOLD';
  const command: RecordAuctionOutcome = {
    type: 'RecordAuctionOutcome',
    data: {
      listingId: auction.listingId,
      auctionId: auction.auctionId,
      result,
      buyerId: sold ? auction.winnerId : null,
      finalPrice: sold ? auction.finalPrice : null,
    },
    metadata,
  };
  return handleListingCommand(handler, command);
}
