import { z } from 'zod';
import { rejected } from '../shared/errors';
import { eventMetadataFor, eventMetadataSchema, messageSchema, type CommandMetadata } from '../shared/messages';

/**
 * A listing's slug is its public address (/marketplace/{slug}), so no two listings may share one.
 * Each slug has a stream of its own; claiming it is appended atomically with the listing's draft,
 * expecting the slug's stream not to exist, so of two listings wanting one slug exactly one gets it.
 */
export const listingSlugClaimedSchema = messageSchema(
  'ListingSlugClaimed',
  z.strictObject({ slug: z.string(), listingId: z.string().min(1).max(200) }),
  eventMetadataSchema,
);
export type ListingSlugClaimed = z.infer<typeof listingSlugClaimedSchema>;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 120;

export function listingSlugStreamId(slug: string): string {
  return `listing_slug-${slug}`;
}

/** `claimedBy`: the listing holding the slug already, null when it is free. */
export function decideSlugClaim(slug: string, listingId: string, claimedBy: string | null, metadata: CommandMetadata): ListingSlugClaimed[] {
  if (claimedBy === listingId) return [];
  if (claimedBy !== null) throw rejected('SLUG_TAKEN', `The address "${slug}" is already used by another listing`, { slug });
  return [{ type: 'ListingSlugClaimed', data: { slug, listingId }, metadata: eventMetadataFor({ metadata }) }];
}

/** "Tom Brady #12 — Buccaneers" -> "tom-brady-12-buccaneers": ASCII words, accents dropped, bounded. */
export function slugify(...parts: Array<string | number | null | undefined>): string {
  const words = parts
    .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
    .join(' ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const bounded = words.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '');
  return bounded || 'listing';
}
