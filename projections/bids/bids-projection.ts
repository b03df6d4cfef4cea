import { sql, type Insertable, type Transaction } from 'kysely';
import { autoBidId, type AutoBid } from '../../engine/domain';
import type { Projection } from '../projection';
import type { BidRejectionsTable, BidsTable, ReadModels } from '../schema';

/**
 * bids: every bid in log order, as the bid history shows it: the bids bidders placed, the bids
 * their proxies placed for them (AUTO), and buy-now purchases. A retraction marks the bid; it
 * stays in the history. bid_rejections: refused attempts, so a bidder can see why.
 *
 * A batch's rows are inserted many to a statement, in log order. Retractions mark rows, so the
 * rows before a retraction are written before it, and the bids after it wait for it.
 */
export const bidsProjection: Projection = {
  name: 'bids',
  async applyBatch(db, events) {
    let bids: Insertable<BidsTable>[] = [];
    let retracted: string[] = [];
    const rejections: Insertable<BidRejectionsTable>[] = [];
    const writeBids = async () => {
      await insertRows(db, 'bids', bids);
      bids = [];
    };
    const writeRetractions = async () => {
      await markRetracted(db, retracted);
      retracted = [];
    };
    const addBids = async (rows: Insertable<BidsTable>[]) => {
      await writeRetractions();
      bids.push(...rows);
    };
    for (const event of events) {
      switch (event.type) {
        case 'BidPlaced':
        case 'MaximumBidRaised': {
          const { auctionId, bidId, bidderId, amount, maximum, placedAt, autoBids } = event.data;
          const kind = event.type === 'BidPlaced' ? 'BID' : 'MAXIMUM';
          await addBids([
            { id: bidId, auction_id: auctionId, bidder_id: bidderId, kind, amount, maximum, status: 'ACCEPTED', for_bid_id: null, placed_at: placedAt },
            ...autoBidRows(auctionId, bidId, autoBids, placedAt),
          ]);
          break;
        }
        case 'BidRetracted':
          await writeBids();
          retracted.push(event.data.bidId);
          break;
        case 'AuctionClosed': {
          const { auctionId, closedBy, winnerId, winningBidId, finalPrice, closedAt } = event.data;
          if (closedBy !== 'BUY_NOW' || winnerId === null || winningBidId === null || finalPrice === null) break;
          await addBids([{ id: winningBidId, auction_id: auctionId, bidder_id: winnerId, kind: 'BUY_NOW', amount: finalPrice, maximum: null, status: 'ACCEPTED', for_bid_id: null, placed_at: closedAt }]);
          break;
        }
        case 'BidRejected': {
          const { auctionId, bidId, bidderId, attempt, amount, code, message, attemptedAt } = event.data;
          rejections.push({ event_id: event.id, auction_id: auctionId, bid_id: bidId, bidder_id: bidderId, attempt, amount, code, message, attempted_at: attemptedAt });
          break;
        }
        default:
          break;
      }
    }
    await writeRetractions();
    await writeBids();
    await insertRows(db, 'bid_rejections', rejections);
  },
};

function autoBidRows(auctionId: string, bidId: string, autoBids: readonly AutoBid[], placedAt: string): Insertable<BidsTable>[] {
  return autoBids.map((auto, index) => ({
    id: autoBidId(bidId, index + 1),
    auction_id: auctionId,
    bidder_id: auto.bidderId,
    kind: 'AUTO',
    amount: auto.amount,
    maximum: null,
    status: 'ACCEPTED',
    for_bid_id: auto.forBidId,
    placed_at: placedAt,
  }));
}

/**
 * All the rows in one statement, numbered in the order given (the table's identity column follows
 * the order its rows arrive in). They travel as one JSON array read with the table's own row type:
 * however many rows, one parameter, which PostgreSQL takes in faster than a VALUES list with one
 * parameter per column per row (and which no parameter limit cuts up).
 */
async function insertRows<Table extends 'bids' | 'bid_rejections'>(db: Transaction<ReadModels>, table: Table, rows: readonly Insertable<ReadModels[Table]>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = sql.join(Object.keys(rows[0]!).map((column) => sql.ref(column)));
  await sql`INSERT INTO ${sql.table(table)} (${columns})
    SELECT ${columns} FROM jsonb_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows)}::jsonb)`.execute(db);
}

/** Bids a proxy placed on the strength of a retracted bid fall with it. */
async function markRetracted(db: Transaction<ReadModels>, bidIds: readonly string[]): Promise<void> {
  if (bidIds.length === 0) return;
  await db
    .updateTable('bids')
    .set({ status: 'RETRACTED' })
    .where((eb) => eb.or([eb('id', 'in', bidIds), eb('for_bid_id', 'in', bidIds)]))
    .execute();
}
