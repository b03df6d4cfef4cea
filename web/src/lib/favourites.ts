import { useSyncExternalStore } from 'react';
import type { Listing } from './listing';

/** Favourites are kept on this device only: the listing as it was when saved, enough to show its card again. */
export interface Favourite extends Pick<Listing, 'id' | 'title' | 'price' | 'status' | 'endsAt'> {
  /** null in favourites saved before every listing had a slug. */
  readonly slug: string | null;
  readonly imageUrl: string | null;
  readonly savedAt: string;
}

const STORAGE_KEY = 'provenance-favourites';
const listeners = new Set<() => void>();
let cache: readonly Favourite[] | null = null;

function read(): readonly Favourite[] {
  if (cache) return cache;
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    cache = Array.isArray(parsed) ? (parsed as Favourite[]).filter((item) => typeof item?.id === 'string') : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(next: readonly Favourite[]): void {
  cache = next;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Kept for this visit only.
  }
  for (const listener of listeners) listener();
}

export const favourites = {
  toggle(item: Omit<Favourite, 'savedAt'>): void {
    const current = read();
    write(current.some((saved) => saved.id === item.id) ? current.filter((saved) => saved.id !== item.id) : [{ ...item, savedAt: new Date().toISOString() }, ...current]);
  },
  remove(id: string): void {
    write(read().filter((saved) => saved.id !== id));
  },
};

export function useFavourites(): readonly Favourite[] {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, read);
}

export function useIsFavourite(id: string): boolean {
  return useFavourites().some((saved) => saved.id === id);
}
