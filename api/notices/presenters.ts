import type { Selectable } from 'kysely';
import type { Notification } from '../contracts/notifications';
import type { NotificationsTable } from './schema';

export function presentNotification(row: Selectable<NotificationsTable>): Notification {
  return {
    id: row.id,
    kind: row.kind,
    listingId: row.listing_id,
    auctionId: row.auction_id,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: new Date(row.created_at).toISOString(),
    readAt: row.read_at === null ? null : new Date(row.read_at).toISOString(),
  };
}
