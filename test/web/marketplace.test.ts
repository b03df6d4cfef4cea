import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { fetchListings, prefetchFirstPage, takeArrivedFirstPage, type Listing, type ListingPage, type ListingsRequest } from '../../web/src/features/marketplace/api';
import { cardBadges, firstScreenImages, pickFeatured } from '../../web/src/features/marketplace/card-display';
import { marketplaceMachine } from '../../web/src/features/marketplace/marketplace-machine';
import { readMarketplaceState, toListingsRequest, writeMarketplaceState, isFiltered } from '../../web/src/features/marketplace/marketplace-query';
import { ApiError } from '../../web/src/lib/api-client';
import { listingPath } from '../../web/src/lib/listing';

function listing(id: string): Listing {
  return {
    id,
    ownerId: 'admin-1',
    title: `Item ${id}`,
    description: '',
    price: '10.00',
    category: 'CLOTHING',
    condition: 'GAME_WORN',
    sportType: 'SOCCER',
    mediaUrls: [],
    status: 'LIVE',
    slug: `item-${id}`,
    nfcUid: null,
    createdAt: '2032-01-01T00:00:00.000Z',
    updatedAt: '2032-01-01T00:00:00.000Z',
    playerName: null,
    teamOrClub: null,
    leagueOrEvent: null,
    dateOrSeason: null,
    size: null,
    tags: [],
    jersey: null,
    auctionId: null,
    endsAt: null,
  };
}

function page(ids: string[], number: number, totalElements: number, size = 20): ListingPage {
  const totalPages = Math.ceil(totalElements / size);
  return { content: ids.map(listing), totalElements, totalPages, number, size, first: number === 0, last: number >= totalPages - 1 };
}

const request = (overrides: Partial<ListingsRequest> = {}): ListingsRequest => ({ search: '', category: null, tag: null, sort: 'createdAt,desc', ...overrides });

/** Each fetch waits until the test answers it, so a test decides the order answers arrive in. */
function controlledFetches() {
  const calls: Array<{ request: ListingsRequest; page: number; signal: AbortSignal; resolve: (page: ListingPage) => void; reject: (error: unknown) => void }> = [];
  const actor = fromPromise<ListingPage, { request: ListingsRequest; page: number }>(
    ({ input, signal }) => new Promise((resolve, reject) => calls.push({ ...input, signal, resolve, reject })),
  );
  return { calls, actor };
}

function start(initial = request(), firstPage: ListingPage | null = null) {
  const fetches = controlledFetches();
  const actor = createActor(marketplaceMachine.provide({ actors: { fetchPage: fetches.actor } }), { input: { request: initial, firstPage } });
  actor.start();
  return { actor, calls: fetches.calls };
}

describe('marketplace machine: paging', () => {
  it('loads page 0, then Load More appends the next page until the last', async () => {
    const { actor, calls } = start();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(calls[0]).toMatchObject({ page: 0, request: request() });
    calls[0]!.resolve(page(['a', 'b'], 0, 3, 2));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ total: 3, last: false, page: 0 });

    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().value).toBe('loadingMore');
    expect(calls[1]).toMatchObject({ page: 1 });
    calls[1]!.resolve(page(['b', 'c'], 1, 3, 2));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    // 'b' moved onto page 1 (a listing arrived meanwhile): it is shown once.
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(actor.getSnapshot().context.last).toBe(true);

    actor.send({ type: 'LOAD_MORE' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toHaveLength(2);
  });

  it('a new search, chip or sort replaces the results from page 0', async () => {
    const { actor, calls } = start();
    calls[0]!.resolve(page(['a', 'b'], 0, 40));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    calls[1]!.resolve(page(['c'], 1, 40));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));

    actor.send({ type: 'REQUEST_CHANGED', request: request({ category: 'EQUIPMENT' }) });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(calls[2]).toMatchObject({ page: 0, request: { category: 'EQUIPMENT' } });
    calls[2]!.resolve(page(['x'], 0, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual(['x']);
  });

  it('the same request again does not fetch again', () => {
    const { actor, calls } = start();
    actor.send({ type: 'REQUEST_CHANGED', request: request() });
    expect(calls).toHaveLength(1);
  });

  it('a stale answer never overwrites a newer one: the older fetch is aborted and its answer ignored', async () => {
    const { actor, calls } = start(request({ search: 'br' }));
    actor.send({ type: 'REQUEST_CHANGED', request: request({ search: 'brady' }) });
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[1]!.resolve(page(['brady'], 0, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    calls[0]!.resolve(page(['stale-1', 'stale-2'], 0, 2));
    await Promise.resolve();
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual(['brady']);
    expect(actor.getSnapshot().context.request.search).toBe('brady');
  });

  it('a new request while Load More is in flight drops that page', async () => {
    const { actor, calls } = start();
    calls[0]!.resolve(page(['a'], 0, 30, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    actor.send({ type: 'REQUEST_CHANGED', request: request({ sort: 'price,asc' }) });
    expect(calls[1]!.signal.aborted).toBe(true);
    calls[1]!.resolve(page(['old-page-1'], 1, 30, 1));
    calls[2]!.resolve(page(['cheap'], 0, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual(['cheap']);
  });

  it('a failure shows the error; Try Again asks again and recovers', async () => {
    const { actor, calls } = start();
    calls[0]!.reject(new ApiError('Service Unavailable', 503));
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('Failed to fetch listings: Service Unavailable');
    expect(actor.getSnapshot().context.items).toEqual([]);

    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('loading');
    calls[1]!.resolve(page(['a'], 0, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a failed Load More keeps the results and retries the same page', async () => {
    const { actor, calls } = start();
    calls[0]!.resolve(page(['a'], 0, 2, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'LOAD_MORE' });
    calls[1]!.reject(new ApiError('Failed to fetch', 0, 'NETWORK'));
    await waitFor(actor, (snapshot) => snapshot.matches('moreFailed'));
    expect(actor.getSnapshot().context.error).toBe('Failed to fetch listings: Network error');
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual(['a']);
    actor.send({ type: 'RETRY' });
    expect(calls[2]).toMatchObject({ page: 1 });
    calls[2]!.resolve(page(['b'], 1, 2, 1));
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(actor.getSnapshot().context.items.map((item) => item.id)).toEqual(['a', 'b']);
  });
});

describe('marketplace: the first page ahead of the page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** fetch answering each listings URL with a page named after the call, counting the calls. */
  function countedFetches() {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return Response.json(page([`answer-${urls.length}`], 0, 1));
    });
    return urls;
  }

  it('opens ready with a first page at hand, fetching nothing; Load More goes on from it', () => {
    const { actor, calls } = start(request(), page(['a', 'b'], 0, 3, 2));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context).toMatchObject({ total: 3, last: false, page: 0 });
    expect(calls).toHaveLength(0);
    actor.send({ type: 'LOAD_MORE' });
    expect(calls[0]).toMatchObject({ page: 1 });
  });

  it('opens loading when the page at hand is empty or missing', () => {
    expect(start(request(), page([], 0, 0)).actor.getSnapshot().value).toBe('loading');
    expect(start(request(), null).actor.getSnapshot().value).toBe('loading');
  });

  it('the page takes a prefetched first page once it has arrived, and only once', async () => {
    const urls = countedFetches();
    await prefetchFirstPage(request());
    expect(takeArrivedFirstPage(request({ sort: 'price,asc' }))).toBeNull();
    expect(takeArrivedFirstPage(request())?.content.map((item) => item.id)).toEqual(['answer-1']);
    expect(takeArrivedFirstPage(request())).toBeNull();
    expect((await fetchListings(request(), 0)).content.map((item) => item.id)).toEqual(['answer-2']);
    expect(urls).toEqual(['/api/public/listings?page=0&size=20&sort=createdAt%2Cdesc', '/api/public/listings?page=0&size=20&sort=createdAt%2Cdesc']);
  });

  it("the next fetch takes a prefetched answer still on its way if it asks for the same page, and drops it if not", async () => {
    const urls = countedFetches();
    const ahead = prefetchFirstPage(request());
    expect(await fetchListings(request(), 0)).toEqual(await ahead);
    expect(urls).toHaveLength(1);

    prefetchFirstPage(request());
    expect((await fetchListings(request({ category: 'FOOTWEAR' }), 0)).content.map((item) => item.id)).toEqual(['answer-3']);
    // Dropped: asked again, not served late.
    expect((await fetchListings(request(), 0)).content.map((item) => item.id)).toEqual(['answer-4']);
    expect(urls).toHaveLength(4);
  });

  it('warms the featured images on the plain marketplace, else the first card\'s', () => {
    const withImage = (id: string, price: string): Listing => ({ ...listing(id), price, mediaUrls: [`/media/${id}`] });
    const items = [listing('no-image'), withImage('cheap', '10.00'), withImage('dear', '90.00'), withImage('middle', '50.00')];
    expect(pickFeatured(items).map((item) => item.id)).toEqual(['dear', 'middle']);
    expect(firstScreenImages(items, false)).toEqual(['/media/dear', '/media/middle']);
    expect(firstScreenImages(items.slice(1), true)).toEqual(['/media/cheap']);
    expect(firstScreenImages([listing('no-image')], true)).toEqual([]);
  });
});

describe('marketplace URL state and API mapping', () => {
  const fromUrl = (query: string) => toListingsRequest(readMarketplaceState(new URLSearchParams(query)));

  it('defaults to every category, newest first (createdAt,desc)', () => {
    expect(fromUrl('')).toEqual({ search: '', category: null, tag: null, sort: 'createdAt,desc' });
    expect(writeMarketplaceState(readMarketplaceState(new URLSearchParams(''))).toString()).toBe('');
  });

  it('maps the chips: Jerseys to CLOTHING, Equipment, Footwear, Accessories; Signed to tag SIGNED; Ending Soon to endsAt,asc', () => {
    expect(fromUrl('category=jerseys').category).toBe('CLOTHING');
    expect(fromUrl('category=equipment').category).toBe('EQUIPMENT');
    expect(fromUrl('category=footwear').category).toBe('FOOTWEAR');
    expect(fromUrl('category=accessories').category).toBe('ACCESSORIES');
    expect(fromUrl('category=signed')).toEqual({ search: '', category: null, tag: 'SIGNED', sort: 'createdAt,desc' });
    expect(fromUrl('category=ending-soon&sort=price-desc')).toEqual({ search: '', category: null, tag: null, sort: 'endsAt,asc' });
  });

  it('maps the seven sorts to real API sorts', () => {
    expect(
      ['ending-soon', 'newest', 'oldest', 'price-asc', 'price-desc', 'title-asc', 'title-desc'].map((sort) => fromUrl(`sort=${sort}`).sort),
    ).toEqual(['endsAt,asc', 'createdAt,desc', 'createdAt,asc', 'price,asc', 'price,desc', 'title,asc', 'title,desc']);
  });

  it('keeps search, chip and sort in the URL; unknown values fall back to the defaults', () => {
    const state = { search: ' Tom Brady ', chip: 'equipment', sort: 'price-asc' } as const;
    const written = writeMarketplaceState(state);
    expect(written.toString()).toBe('search=Tom+Brady&category=equipment&sort=price-asc');
    expect(readMarketplaceState(written)).toEqual({ search: 'Tom Brady', chip: 'equipment', sort: 'price-asc' });
    expect(readMarketplaceState(new URLSearchParams('category=shoes&sort=popular'))).toEqual({ search: '', chip: 'all', sort: 'newest' });
  });

  it('Featured shows only without a search or chip', () => {
    expect(isFiltered(readMarketplaceState(new URLSearchParams('sort=price-asc')))).toBe(false);
    expect(isFiltered(readMarketplaceState(new URLSearchParams('search=judge')))).toBe(true);
    expect(isFiltered(readMarketplaceState(new URLSearchParams('category=signed')))).toBe(true);
  });
});

describe('listing card', () => {
  it('shows WORN, SIGNED (also for AUTOGRAPHED) and one achievement, the first of HATTRICK, 2 GOALS, GOALS, ASSISTS, MVP', () => {
    expect(cardBadges(['WORN', 'SIGNED', 'PLAYOFF_GAME', 'MVP'])).toEqual(['WORN', 'SIGNED', 'MVP']);
    expect(cardBadges(['AUTOGRAPHED'])).toEqual(['SIGNED']);
    expect(cardBadges(['MVP', 'GOALS', 'HATTRICK'])).toEqual(['HATTRICK']);
    expect(cardBadges(['ASSISTS', '2 GOALS'])).toEqual(['2 GOALS']);
    expect(cardBadges(['LIMITED_EDITION', 'MVP_GAME'])).toEqual([]);
  });

  it('links by slug, or by id without one', () => {
    expect(listingPath({ id: 'id-1', slug: 'tom-brady-jersey' })).toBe('/marketplace/tom-brady-jersey');
    expect(listingPath({ id: 'id-1', slug: null })).toBe('/marketplace/listing/id-1');
    // Encoded, so that a slug can never reach into another route.
    expect(listingPath({ id: 'id-1', slug: 'a/b c?d' })).toBe('/marketplace/a%2Fb%20c%3Fd');
  });
});
