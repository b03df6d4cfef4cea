import { assign, fromCallback, sendParent, setup, type ActorRefFrom, type EventObject, type SnapshotFrom } from 'xstate';
import { contentTypeOf } from './accepted-media';
import { uploadMedia } from './upload';

/** What a tile shows: a file the admin chose (uploaded here), or media a saved listing already has. */
export type TileSource =
  | { readonly kind: 'file'; readonly file: File }
  | { readonly kind: 'stored'; readonly name: string; readonly mediaId: string; readonly url: string; readonly contentType: string | null };

export interface TileInput {
  readonly id: string;
  readonly source: TileSource;
}

export interface TileContext {
  readonly id: string;
  readonly name: string;
  readonly contentType: string | null;
  /** The chosen file (previewed from memory); null for stored media. */
  readonly file: File | null;
  /** The stored media's public URL: only for media of a saved listing. */
  readonly url: string | null;
  /** Whole percent of the file's bytes sent. */
  readonly progress: number;
  readonly mediaId: string | null;
  /** Why the last upload failed. */
  readonly failure: string | null;
}

/** What the upload actor tells its tile. */
export type UploadEvent =
  | { type: 'upload.progress'; percent: number }
  | { type: 'upload.done'; mediaId: string; url: string }
  | { type: 'upload.failed'; reason: string };

/** `start` comes from the list, which decides how many files upload at once; `retry` after a failure. */
export type TileEvent = { type: 'start' } | { type: 'retry' } | UploadEvent;

/** What a tile tells the list it belongs to. */
export type TileReport = { type: 'tile.completed'; id: string; mediaId: string } | { type: 'tile.failed'; id: string };

/**
 * One media file's upload: pending (waiting for its turn) -> uploading (progress in %) ->
 * completed (with its mediaId) or error ("Upload failed", retry returns it to pending and so
 * to uploading as soon as the list lets it). Media of a saved listing start completed.
 */
export const mediaTileMachine = setup({
  types: {
    context: {} as TileContext,
    events: {} as TileEvent,
    input: {} as TileInput,
  },
  actors: {
    /** Presign, PUT with progress, confirm; stopping the actor (remove, unmount) aborts the upload. */
    uploadFile: fromCallback<EventObject, { file: File }>(({ input, sendBack }) => {
      const controller = new AbortController();
      uploadMedia(input.file, (percent) => sendBack({ type: 'upload.progress', percent } satisfies UploadEvent), controller.signal).then(
        (media) => sendBack({ type: 'upload.done', mediaId: media.mediaId, url: media.url } satisfies UploadEvent),
        (error: unknown) => {
          if (!controller.signal.aborted) sendBack({ type: 'upload.failed', reason: error instanceof Error ? error.message : 'Upload failed' } satisfies UploadEvent);
        },
      );
      return () => controller.abort();
    }),
  },
  guards: {
    isStored: ({ context }) => context.mediaId !== null,
  },
}).createMachine({
  id: 'mediaTile',
  initial: 'pending',
  context: ({ input }) => {
    const { source } = input;
    if (source.kind === 'stored') {
      return { id: input.id, name: source.name, contentType: source.contentType, file: null, url: source.url, progress: 100, mediaId: source.mediaId, failure: null };
    }
    return { id: input.id, name: source.file.name, contentType: contentTypeOf(source.file), file: source.file, url: null, progress: 0, mediaId: null, failure: null };
  },
  states: {
    pending: {
      always: { guard: 'isStored', target: 'completed' },
      on: { start: 'uploading' },
    },
    uploading: {
      entry: assign({ progress: 0, failure: null }),
      invoke: {
        src: 'uploadFile',
        input: ({ context }) => ({ file: context.file! }),
        onError: {
          target: 'error',
          actions: [assign({ failure: 'Upload failed' }), sendParent(({ context }): TileReport => ({ type: 'tile.failed', id: context.id }))],
        },
      },
      on: {
        'upload.progress': { actions: assign({ progress: ({ event }) => event.percent }) },
        'upload.done': {
          target: 'completed',
          actions: [
            assign({ progress: 100, mediaId: ({ event }) => event.mediaId }),
            sendParent(({ context, event }): TileReport => ({ type: 'tile.completed', id: context.id, mediaId: event.mediaId })),
          ],
        },
        'upload.failed': {
          target: 'error',
          actions: [assign({ failure: ({ event }) => event.reason }), sendParent(({ context }): TileReport => ({ type: 'tile.failed', id: context.id }))],
        },
      },
    },
    completed: {},
    error: {
      on: { retry: 'pending' },
    },
  },
});

export type MediaTileRef = ActorRefFrom<typeof mediaTileMachine>;
export type MediaTileSnapshot = SnapshotFrom<typeof mediaTileMachine>;

/** The tile's state in words, as shown on it and read by a screen reader. */
export function tileStatusText(snapshot: MediaTileSnapshot): string {
  if (snapshot.matches('pending')) return 'Waiting to upload';
  if (snapshot.matches('uploading')) return `Uploading ${snapshot.context.progress}%`;
  if (snapshot.matches('completed')) return 'Uploaded';
  return 'Upload failed';
}
