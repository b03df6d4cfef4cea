import { preload } from 'react-dom';
import { prefetchFirstPage } from './api';
import { firstScreenImages } from './card-display';
import { isFiltered, readMarketplaceState, toListingsRequest } from './marketplace-query';

/**
 * How long the page waits for its first page before it shows its skeleton instead: the API
 * answers in a few milliseconds, and one render with the cards paints them sooner than a skeleton
 * followed by the cards.
 */
const FIRST_PAGE_WAIT_MS = 100;

/**
 * The router's loader for /marketplace (app/router.tsx), run before the page renders: asks for the
 * visit's first page at once, and as soon as it arrives, for the image of the first screen's
 * largest paint; resolves when the page has arrived, or after FIRST_PAGE_WAIT_MS.
 */
export async function prefetchMarketplace(url: URL): Promise<void> {
  const state = readMarketplaceState(url.searchParams);
  const answer = prefetchFirstPage(toListingsRequest(state));
  const arrived = answer.then(
    (page) => {
      for (const image of firstScreenImages(page.content, isFiltered(state))) preload(image, { as: 'image', fetchPriority: 'high' });
    },
    // The page's own fetch takes the answer and reports the failure.
    () => undefined,
  );
  await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]);
}
