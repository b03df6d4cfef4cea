import { useMachine } from '@xstate/react';
import { useEffect, useEffectEvent, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../components/Banner';
import { takeArrivedFirstPage } from './api';
import { pickFeatured } from './card-display';
import { ListingCard, type ImagePriority } from './ListingCard';
import { marketplaceMachine } from './marketplace-machine';
import {
  CHIPS,
  effectiveSort,
  isFiltered,
  readMarketplaceState,
  SORTS,
  toListingsRequest,
  writeMarketplaceState,
  type MarketplaceState,
  type SortId,
} from './marketplace-query';
import './marketplace.css';

/** The search waits for a 300 ms pause in typing; 6 placeholders while loading. */
const SEARCH_DEBOUNCE_MS = 300;
const SKELETON_COUNT = 6;
/** Cards show minutes: refreshing once a minute keeps them right. */
const CLOCK_TICK_MS = 60_000;
/** The grid's first row at its widest (the page's 1280 px hold five 230 px columns): on the first screen. */
const FIRST_ROW = 5;

/** The public marketplace: search, chips, count, sort, Featured, All Listings. */
export function MarketplacePage() {
  const [params, setParams] = useSearchParams();
  // A new request when the URL changes, not on every render (the machine ignores one that asks for the same listings).
  const state = useMemo(() => readMarketplaceState(params), [params]);
  const request = useMemo(() => toListingsRequest(state), [state]);
  // Once, when the page opens: the first page the router's loader prefetched, if it has arrived.
  const [firstPage] = useState(() => takeArrivedFirstPage(request));
  const [snapshot, send] = useMachine(marketplaceMachine, { input: { request, firstPage } });
  const now = useMinuteClock();

  useEffect(() => {
    send({ type: 'REQUEST_CHANGED', request });
  }, [request, send]);

  // Every change is a history entry (Back undoes it), except refining a search already under way.
  const navigate = (next: MarketplaceState, replace = false) => setParams(writeMarketplaceState(next), { replace });

  const { items, total, error } = snapshot.context;
  const loading = snapshot.matches('loading');
  const failed = snapshot.matches('failed');
  const featured = !isFiltered(state) && !loading && !failed ? pickFeatured(items) : [];

  return (
    <div className="market">
      <header className="market__head">
        <h1>Marketplace</h1>
        <p className="muted">Game-worn and signed memorabilia, each item tied to its NFC tag. Live auctions, real time left.</p>
      </header>

      <SearchBox value={state.search} onSearch={(search) => navigate({ ...state, search }, state.search !== '' && search !== '')} />

      <div className="market__chips" role="group" aria-label="Categories">
        {CHIPS.map((chip) => (
          <button
            key={chip.id}
            // The first chip is in view already; asking costs a layout before the first paint.
            ref={state.chip === chip.id && chip.id !== CHIPS[0].id ? scrollIntoRow : undefined}
            type="button"
            className="market__chip"
            aria-pressed={state.chip === chip.id}
            onClick={() => state.chip !== chip.id && navigate({ ...state, chip: chip.id })}
          >
            {chip.label}
          </button>
        ))}
      </div>

      <div className="market__toolbar">
        <p className="market__count" role="status" data-testid="result-count">
          {loading ? <span className="muted">Searching…</span> : failed ? '' : total > 0 ? `${total} ${total === 1 ? 'item' : 'items'} found` : 'No items found'}
        </p>
        <label className="market__sort">
          <span>Sort by</span>
          <select
            className="select"
            value={effectiveSort(state)}
            onChange={(event) => {
              const sort = event.target.value as SortId;
              // Choosing another order leaves the Ending Soon chip, which is that order's shortcut.
              navigate({ ...state, sort, chip: state.chip === 'ending-soon' ? 'all' : state.chip });
            }}
          >
            {SORTS.map((sort) => (
              <option key={sort.id} value={sort.id}>
                {sort.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      {featured.length > 0 && (
        <section className="market__section" aria-labelledby="featured-heading">
          <h2 id="featured-heading">Featured</h2>
          <div className="market__featured">
            {featured.map((listing) => (
              <ListingCard key={listing.id} listing={listing} now={now} featured imagePriority="high" />
            ))}
          </div>
        </section>
      )}

      <section className="market__section" aria-labelledby="all-listings-heading" aria-busy={loading || snapshot.matches('loadingMore')}>
        <h2 id="all-listings-heading">All Listings</h2>
        {loading ? (
          <SkeletonGrid />
        ) : failed ? (
          <div className="market__state market__state--error">
            <p className="market__state-title">We couldn’t load the listings</p>
            <Banner kind="error">{error}</Banner>
            <button type="button" className="button button--primary" onClick={() => send({ type: 'RETRY' })}>
              Try Again
            </button>
          </div>
        ) : items.length === 0 ? (
          <div className="market__state">
            <p className="market__state-title">No listings found</p>
            <p className="muted">Try adjusting your search or filters</p>
            {isFiltered(state) && (
              <button type="button" className="button" onClick={() => navigate({ ...state, search: '', chip: 'all' })}>
                Clear filters
              </button>
            )}
          </div>
        ) : (
          <>
            <div className="market__grid">
              {items.map((listing, index) => (
                <ListingCard key={listing.id} listing={listing} now={now} imagePriority={gridImagePriority(index, featured.length > 0)} />
              ))}
            </div>
            {snapshot.matches('moreFailed') && (
              <div className="market__more-error">
                <Banner kind="error">{error}</Banner>
              </div>
            )}
            {!snapshot.context.last && (
              <div className="market__more">
                {snapshot.matches('moreFailed') ? (
                  <button type="button" className="button button--primary" onClick={() => send({ type: 'RETRY' })}>
                    Try Again
                  </button>
                ) : (
                  <button type="button" className="button" onClick={() => send({ type: 'LOAD_MORE' })} disabled={snapshot.matches('loadingMore')}>
                    {snapshot.matches('loadingMore') ? 'Loading…' : 'Load More'}
                  </button>
                )}
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}

/** The largest paint is a featured card's image when there are featured lots, else the grid's first. */
function gridImagePriority(index: number, featuredShown: boolean): ImagePriority {
  if (index === 0 && !featuredShown) return 'high';
  return index < FIRST_ROW ? 'eager' : 'lazy';
}

/** The box follows the URL (Back, a shared link) and writes to it 300 ms after the last keystroke. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [draft, setDraft] = useState(value);
  // When the URL's search changes to something other than what is typed (Back, Clear filters), the
  // box shows it; the box's own writes arrive as what is typed and leave the draft alone.
  const [followed, setFollowed] = useState(value);
  if (followed !== value) {
    setFollowed(value);
    if (draft.trim() !== value) setDraft(value);
  }

  // The page's latest callback, without restarting the wait each time the page renders.
  const search = useEffectEvent(onSearch);
  useEffect(() => {
    const wanted = draft.trim();
    if (wanted === value) return;
    const timer = setTimeout(() => search(wanted), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = draft.trim();
    if (wanted !== value) onSearch(wanted);
  };

  return (
    <form className="market__search" role="search" onSubmit={submit}>
      <label htmlFor="market-search" className="visually-hidden">
        Search listings
      </label>
      <svg className="market__search-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="11" cy="11" r="7" />
        <path d="m20 20-3.5-3.5" strokeLinecap="round" />
      </svg>
      <input
        id="market-search"
        className="input"
        type="search"
        placeholder="Search by player, team, or item…"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        autoComplete="off"
        enterKeyHint="search"
      />
    </form>
  );
}

function SkeletonGrid() {
  return (
    <>
      <p className="visually-hidden" role="status">
        Loading listings
      </p>
      <div className="market__grid" aria-hidden="true" data-testid="listing-skeletons">
        {Array.from({ length: SKELETON_COUNT }, (_, index) => (
          <div key={index} className="listing-card listing-card--skeleton">
            <div className="listing-card__media skeleton" />
            <div className="listing-card__body">
              <div className="skeleton market__skeleton-line" />
              <div className="skeleton market__skeleton-line market__skeleton-line--short" />
            </div>
          </div>
        ))}
      </div>
    </>
  );
}

/** On a phone the chips scroll sideways: the chosen one (from a shared link, say) is brought into view. */
function scrollIntoRow(chip: HTMLButtonElement | null): void {
  chip?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
}

function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
