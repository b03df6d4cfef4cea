import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useEffectEvent, useId, useState } from 'react';
import { useDropzone, type DropzoneState } from 'react-dropzone';
import type { ActorRefFrom } from 'xstate';
import { ACCEPTED_MEDIA, isVideo, MAX_MEDIA_PER_LISTING } from './accepted-media';
import { mediaListMachine, type StoredMedia, type TileEntry } from './media-list-machine';
import { tileStatusText } from './media-tile-machine';
import './media-tiles.css';

export interface MediaTilesProps {
  /** A saved listing's media, in order: shown as completed tiles. Read once, when the component mounts. */
  readonly initial?: readonly StoredMedia[];
  /** Called with the ordered mediaIds of the completed tiles whenever that list changes. */
  onChange(mediaIds: string[]): void;
  /** While true (e.g. while the listing is saved), nothing can be added, moved or removed. */
  readonly disabled?: boolean;
}

type MediaList = ActorRefFrom<typeof mediaListMachine>;

const NO_MEDIA: readonly StoredMedia[] = [];

/**
 * The Add Item form's media: a drop zone, then one tile per file, each uploading on its own, in
 * an order the admin sets by Move left / Move right or by dragging (pointer or keyboard).
 */
export function MediaTiles({ initial = NO_MEDIA, onChange, disabled = false }: MediaTilesProps) {
  const list = useActorRef(mediaListMachine, { input: { initial } });
  const tiles = useSelector(list, (snapshot) => snapshot.context.tiles);
  const refusals = useSelector(list, (snapshot) => snapshot.context.refusals);

  const report = useEffectEvent((mediaIds: readonly string[]) => onChange([...mediaIds]));
  useEffect(() => {
    const subscription = list.on('mediaIds.changed', (event) => report(event.mediaIds));
    return () => subscription.unsubscribe();
  }, [list]);

  const dropzone = useDropzone({
    accept: ACCEPTED_MEDIA,
    disabled,
    // The limit counts the tiles already there, so the list applies it (react-dropzone's maxFiles refuses a whole drop).
    onDrop: (accepted, rejected) => list.send({ type: 'files.dropped', accepted, rejected }),
  });

  return (
    <div className="media-tiles">
      <div
        // Named by all its text ("Add photos or videos", the state, the hint), so the name holds what is seen.
        {...dropzone.getRootProps({ role: 'button', className: dropzoneClass(dropzone, disabled) })}
      >
        <span className="media-dropzone__icon" aria-hidden="true">
          ⇪
        </span>
        <span className="media-dropzone__title">Add photos or videos</span>
        <span className="media-dropzone__state">{dropzoneStateText(dropzone, disabled)}</span>
        <span className="media-dropzone__hint">
          JPEG, PNG, WebP, MP4, MOV or AVI, up to {MAX_MEDIA_PER_LISTING} files ({tiles.length} of {MAX_MEDIA_PER_LISTING} added).
        </span>
      </div>
      {/* Beside the zone, not in it (a button may not hold another control); out of the tree, as the zone opens it. */}
      <input {...dropzone.getInputProps({ 'aria-hidden': true })} />

      {refusals.length > 0 && (
        <div className="media-tiles__refusals" role="alert">
          <p>Not added:</p>
          <ul>
            {refusals.map((refusal, index) => (
              <li key={index}>
                <strong>{refusal.name}</strong>: {refusal.message}
              </li>
            ))}
          </ul>
        </div>
      )}

      {tiles.length > 0 && <TileGrid list={list} tiles={tiles} disabled={disabled} />}
    </div>
  );
}

function dropzoneClass(state: DropzoneState, disabled: boolean): string {
  const modifiers = [
    state.isFocused && 'media-dropzone--focused',
    state.isDragAccept && 'media-dropzone--accept',
    state.isDragReject && 'media-dropzone--reject',
    disabled && 'media-dropzone--disabled',
  ];
  return ['media-dropzone', ...modifiers.filter(Boolean)].join(' ');
}

/** The zone's states (idle, focused, dialog open, dragging accepted or rejected), in words. */
function dropzoneStateText(state: DropzoneState, disabled: boolean): string {
  if (disabled) return 'Media cannot be changed right now.';
  if (state.isDragReject) return 'Some of these files cannot be added.';
  if (state.isDragActive) return 'Drop the files to add them.';
  if (state.isFileDialogActive) return 'Choose the files in the dialog.';
  if (state.isFocused) return 'Press Enter or Space to choose files.';
  return 'Drag and drop files here, or click to choose them.';
}

const SCREEN_READER_INSTRUCTIONS: ScreenReaderInstructions = {
  draggable: 'To reorder, press Space or Enter to pick up the file, the arrow keys to move it, Space or Enter to drop it, or Escape to cancel.',
};

function TileGrid({ list, tiles, disabled }: { list: MediaList; tiles: readonly TileEntry[]; disabled: boolean }) {
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // Called by dnd-kit during a drag, never while rendering: reading the tiles' snapshots there is safe.
  const nameOf = (id: UniqueIdentifier) => tiles.find((tile) => tile.id === id)?.ref.getSnapshot().context.name ?? 'The file';
  const place = (id: UniqueIdentifier) => `position ${tiles.findIndex((tile) => tile.id === id) + 1} of ${tiles.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at ${place(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} is over ${place(over.id)}.` : `${nameOf(active.id)} is not over a place.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} was dropped at ${place(over.id)}.` : `${nameOf(active.id)} was dropped where it was.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled; it is back at ${place(active.id)}.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) list.send({ type: 'reorder', id: String(active.id), overId: String(over.id) });
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: SCREEN_READER_INSTRUCTIONS }}>
      <SortableContext items={tiles.map((tile) => tile.id)} strategy={rectSortingStrategy} disabled={disabled}>
        <ol className="media-tiles__grid" aria-label="Media files, in display order">
          {tiles.map((tile, index) => (
            <MediaTile key={tile.id} list={list} tile={tile} first={index === 0} last={index === tiles.length - 1} disabled={disabled} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

interface MediaTileProps {
  readonly list: MediaList;
  readonly tile: TileEntry;
  readonly first: boolean;
  readonly last: boolean;
  readonly disabled: boolean;
}

function MediaTile({ list, tile, first, last, disabled }: MediaTileProps) {
  const snapshot = useSelector(tile.ref, (current) => current);
  const { name, file, url, contentType, progress, failure } = snapshot.context;
  const status = tileStatusText(snapshot);
  const uploading = snapshot.matches('uploading');
  const failed = snapshot.matches('error');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: tile.id, disabled });
  const ids = useId();

  const className = ['media-tile', failed && 'media-tile--failed', isDragging && 'media-tile--dragging'].filter(Boolean).join(' ');
  return (
    <li ref={setNodeRef} className={className} style={{ transform: CSS.Translate.toString(transform), transition }} aria-labelledby={`${ids}-name ${ids}-status`}>
      <div className="media-tile__preview">
        <Preview file={file} url={url} contentType={contentType} />
        {isVideo(contentType) && (
          <span className="media-tile__badge" aria-hidden="true">
            ▶ Video
          </span>
        )}
      </div>
      <div className="media-tile__body">
        <p id={`${ids}-name`} className="media-tile__name" title={name}>
          {name}
        </p>
        <p id={`${ids}-status`} className="media-tile__status">
          {status}
        </p>
        {uploading && <progress className="media-tile__progress" max={100} value={progress} aria-label={`Upload of ${name}`} />}
        {failed && failure !== null && failure !== status && <p className="media-tile__failure">{failure}</p>}
        <div className="media-tile__actions">
          <button
            ref={setActivatorNodeRef}
            type="button"
            className="media-tile__icon-button media-tile__handle"
            {...attributes}
            {...listeners}
            aria-label={`Reorder ${name}`}
            disabled={disabled}
          >
            <span aria-hidden="true">⠿</span>
          </button>
          <button
            type="button"
            className="media-tile__icon-button"
            aria-label={`Move left ${name}`}
            disabled={disabled || first}
            onClick={() => list.send({ type: 'move', id: tile.id, offset: -1 })}
          >
            <span aria-hidden="true">←</span>
          </button>
          <button
            type="button"
            className="media-tile__icon-button"
            aria-label={`Move right ${name}`}
            disabled={disabled || last}
            onClick={() => list.send({ type: 'move', id: tile.id, offset: 1 })}
          >
            <span aria-hidden="true">→</span>
          </button>
        </div>
        <div className="media-tile__actions">
          {failed && (
            <button type="button" className="button media-tile__button" aria-label={`Retry ${name}`} disabled={disabled} onClick={() => list.send({ type: 'retry', id: tile.id })}>
              Retry
            </button>
          )}
          <button type="button" className="button media-tile__button" aria-label={`Remove ${name}`} disabled={disabled} onClick={() => list.send({ type: 'remove', id: tile.id })}>
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}

/**
 * A chosen file is previewed from memory: its object URL lives as long as the element showing it
 * (React runs the ref's cleanup when the tile is removed or the form unmounts). Saved media show
 * from their public URL.
 */
function Preview({ file, url, contentType }: { file: File | null; url: string | null; contentType: string | null }) {
  const showFile = useCallback(
    (element: HTMLImageElement | HTMLVideoElement | null) => {
      if (element === null || file === null) return;
      const objectUrl = URL.createObjectURL(file);
      element.src = objectUrl;
      return () => URL.revokeObjectURL(objectUrl);
    },
    [file],
  );
  // A picture the browser cannot show leaves the tile's grey box rather than a broken-image icon;
  // saved media of an unknown type are tried as a picture first, then as a video.
  const [notAnImage, setNotAnImage] = useState(false);
  const source = file === null ? { src: url ?? undefined } : { ref: showFile };
  // The tile names the file beside it: the preview is decoration.
  if (isVideo(contentType) || (contentType === null && notAnImage)) {
    return <video {...source} className="media-tile__media" muted playsInline preload="metadata" aria-hidden="true" />;
  }
  if (notAnImage) return null;
  return <img {...source} className="media-tile__media" alt="" onError={() => setNotAnImage(true)} />;
}
