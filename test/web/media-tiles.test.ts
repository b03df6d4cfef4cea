import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type EventObject } from 'xstate';
import { MEDIA_EXTENSIONS } from '../../api/media/media-types';
import { MAX_MEDIA_PER_LISTING } from '../../engine/domain/listing/listing';
import { setAccessTokenSource } from '../../web/src/lib/api-client';
import { ACCEPTED_MEDIA, contentTypeOf, MAX_MEDIA_PER_LISTING as WEB_MAX_MEDIA } from '../../web/src/features/admin/media/accepted-media';
import {
  mediaListMachine,
  MAX_PARALLEL_UPLOADS,
  TOO_MANY_FILES,
  type DroppedRejection,
  type StoredMedia,
} from '../../web/src/features/admin/media/media-list-machine';
import { mediaTileMachine, tileStatusText, type UploadEvent } from '../../web/src/features/admin/media/media-tile-machine';
import { uploadMedia } from '../../web/src/features/admin/media/upload';

/** One run of the upload actor, driven by the test. */
interface FakeUpload {
  readonly file: File;
  readonly send: (event: UploadEvent) => void;
  stopped: boolean;
}

function start(initial: readonly StoredMedia[] = []) {
  const uploads: FakeUpload[] = [];
  const tile = mediaTileMachine.provide({
    actors: {
      uploadFile: fromCallback<EventObject, { file: File }>(({ input, sendBack }) => {
        const upload: FakeUpload = { file: input.file, send: sendBack, stopped: false };
        uploads.push(upload);
        return () => {
          upload.stopped = true;
        };
      }),
    },
  });
  const actor = createActor(mediaListMachine.provide({ actors: { tile } }), { input: { initial } });
  const reports: string[][] = [];
  actor.on('mediaIds.changed', (event) => reports.push([...event.mediaIds]));
  actor.start();

  const tiles = () => actor.getSnapshot().context.tiles;
  const tileSnapshot = (name: string) => {
    const entry = tiles().find((candidate) => candidate.ref.getSnapshot().context.name === name);
    if (!entry) throw new Error(`no tile ${name}`);
    return entry.ref.getSnapshot();
  };
  const idOf = (name: string) => tileSnapshot(name).context.id;
  /** The latest upload of a file. */
  const uploadOf = (name: string) => uploads.findLast((upload) => upload.file.name === name)!;
  return {
    actor,
    uploads,
    reports,
    tiles,
    idOf,
    uploadOf,
    status: (name: string) => tileStatusText(tileSnapshot(name)),
    tile: tileSnapshot,
    names: () => tiles().map((entry) => entry.ref.getSnapshot().context.name),
    refusals: () => actor.getSnapshot().context.refusals,
    drop: (accepted: readonly File[], rejected: readonly DroppedRejection[] = []) => actor.send({ type: 'files.dropped', accepted, rejected }),
    complete: (name: string, mediaId: string) => uploadOf(name).send({ type: 'upload.done', mediaId, url: `/media/${mediaId}` }),
  };
}

function photo(name: string, bytes = 1000): File {
  return new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });
}

/** A drop of several files, named front-1.jpg ... */
function photos(count: number, prefix = 'front'): File[] {
  return Array.from({ length: count }, (_, index) => photo(`${prefix}-${index + 1}.jpg`));
}

/** Three completed tiles a.jpg, b.jpg, c.jpg with media m-a, m-b, m-c. */
function threeCompleted() {
  const tiles = start();
  tiles.drop([photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]);
  for (const name of ['a', 'b', 'c']) tiles.complete(`${name}.jpg`, `m-${name}`);
  tiles.reports.length = 0;
  return tiles;
}

describe('a tile uploads its file', () => {
  it('starts uploading on the drop and shows the real progress in percent', () => {
    const tiles = start();
    tiles.drop([photo('front.jpg')]);
    expect(tiles.uploads).toHaveLength(1);
    expect(tiles.uploads[0]!.file.name).toBe('front.jpg');
    expect(tiles.tile('front.jpg').matches('uploading')).toBe(true);
    expect(tiles.status('front.jpg')).toBe('Uploading 0%');
    tiles.uploadOf('front.jpg').send({ type: 'upload.progress', percent: 45 });
    expect(tiles.status('front.jpg')).toBe('Uploading 45%');
    expect(tiles.tile('front.jpg').context.progress).toBe(45);
    expect(tiles.reports).toEqual([]);
  });

  it('completes with the mediaId the API gave, and reports it', () => {
    const tiles = start();
    tiles.drop([photo('front.jpg')]);
    tiles.complete('front.jpg', 'media-1');
    expect(tiles.tile('front.jpg').matches('completed')).toBe(true);
    expect(tiles.tile('front.jpg').context).toMatchObject({ mediaId: 'media-1', progress: 100, failure: null });
    expect(tiles.status('front.jpg')).toBe('Uploaded');
    expect(tiles.reports).toEqual([['media-1']]);
  });

  it('shows "Upload failed" with the reason; Retry uploads the file again, from 0%, and completes', () => {
    const tiles = start();
    tiles.drop([photo('front.jpg')]);
    tiles.uploadOf('front.jpg').send({ type: 'upload.progress', percent: 60 });
    tiles.uploadOf('front.jpg').send({ type: 'upload.failed', reason: 'Upload failed: 503 Service Unavailable' });
    expect(tiles.tile('front.jpg').matches('error')).toBe(true);
    expect(tiles.status('front.jpg')).toBe('Upload failed');
    expect(tiles.tile('front.jpg').context.failure).toBe('Upload failed: 503 Service Unavailable');
    expect(tiles.uploads[0]!.stopped).toBe(true);

    tiles.actor.send({ type: 'retry', id: tiles.idOf('front.jpg') });
    expect(tiles.uploads).toHaveLength(2);
    expect(tiles.uploads[1]!.file).toBe(tiles.uploads[0]!.file);
    expect(tiles.status('front.jpg')).toBe('Uploading 0%');
    expect(tiles.tile('front.jpg').context.failure).toBeNull();
    tiles.complete('front.jpg', 'media-1');
    expect(tiles.status('front.jpg')).toBe('Uploaded');
    expect(tiles.reports).toEqual([['media-1']]);
  });

  it('a failure the upload actor throws is an "Upload failed" too', () => {
    const tile = mediaTileMachine.provide({
      actors: {
        uploadFile: fromCallback<EventObject, { file: File }>(() => {
          throw new Error('boom');
        }),
      },
    });
    const actor = createActor(mediaListMachine.provide({ actors: { tile } }), { input: { initial: [] } });
    actor.start();
    actor.send({ type: 'files.dropped', accepted: [photo('front.jpg')], rejected: [] });
    const snapshot = actor.getSnapshot().context.tiles[0]!.ref.getSnapshot();
    expect(tileStatusText(snapshot)).toBe('Upload failed');
    expect(snapshot.context.failure).toBe('Upload failed');
  });

  it('Retry does nothing to a tile that has not failed', () => {
    const tiles = start();
    tiles.drop([photo('front.jpg')]);
    tiles.actor.send({ type: 'retry', id: tiles.idOf('front.jpg') });
    expect(tiles.uploads).toHaveLength(1);
    tiles.complete('front.jpg', 'media-1');
    tiles.actor.send({ type: 'retry', id: tiles.idOf('front.jpg') });
    expect(tiles.uploads).toHaveLength(1);
    expect(tiles.status('front.jpg')).toBe('Uploaded');
  });
});

describe('tiles upload independently', () => {
  it('one failing upload does not disturb another', () => {
    const tiles = start();
    tiles.drop([photo('front.jpg'), photo('back.jpg')]);
    tiles.uploadOf('back.jpg').send({ type: 'upload.progress', percent: 30 });
    tiles.uploadOf('front.jpg').send({ type: 'upload.failed', reason: 'Failed to get upload URL' });
    expect(tiles.status('front.jpg')).toBe('Upload failed');
    expect(tiles.status('back.jpg')).toBe('Uploading 30%');
    expect(tiles.uploadOf('back.jpg').stopped).toBe(false);
    tiles.uploadOf('back.jpg').send({ type: 'upload.progress', percent: 80 });
    tiles.complete('back.jpg', 'media-back');
    expect(tiles.status('back.jpg')).toBe('Uploaded');
    expect(tiles.status('front.jpg')).toBe('Upload failed');
    expect(tiles.reports).toEqual([['media-back']]);
  });

  it(`uploads at most ${MAX_PARALLEL_UPLOADS} files at once; the others wait their turn`, () => {
    const tiles = start();
    tiles.drop(photos(5));
    expect(tiles.uploads.map((upload) => upload.file.name)).toEqual(['front-1.jpg', 'front-2.jpg', 'front-3.jpg']);
    expect(tiles.status('front-4.jpg')).toBe('Waiting to upload');
    expect(tiles.tile('front-4.jpg').matches('pending')).toBe(true);
    tiles.complete('front-2.jpg', 'media-2');
    expect(tiles.uploads.map((upload) => upload.file.name)).toEqual(['front-1.jpg', 'front-2.jpg', 'front-3.jpg', 'front-4.jpg']);
    tiles.uploadOf('front-1.jpg').send({ type: 'upload.failed', reason: 'Upload failed' });
    expect(tiles.status('front-5.jpg')).toBe('Uploading 0%');
    // A retry waits for a free place like any other file.
    tiles.actor.send({ type: 'retry', id: tiles.idOf('front-1.jpg') });
    expect(tiles.status('front-1.jpg')).toBe('Waiting to upload');
    tiles.actor.send({ type: 'remove', id: tiles.idOf('front-3.jpg') });
    expect(tiles.status('front-1.jpg')).toBe('Uploading 0%');
  });
});

describe('the order of the tiles', () => {
  it('Remove takes a tile out (and stops its upload); the reported mediaIds follow', () => {
    const tiles = threeCompleted();
    tiles.actor.send({ type: 'remove', id: tiles.idOf('b.jpg') });
    expect(tiles.names()).toEqual(['a.jpg', 'c.jpg']);
    expect(tiles.reports).toEqual([['m-a', 'm-c']]);

    tiles.drop([photo('d.jpg')]);
    const upload = tiles.uploadOf('d.jpg');
    tiles.actor.send({ type: 'remove', id: tiles.idOf('d.jpg') });
    expect(upload.stopped).toBe(true);
    expect(tiles.names()).toEqual(['a.jpg', 'c.jpg']);
    expect(tiles.actor.getSnapshot().children).not.toHaveProperty('tile-4');
    // Removing a tile that had no media changes no mediaIds: nothing more is reported.
    expect(tiles.reports).toEqual([['m-a', 'm-c']]);
  });

  it('Move left and Move right swap a tile with its neighbour; nothing moves past either end', () => {
    const tiles = threeCompleted();
    tiles.actor.send({ type: 'move', id: tiles.idOf('c.jpg'), offset: -1 });
    expect(tiles.names()).toEqual(['a.jpg', 'c.jpg', 'b.jpg']);
    tiles.actor.send({ type: 'move', id: tiles.idOf('a.jpg'), offset: 1 });
    expect(tiles.names()).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    tiles.actor.send({ type: 'move', id: tiles.idOf('c.jpg'), offset: -1 });
    tiles.actor.send({ type: 'move', id: tiles.idOf('b.jpg'), offset: 1 });
    expect(tiles.names()).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    expect(tiles.reports).toEqual([
      ['m-a', 'm-c', 'm-b'],
      ['m-c', 'm-a', 'm-b'],
    ]);
  });

  it('drag and drop puts the dragged tile in the place of the one it is dropped on', () => {
    const tiles = threeCompleted();
    tiles.actor.send({ type: 'reorder', id: tiles.idOf('a.jpg'), overId: tiles.idOf('c.jpg') });
    expect(tiles.names()).toEqual(['b.jpg', 'c.jpg', 'a.jpg']);
    tiles.actor.send({ type: 'reorder', id: tiles.idOf('a.jpg'), overId: tiles.idOf('b.jpg') });
    expect(tiles.names()).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    tiles.actor.send({ type: 'reorder', id: tiles.idOf('b.jpg'), overId: tiles.idOf('b.jpg') });
    tiles.actor.send({ type: 'reorder', id: tiles.idOf('b.jpg'), overId: 'tile-gone' });
    expect(tiles.reports).toEqual([
      ['m-b', 'm-c', 'm-a'],
      ['m-a', 'm-b', 'm-c'],
    ]);
  });

  it('reports the mediaIds of the completed tiles only, in the order of the tiles', () => {
    const tiles = start();
    tiles.drop([photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]);
    tiles.complete('c.jpg', 'm-c');
    tiles.uploadOf('b.jpg').send({ type: 'upload.failed', reason: 'Upload failed' });
    tiles.complete('a.jpg', 'm-a');
    expect(tiles.reports).toEqual([['m-c'], ['m-a', 'm-c']]);
    // Moving a tile without media past one with media changes nothing reported.
    tiles.actor.send({ type: 'move', id: tiles.idOf('b.jpg'), offset: -1 });
    expect(tiles.names()).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);
    expect(tiles.reports).toHaveLength(2);
    tiles.actor.send({ type: 'reorder', id: tiles.idOf('c.jpg'), overId: tiles.idOf('b.jpg') });
    expect(tiles.reports.at(-1)).toEqual(['m-c', 'm-a']);
    tiles.actor.send({ type: 'retry', id: tiles.idOf('b.jpg') });
    tiles.complete('b.jpg', 'm-b');
    expect(tiles.names()).toEqual(['c.jpg', 'b.jpg', 'a.jpg']);
    expect(tiles.reports.at(-1)).toEqual(['m-c', 'm-b', 'm-a']);
  });
});

describe('what the drop zone takes', () => {
  it(`takes at most ${MAX_MEDIA_PER_LISTING} files in all; the extras are dropped with "${TOO_MANY_FILES}"`, () => {
    expect(WEB_MAX_MEDIA).toBe(MAX_MEDIA_PER_LISTING);
    const tiles = start();
    tiles.drop(photos(10));
    expect(tiles.tiles()).toHaveLength(8);
    expect(tiles.names().at(-1)).toBe('front-8.jpg');
    expect(tiles.refusals()).toEqual([
      { name: 'front-9.jpg', message: 'Too many files' },
      { name: 'front-10.jpg', message: 'Too many files' },
    ]);
    // Full: a later drop adds nothing.
    tiles.drop([photo('extra.jpg')]);
    expect(tiles.tiles()).toHaveLength(8);
    expect(tiles.refusals()).toEqual([{ name: 'extra.jpg', message: 'Too many files' }]);
    // A removed tile makes room for one more.
    tiles.actor.send({ type: 'remove', id: tiles.idOf('front-1.jpg') });
    tiles.drop([photo('extra.jpg'), photo('another.jpg')]);
    expect(tiles.names().at(-1)).toBe('extra.jpg');
    expect(tiles.tiles()).toHaveLength(8);
    expect(tiles.refusals()).toEqual([{ name: 'another.jpg', message: 'Too many files' }]);
  });

  it('counts the media a saved listing already has against the limit', () => {
    const initial = Array.from({ length: 6 }, (_, index) => ({ mediaId: `m-${index}`, url: `/media/m-${index}`, contentType: 'image/jpeg' }));
    const tiles = start(initial);
    tiles.drop(photos(3));
    expect(tiles.tiles()).toHaveLength(8);
    expect(tiles.refusals()).toEqual([{ name: 'front-3.jpg', message: 'Too many files' }]);
  });

  it('shows a refused file type with react-dropzone\'s own message and makes no tile of it', () => {
    const tiles = start();
    const message = 'File type must be one of image/jpeg, .jpeg, .jpg, image/png, .png';
    tiles.drop([photo('front.jpg')], [{ file: { name: 'notes.txt' }, errors: [{ message }] }]);
    expect(tiles.names()).toEqual(['front.jpg']);
    expect(tiles.refusals()).toEqual([{ name: 'notes.txt', message }]);
    expect(tiles.uploads.map((upload) => upload.file.name)).toEqual(['front.jpg']);
    // The next drop replaces the list of refusals.
    tiles.drop([photo('back.jpg')]);
    expect(tiles.refusals()).toEqual([]);
  });

  it('accepts the types and extensions the upload API accepts, and no others', () => {
    expect(Object.keys(ACCEPTED_MEDIA).sort()).toEqual(Object.keys(MEDIA_EXTENSIONS).sort());
    expect(Object.values(ACCEPTED_MEDIA).flat().sort()).toEqual(['.avi', '.jpeg', '.jpg', '.mov', '.mp4', '.png', '.webp']);
  });

  it('announces the type a file\'s extension means when the browser gives none', () => {
    expect(contentTypeOf({ name: 'walkaround.AVI', type: '' })).toBe('video/x-msvideo');
    expect(contentTypeOf({ name: 'clip.mov', type: '' })).toBe('video/quicktime');
    expect(contentTypeOf({ name: 'front.jpg', type: 'image/jpeg' })).toBe('image/jpeg');
    expect(contentTypeOf({ name: 'notes', type: '' })).toBe('application/octet-stream');
  });
});

describe('a saved listing\'s media', () => {
  const initial: StoredMedia[] = [
    { mediaId: 'm-1', url: '/media/m-1', contentType: 'image/jpeg' },
    { mediaId: 'm-2', url: '/media/m-2', contentType: 'video/mp4' },
    { mediaId: 'm-3', url: '/media/m-3' },
  ];

  it('shows as completed tiles, in order, without uploading or reporting anything', () => {
    const tiles = start(initial);
    expect(tiles.names()).toEqual(['Photo 1', 'Video 2', 'Media 3']);
    expect(tiles.tile('Video 2').matches('completed')).toBe(true);
    expect(tiles.tile('Video 2').context).toMatchObject({ mediaId: 'm-2', url: '/media/m-2', contentType: 'video/mp4', file: null });
    expect(tiles.uploads).toEqual([]);
    expect(tiles.reports).toEqual([]);
  });

  it('can be rearranged, removed and added to', () => {
    const tiles = start(initial);
    tiles.actor.send({ type: 'move', id: tiles.idOf('Media 3'), offset: -1 });
    expect(tiles.reports).toEqual([['m-1', 'm-3', 'm-2']]);
    tiles.actor.send({ type: 'remove', id: tiles.idOf('Photo 1') });
    tiles.drop([photo('front.jpg')]);
    expect(tiles.idOf('front.jpg')).toBe('tile-4');
    tiles.complete('front.jpg', 'm-4');
    expect(tiles.reports.at(-1)).toEqual(['m-3', 'm-2', 'm-4']);
  });
});

describe('the upload itself', () => {
  /** An XMLHttpRequest that records the PUT and answers as the API's storage does. */
  class FakeXhr {
    static sent: FakeXhr[] = [];
    method = '';
    url = '';
    readonly headers: Record<string, string> = {};
    body: unknown;
    status = 0;
    statusText = '';
    answerHeaders: Record<string, string> = {};
    readonly upload = {
      onprogress: null as ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null,
      addEventListener(_type: 'progress', listener: (event: { lengthComputable: boolean; loaded: number; total: number }) => void) {
        this.onprogress = listener;
      },
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    addEventListener(type: 'load' | 'error' | 'abort' | 'timeout', listener: () => void) {
      if (type !== 'timeout') this[`on${type}`] = listener;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    getResponseHeader(name: string) {
      return this.answerHeaders[name.toLowerCase()] ?? null;
    }
    send(body: unknown) {
      this.body = body;
      FakeXhr.sent.push(this);
    }
    abort() {
      this.onabort?.();
    }
    answer(status: number, statusText: string, headers: Record<string, string> = {}) {
      this.status = status;
      this.statusText = statusText;
      this.answerHeaders = headers;
      this.onload?.();
    }
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.sent = [];
    setAccessTokenSource(() => null);
  });

  function fakeApi(confirmAnswer: () => Response) {
    const calls: Array<{ url: string; body: unknown; authorization: string | null }> = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)), authorization: new Headers(init.headers).get('authorization') });
      if (url.endsWith('/presigned-url')) {
        return Response.json(
          { mediaId: 'media-1', uploadUrl: 'http://api.test/media/uploads/media-1.jpg?sig=x', method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, expiresAt: '2032-01-01T00:00:00.000Z', maxSizeBytes: 1000 },
          { status: 201 },
        );
      }
      return confirmAnswer();
    });
    setAccessTokenSource(() => 'admin-token');
    return calls;
  }

  it('presigns, PUTs the bytes with the given headers reporting progress, and confirms with the ETag', async () => {
    const calls = fakeApi(() => Response.json({ mediaId: 'media-1', status: 'COMPLETED', contentType: 'image/jpeg', fileSizeBytes: 1000, url: '/media/media-1' }));
    const file = photo('front.jpg');
    const progress: number[] = [];
    const done = uploadMedia(file, (percent) => progress.push(percent), new AbortController().signal);
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect(calls[0]).toEqual({
      url: '/api/admin/media/upload/presigned-url',
      body: { filename: 'front.jpg', contentType: 'image/jpeg', fileSizeBytes: 1000 },
      authorization: 'Bearer admin-token',
    });
    const put = FakeXhr.sent[0]!;
    expect([put.method, put.url, put.headers, put.body]).toEqual(['PUT', 'http://api.test/media/uploads/media-1.jpg?sig=x', { 'Content-Type': 'image/jpeg' }, file]);
    put.upload.onprogress?.({ lengthComputable: true, loaded: 450, total: 1000 });
    put.answer(200, 'OK', { etag: '"abc123"' });
    expect(await done).toEqual({ mediaId: 'media-1', url: '/media/media-1' });
    expect(progress).toEqual([45, 100]);
    expect(calls[1]).toEqual({ url: '/api/admin/media/upload/confirm', body: { mediaId: 'media-1', etag: '"abc123"', fileSizeBytes: 1000 }, authorization: 'Bearer admin-token' });
  });

  it('fails with "Upload failed: {status} {text}" when the PUT is refused, without confirming', async () => {
    const calls = fakeApi(() => Response.json({}));
    const done = uploadMedia(photo('front.jpg'), () => {}, new AbortController().signal);
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.answer(403, 'Forbidden');
    await expect(done).rejects.toThrow('Upload failed: 403 Forbidden');
    expect(calls).toHaveLength(1);
  });

  it('fails with the API\'s reason when the confirm refuses the file', async () => {
    fakeApi(() => Response.json({ statusCode: 415, error: 'Unsupported Media Type', message: 'The file\'s content is not an accepted image or video', code: 'CONTENT_NOT_MEDIA' }, { status: 415 }));
    const done = uploadMedia(photo('front.jpg'), () => {}, new AbortController().signal);
    await vi.waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.answer(200, 'OK', { etag: '"abc123"' });
    await expect(done).rejects.toThrow('The file\'s content is not an accepted image or video');
  });
});
