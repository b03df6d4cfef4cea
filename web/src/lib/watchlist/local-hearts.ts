import type { Listing } from '../listing';

/**
 * Hearts given while signed out, kept on this device only: the listing as it was when saved, enough
 * to show its card again. Signing in adds them to the account's watchlist and forgets them here.
 */
export interface LocalHeart extends Pick<Listing, 'id' | 'title' | 'price' | 'status' | 'endsAt'> {
  /** null in hearts saved before every listing had a slug. */
  readonly slug: string | null;
  readonly imageUrl: string | null;
  readonly savedAt: string;
}

const STORAGE_KEY = 'provenance-favourites';
const listeners = new Set<() => void>();
let cache: readonly LocalHeart[] | null = null;

function read(): readonly LocalHeart[] {
  if (cache) return cache;
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    cache = Array.isArray(parsed) ? (parsed as LocalHeart[]).filter((item) => typeof item?.id === 'string') : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(next: readonly LocalHeart[]): void {
  cache = next;
  try {
    if (next.length > 0) localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Kept for this visit only.
  }
  for (const listener of listeners) listener();
}

export const localHearts = {
  read,
  toggle(item: Omit<LocalHeart, 'savedAt'>): void {
    const current = read();
    write(current.some((saved) => saved.id === item.id) ? current.filter((saved) => saved.id !== item.id) : [{ ...item, savedAt: new Date().toISOString() }, ...current]);
  },
  /** Forgets these listings (removed by hand, or now kept by the account). */
  forget(ids: readonly string[]): void {
    const gone = new Set(ids);
    const current = read();
    if (current.some((saved) => gone.has(saved.id))) write(current.filter((saved) => !gone.has(saved.id)));
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
