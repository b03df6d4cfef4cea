import { sql, type Insertable, type Transaction } from 'kysely';
import { listingEventSchema, type ListingDetails } from '../../engine/domain';
import type { Projection, ProjectedEvent } from '../projection';
import type { ListingsTable, ReadModels } from '../schema';

/**
 * listings: what the marketplace shows of each listing. Price and end come from its auction.
 * Listing events are few: each is applied on its own.
 */
export const listingsProjection: Projection = {
  name: 'listings',
  async applyBatch(db, events) {
    for (const event of events) await applyListingEvent(db, event);
  },
};

const listingEventTypes: ReadonlySet<string> = new Set(listingEventSchema.options.map((option) => option.shape.type.value));

/** Whether `event` is one of a listing's, which this projection writes rows for. */
export function isListingEvent(event: { readonly type: string }): boolean {
  return listingEventTypes.has(event.type);
}

async function applyListingEvent(db: Transaction<ReadModels>, event: ProjectedEvent): Promise<void> {
  const at = event.metadata.occurredAt;
  switch (event.type) {
    case 'ListingDrafted': {
      const { listingId, ownerId, slug, details, mediaIds } = event.data;
      await db
        .insertInto('listings')
        .values({
          id: listingId,
          slug,
          owner_id: ownerId,
          status: 'DRAFT',
          ...detailColumns(details),
          price: details.price,
          media_ids: JSON.stringify(mediaIds),
          nfc_uid: null,
          auction_id: null,
          auction_ends_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return;
    }
    case 'ListingDetailsRevised': {
      const { listingId, details } = event.data;
      await db.updateTable('listings').set({ ...detailColumns(details), updated_at: at }).where('id', '=', listingId).execute();
      // Until there is an auction, the price shown is the asking price.
      await db.updateTable('listings').set({ price: details.price }).where('id', '=', listingId).where('auction_id', 'is', null).execute();
      return;
    }
    case 'ListingMediaArranged':
      await db.updateTable('listings').set({ media_ids: JSON.stringify(event.data.mediaIds), updated_at: at }).where('id', '=', event.data.listingId).execute();
      return;
    case 'ListingSaved':
      await db.updateTable('listings').set({ status: 'SAVED', updated_at: at }).where('id', '=', event.data.listingId).execute();
      return;
    case 'ListingTagBound':
      await db.updateTable('listings').set({ status: 'NFC_BOUND', nfc_uid: event.data.uid, updated_at: at }).where('id', '=', event.data.listingId).execute();
      return;
    case 'ListingTagUnbound':
      await db
        .updateTable('listings')
        .set((eb) => ({ status: eb.case().when('status', '=', 'NFC_BOUND').then('SAVED' as const).else(eb.ref('status')).end(), nfc_uid: null, updated_at: at }))
        .where('id', '=', event.data.listingId)
        .execute();
      return;
    case 'ListingPublished':
      await db
        .updateTable('listings')
        .set({ status: 'LIVE', auction_id: event.data.auctionId, updated_at: at })
        .where('id', '=', event.data.listingId)
        .execute();
      return;
    case 'ListingSold':
    case 'ListingUnsold':
    case 'ListingWithdrawn': {
      const status = event.type === 'ListingSold' ? 'SOLD' : event.type === 'ListingUnsold' ? 'UNSOLD' : 'WITHDRAWN';
      await db.updateTable('listings').set({ status, updated_at: at }).where('id', '=', event.data.listingId).execute();
      return;
    }
    case 'ListingRelisted':
      // Back on sale with its tag: the price shown is the asking price again until a new auction.
      await db
        .updateTable('listings')
        .set({ status: 'NFC_BOUND', auction_id: null, auction_ends_at: null, price: sql<number>`asking_price`, updated_at: at })
        .where('id', '=', event.data.listingId)
        .execute();
      return;
    default:
      return;
  }
}

type DetailColumns = 'title' | 'description' | 'category' | 'condition' | 'sport_type' | 'asking_price' | 'player_name' | 'team_or_club' | 'league_or_event' | 'date_or_season' | 'size' | 'tags' | 'jersey' | 'search_text';

function detailColumns(details: ListingDetails): Pick<Insertable<ListingsTable>, DetailColumns> {
  return {
    title: details.title,
    description: details.description,
    category: details.category,
    condition: details.condition,
    sport_type: details.sportType,
    asking_price: details.price,
    player_name: details.playerName,
    team_or_club: details.teamOrClub,
    league_or_event: details.leagueOrEvent,
    date_or_season: details.dateOrSeason,
    size: details.size,
    tags: JSON.stringify(details.tags),
    jersey: JSON.stringify(details.jersey),
    search_text: [details.playerName, details.teamOrClub, details.title, details.description]
      .filter((part): part is string => Boolean(part))
      .join(' ')
      .toLowerCase(),
  };
}
