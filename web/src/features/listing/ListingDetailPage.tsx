import { useMachine } from '@xstate/react';
import { Link, useParams } from 'react-router';
import { fromPromise } from 'xstate';
import { Banner } from '../../components/Banner';
import { auctionTimelinePath } from '../../lib/audit-links';
import { useAuth } from '../../lib/auth/session';
import { useFollowActions, useIsFollowed } from '../../lib/watchlist/followed';
import { fetchAuction, fetchListing, type JerseyDetails, type Listing } from './api';
import { AuctionPanel } from './auction/AuctionPanel';
import { ChainOfCustody } from './ChainOfCustody';
import { Gallery } from './Gallery';
import { listingPageMachine } from './listing-page-machine';
import './listing.css';

const pageMachine = listingPageMachine.provide({
  actors: {
    load: fromPromise(async ({ input }: { input: { slugOrId: string } }) => {
      // No abort signal: React's development double mount stops the first actor, whose late answer is then ignored.
      const [listing, auction] = await Promise.all([fetchListing(input.slugOrId), fetchAuction(input.slugOrId)]);
      return { listing, auction };
    }),
  },
});

/** /marketplace/:slug, or /marketplace/listing/:id for a listing without a slug: the API takes either. */
export function ListingDetailPage() {
  const { slug, id } = useParams();
  const slugOrId = id ?? slug ?? '';
  // A new address is a new page: its own machine, its own socket.
  return <ListingDetail key={slugOrId} slugOrId={slugOrId} />;
}

function ListingDetail({ slugOrId }: { slugOrId: string }) {
  const [snapshot, send] = useMachine(pageMachine, { input: { slugOrId } });
  const back = (
    <Link to="/marketplace" className="button listing__back">
      ← Back to Marketplace
    </Link>
  );

  if (snapshot.matches('loading')) {
    return (
      <div className="listing" aria-busy="true">
        {back}
        <div className="listing__layout">
          <div className="skeleton listing__skeleton-media" />
          <div className="listing__skeleton-lines">
            <div className="skeleton" style={{ height: 20, width: '40%' }} />
            <div className="skeleton" style={{ height: 36, width: '90%' }} />
            <div className="skeleton" style={{ height: 220 }} />
          </div>
        </div>
        <span className="visually-hidden" role="status">
          Loading listing
        </span>
      </div>
    );
  }
  if (snapshot.matches('notFound')) {
    return (
      <div className="listing listing__state">
        <h1>Listing Not Found</h1>
        <p className="muted">This item does not exist or is no longer listed.</p>
        {back}
      </div>
    );
  }
  if (snapshot.matches('failed')) {
    return (
      <div className="listing listing__state">
        <h1>Error Loading Listing</h1>
        <Banner kind="error">{snapshot.context.error}</Banner>
        <div className="listing__state-actions">
          <button type="button" className="button button--primary" onClick={() => send({ type: 'RETRY' })}>
            Try Again
          </button>
          {back}
        </div>
      </div>
    );
  }

  const { listing, auction } = snapshot.context.loaded!;
  return (
    <article className="listing">
      {back}
      <div className="listing__layout">
        <div className="listing__media">
          <Gallery title={listing.title} urls={listing.mediaUrls} />
        </div>
        <div className="listing__summary">
          <ListingHeading listing={listing} />
          {auction ? (
            <>
              <AuctionPanel listingKey={listing.slug || listing.id} auction={auction} />
              <TimelineLink auctionId={auction.auctionId} />
            </>
          ) : (
            <section className="card auction-panel auction-panel--none" aria-label="Auction">
              <h2>No auction available for this item</h2>
              <p className="muted">This item may be available for direct purchase</p>
            </section>
          )}
        </div>
      </div>
      <div className="listing__details">
        <section className="card listing__section" aria-labelledby="description-title">
          <h2 id="description-title">Description</h2>
          <p className="listing__description">{listing.description}</p>
        </section>
        <GameDetails jersey={listing.jersey} />
        <PlayerStats jersey={listing.jersey} />
        <ItemDetails listing={listing} />
        {listing.nfcUid && <ChainOfCustody uid={listing.nfcUid} />}
      </div>
    </article>
  );
}

/** Admins only: this auction replayed step by step, with why each bid won or lost. */
function TimelineLink({ auctionId }: { auctionId: string }) {
  const { isAdmin } = useAuth();
  if (!isAdmin) return null;
  return (
    <p className="listing__timeline">
      <Link className="button" to={auctionTimelinePath(auctionId)}>
        Auction timeline
      </Link>
    </p>
  );
}

function ListingHeading({ listing }: { listing: Listing }) {
  const isFavourite = useIsFollowed(listing.id);
  const follow = useFollowActions();
  return (
    <header className="listing__heading">
      <div className="listing__heading-top">
        {listing.teamOrClub && <p className="listing__team">{listing.teamOrClub}</p>}
        <button
          type="button"
          className={`icon-button listing__favourite${isFavourite ? ' listing__favourite--on' : ''}`}
          aria-pressed={isFavourite}
          aria-label={isFavourite ? 'Remove from favourites' : 'Add to favourites'}
          onClick={() =>
            follow.toggle({
              id: listing.id,
              slug: listing.slug || null,
              title: listing.title,
              imageUrl: listing.mediaUrls[0] ?? null,
              price: listing.price,
              status: listing.status,
              endsAt: listing.endsAt,
            })
          }
        >
          {isFavourite ? '♥' : '♡'}
        </button>
      </div>
      <h1 className="listing__title">{listing.title}</h1>
      {listing.playerName && <p className="listing__player">{listing.playerName}</p>}
      <ul className="listing__badges" aria-label="Authenticity">
        <li className="badge listing__badge--auth">✓ Provenance Authenticated</li>
        {listing.nfcUid && (
          <li className="badge listing__badge--nfc">
            NFC Verified
          </li>
        )}
      </ul>
      {listing.nfcUid && (
        <p className="listing__nfc">
          <span className="muted">NFC tag</span> <code>{listing.nfcUid}</code> ·{' '}
          <a href="#chain-of-custody">View chain of custody</a>
        </p>
      )}
      {listing.tags.length > 0 && (
        <ul className="listing__tags" aria-label="Tags">
          {listing.tags.map((tag) => (
            <li key={tag} className="listing__tag">
              {tag.replace(/_/g, ' ')}
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}

function formatDate(value: string): string {
  // A date-only value ("2021-01-24") is a calendar day, not a UTC midnight.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

function DetailList({ rows }: { rows: ReadonlyArray<readonly [string, string | number | null | undefined]> }) {
  return (
    <dl className="listing__facts">
      {rows.map(([label, value]) => (
        <div key={label} className="listing__fact">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? <span className="muted">Not recorded</span> : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function GameDetails({ jersey }: { jersey: JerseyDetails | null }) {
  const hasGame = jersey && (jersey.gameTitle || jersey.gameDate || jersey.venue || jersey.opponent);
  return (
    <section className="card listing__section" aria-labelledby="game-title">
      <h2 id="game-title">Game Details</h2>
      {hasGame ? (
        <DetailList
          rows={[
            ['Game', jersey.gameTitle],
            ['Date', jersey.gameDate ? formatDate(jersey.gameDate) : null],
            ['Venue', jersey.venue],
            ['Opponent', jersey.opponent],
            ...(jersey.jerseyNumber != null ? ([['Jersey number', `#${jersey.jerseyNumber}`]] as const) : []),
          ]}
        />
      ) : (
        <p className="muted">No game details were recorded for this item.</p>
      )}
    </section>
  );
}

const STAT_LABELS: Record<string, string> = { touchdowns: 'Touchdowns', passingYards: 'Passing yards', completions: 'Completions' };

function PlayerStats({ jersey }: { jersey: JerseyDetails | null }) {
  const stats = Object.entries(jersey?.stats ?? {}).filter(([, value]) => value !== null && value !== undefined && value !== '');
  return (
    <section className="card listing__section" aria-labelledby="stats-title">
      <h2 id="stats-title">Player Stats</h2>
      {stats.length > 0 ? (
        <>
          <p className="muted listing__section-note">In the game this item is from</p>
          <DetailList rows={stats.map(([key, value]) => [STAT_LABELS[key] ?? key.replace(/([A-Z])/g, ' $1').toLowerCase(), value] as const)} />
        </>
      ) : (
        <p className="muted">Player stats coming soon.</p>
      )}
    </section>
  );
}

function humanize(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, ' ');
}

function ItemDetails({ listing }: { listing: Listing }) {
  return (
    <section className="card listing__section listing__section--wide" aria-labelledby="item-title">
      <h2 id="item-title">Item Details</h2>
      <DetailList
        rows={[
          ['Category', humanize(listing.category)],
          ['Condition', humanize(listing.condition)],
          ['Sport', humanize(listing.sportType)],
          ['Size', listing.size],
          ['League / Event', listing.leagueOrEvent],
          ['Date / Season', listing.dateOrSeason],
        ]}
      />
    </section>
  );
}
