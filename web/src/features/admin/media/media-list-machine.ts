import { assertEvent, assign, enqueueActions, sendTo, setup, stopChild } from 'xstate';
import { isVideo, MAX_MEDIA_PER_LISTING } from './accepted-media';
import { mediaTileMachine, type MediaTileRef, type TileReport } from './media-tile-machine';

/** Media a saved listing already has, in its order. */
export interface StoredMedia {
  readonly mediaId: string;
  readonly url: string;
  readonly contentType?: string;
}

/** A file the drop zone refused, with react-dropzone's reasons (its FileRejection fits this shape). */
export interface DroppedRejection {
  readonly file: { readonly name: string };
  readonly errors: ReadonlyArray<{ readonly message: string }>;
}

/** A file that did not become a tile, and why. */
export interface Refusal {
  readonly name: string;
  readonly message: string;
}

export interface TileEntry {
  readonly id: string;
  readonly ref: MediaTileRef;
  /** The list's side of the tile's upload: how many run at once is the list's to decide. */
  readonly phase: 'waiting' | 'uploading' | 'settled';
  /** Set once the tile has completed. */
  readonly mediaId: string | null;
}

export interface MediaListContext {
  /** In display order. */
  readonly tiles: readonly TileEntry[];
  /** The files the last drop refused. */
  readonly refusals: readonly Refusal[];
  /** The mediaIds last reported, so that only a change is reported. */
  readonly reported: readonly string[];
  /** Tiles made so far: each gets a new id. */
  readonly created: number;
}

export type MediaListEvent =
  | { type: 'files.dropped'; accepted: readonly File[]; rejected: readonly DroppedRejection[] }
  | { type: 'remove'; id: string }
  | { type: 'move'; id: string; offset: -1 | 1 }
  /** Drag and drop: `id` takes the place of `overId`. */
  | { type: 'reorder'; id: string; overId: string }
  | { type: 'retry'; id: string }
  | TileReport;

export type MediaListEmitted = { type: 'mediaIds.changed'; mediaIds: readonly string[] };

/** react-dropzone's own words for a file past the limit. */
export const TOO_MANY_FILES = 'Too many files';

/** Browsers open about six connections to a host; three uploads at once leave room for the page's own calls. */
export const MAX_PARALLEL_UPLOADS = 3;

export function completedMediaIds(tiles: readonly TileEntry[]): string[] {
  return tiles.flatMap((tile) => (tile.mediaId === null ? [] : [tile.mediaId]));
}

function moved<T>(items: readonly T[], from: number, to: number): readonly T[] {
  if (from < 0 || to < 0 || from >= items.length || to >= items.length || from === to) return items;
  const result = [...items];
  const [item] = result.splice(from, 1);
  result.splice(to, 0, item!);
  return result;
}

function storedName(media: StoredMedia, position: number): string {
  if (media.contentType === undefined) return `Media ${position}`;
  return `${isVideo(media.contentType) ? 'Video' : 'Photo'} ${position}`;
}

/**
 * The media tiles of a listing: the ordered list of tile actors (each spawned, each uploading on
 * its own), at most MAX_MEDIA_PER_LISTING of them; files past the limit are refused with "Too many
 * files". Emits `mediaIds.changed` with the ordered mediaIds of the completed tiles whenever
 * that list changes (a completed upload, a removal, a move).
 */
export const mediaListMachine = setup({
  types: {
    context: {} as MediaListContext,
    events: {} as MediaListEvent,
    input: {} as { initial: readonly StoredMedia[] },
    emitted: {} as MediaListEmitted,
  },
  actors: { tile: mediaTileMachine },
  guards: {
    hasFailed: ({ context, event }) => {
      assertEvent(event, 'retry');
      const tile = context.tiles.find((entry) => entry.id === event.id);
      return tile?.phase === 'settled' && tile.mediaId === null;
    },
  },
  actions: {
    startWaitingTiles: enqueueActions(({ context, enqueue }) => {
      let free = MAX_PARALLEL_UPLOADS - context.tiles.filter((tile) => tile.phase === 'uploading').length;
      const starting = new Set<string>();
      for (const tile of context.tiles) {
        if (free <= 0) break;
        if (tile.phase !== 'waiting') continue;
        starting.add(tile.id);
        free -= 1;
      }
      if (starting.size === 0) return;
      enqueue.assign({ tiles: context.tiles.map((tile) => (starting.has(tile.id) ? { ...tile, phase: 'uploading' } : tile)) });
      for (const tile of context.tiles) {
        if (starting.has(tile.id)) enqueue.sendTo(tile.ref, { type: 'start' });
      }
    }),
    reportMediaIds: enqueueActions(({ context, enqueue }) => {
      const mediaIds = completedMediaIds(context.tiles);
      if (mediaIds.length === context.reported.length && mediaIds.every((id, index) => id === context.reported[index])) return;
      enqueue.assign({ reported: mediaIds });
      enqueue.emit({ type: 'mediaIds.changed', mediaIds });
    }),
  },
}).createMachine({
  id: 'mediaList',
  context: ({ input, spawn }) => ({
    tiles: input.initial.map((media, index) => {
      const id = `tile-${index + 1}`;
      const source = { kind: 'stored', name: storedName(media, index + 1), mediaId: media.mediaId, url: media.url, contentType: media.contentType ?? null } as const;
      return { id, ref: spawn('tile', { id, input: { id, source } }), phase: 'settled', mediaId: media.mediaId };
    }),
    refusals: [],
    reported: input.initial.map((media) => media.mediaId),
    created: input.initial.length,
  }),
  on: {
    'files.dropped': {
      actions: [
        assign(({ context, event, spawn }) => {
          const room = Math.max(0, MAX_MEDIA_PER_LISTING - context.tiles.length);
          const taken = event.accepted.slice(0, room);
          const added = taken.map((file, index): TileEntry => {
            const id = `tile-${context.created + index + 1}`;
            return { id, ref: spawn('tile', { id, input: { id, source: { kind: 'file', file } } }), phase: 'waiting', mediaId: null };
          });
          return {
            tiles: [...context.tiles, ...added],
            created: context.created + added.length,
            refusals: [
              ...event.rejected.map((rejection) => ({ name: rejection.file.name, message: rejection.errors.map((error) => error.message).join('; ') })),
              ...event.accepted.slice(room).map((file) => ({ name: file.name, message: TOO_MANY_FILES })),
            ],
          };
        }),
        'startWaitingTiles',
      ],
    },
    remove: {
      actions: [
        stopChild(({ event }) => event.id),
        assign({ tiles: ({ context, event }) => context.tiles.filter((tile) => tile.id !== event.id) }),
        'startWaitingTiles',
        'reportMediaIds',
      ],
    },
    move: {
      actions: [
        assign({
          tiles: ({ context, event }) => {
            const from = context.tiles.findIndex((tile) => tile.id === event.id);
            return moved(context.tiles, from, from + event.offset);
          },
        }),
        'reportMediaIds',
      ],
    },
    reorder: {
      actions: [
        assign({
          tiles: ({ context, event }) => {
            const index = (id: string) => context.tiles.findIndex((tile) => tile.id === id);
            return moved(context.tiles, index(event.id), index(event.overId));
          },
        }),
        'reportMediaIds',
      ],
    },
    retry: {
      guard: 'hasFailed',
      actions: [
        assign({ tiles: ({ context, event }) => context.tiles.map((tile) => (tile.id === event.id ? { ...tile, phase: 'waiting' } : tile)) }),
        sendTo(({ event }) => event.id, { type: 'retry' }),
        'startWaitingTiles',
      ],
    },
    'tile.completed': {
      actions: [
        assign({ tiles: ({ context, event }) => context.tiles.map((tile) => (tile.id === event.id ? { ...tile, phase: 'settled', mediaId: event.mediaId } : tile)) }),
        'startWaitingTiles',
        'reportMediaIds',
      ],
    },
    'tile.failed': {
      actions: [assign({ tiles: ({ context, event }) => context.tiles.map((tile) => (tile.id === event.id ? { ...tile, phase: 'settled' } : tile)) }), 'startWaitingTiles'],
    },
  },
});
