import type { AuctionTimeline } from '../../../../../api/contracts/audit';
import { createPagedTableMachine } from '../../../lib/paged-table-machine';
import { fetchTimeline } from '../api';

/** The auction's whole timeline, read once: loading, then the steps, or the server's reason with Try Again. */
export const timelineMachine = createPagedTableMachine<{ auctionId: string }, AuctionTimeline>({
  id: 'auctionTimeline',
  what: 'the timeline',
  fetchPage: (query, signal) => fetchTimeline(query.auctionId, signal),
});
