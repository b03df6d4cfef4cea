import { z } from 'zod';
import { logQuerySchema, type LogQueryParams } from '../../../../../api/contracts/audit';
import type { ExportFormat } from '../api';

/**
 * The log browser's state lives in the URL (a link to a filtered view works, Back goes back): the
 * filter as the API takes it, the page size, the page's start (a previous page's `next`), and,
 * after "Show this correlation", the one correlation shown instead of the filter.
 */

const FILTER_FIELDS = ['stream', 'category', 'type', 'from', 'to', 'actor', 'correlationId'] as const;
type FilterField = (typeof FILTER_FIELDS)[number];

/** Each filter as the URL holds it: '' when not set; types separated by commas; from and to in ISO 8601 (UTC). */
export type LogFilterValues = Readonly<Record<FilterField, string>>;

export const NO_FILTER: LogFilterValues = { stream: '', category: '', type: '', from: '', to: '', actor: '', correlationId: '' };

export const PAGE_SIZES = [25, 50, 100, 250, 500, 1000] as const;
/** The API's own default. */
const DEFAULT_PAGE_SIZE = 100;

export interface LogView {
  readonly filter: LogFilterValues;
  readonly limit: number;
  /** Where the page starts: a previous page's `next`; null for the first page. */
  readonly after: string | null;
  /** "Show this correlation": every event of one request or import, across streams, instead of the filter. */
  readonly correlation: string | null;
}

export function readLogView(params: URLSearchParams): LogView {
  const filter = Object.fromEntries(
    // `type` may be repeated (type=A&type=B), as the API takes it.
    FILTER_FIELDS.map((field) => [field, (field === 'type' ? params.getAll(field).join(',') : (params.get(field) ?? '')).trim()]),
  ) as Record<FilterField, string>;
  const limit = Number(params.get('limit'));
  return {
    filter,
    limit: PAGE_SIZES.find((size) => size === limit) ?? DEFAULT_PAGE_SIZE,
    after: params.get('after') || null,
    correlation: params.get('correlation') || null,
  };
}

/** The URL's query for a view: only what is set, the default page size left out. */
export function writeLogView(view: LogView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.correlation) params.set('correlation', view.correlation);
  for (const field of FILTER_FIELDS) if (view.filter[field]) params.set(field, view.filter[field]);
  if (view.limit !== DEFAULT_PAGE_SIZE) params.set('limit', String(view.limit));
  if (view.after) params.set('after', view.after);
  return params;
}

/** The same filter and page size from the first page: what the form and the pager go back to. */
export const firstPage = (view: LogView): LogView => ({ ...view, after: null });

function filterParams(filter: LogFilterValues): URLSearchParams {
  return new URLSearchParams(FILTER_FIELDS.filter((field) => filter[field]).map((field) => [field, filter[field]]));
}

/** The API call for the page shown: the correlation's events, or the filter's. */
export function pagePath(view: LogView): string {
  const params = view.correlation ? new URLSearchParams() : filterParams(view.filter);
  params.set('limit', String(view.limit));
  if (view.after) params.set('after', view.after);
  return view.correlation ? `/api/audit/correlations/${encodeURIComponent(view.correlation)}?${params}` : `/api/audit/events?${params}`;
}

/** The export of everything the view matches (every page of it), as a file. */
export function exportPath(view: LogView, format: ExportFormat): string {
  const filter = view.correlation ? filterParams({ ...NO_FILTER, correlationId: view.correlation }) : filterParams(view.filter);
  filter.set('format', format);
  return `/api/audit/events/export?${filter}`;
}

// ---- the filter form --------------------------------------------------------------------------

/** What the form's fields hold: text, and from/to as a datetime-local input gives them (local time). */
export type FilterFormValues = Record<FilterField | 'limit', string>;

/** "2026-11-25T16:02:00" (local time, as typed) -> "2026-11-25T15:02:00.000Z"; anything unreadable is left for the contract to refuse. */
function localInputToIso(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** An ISO time -> a datetime-local value in the browser's time zone, to the second; '' when unreadable. */
function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

export function toFormValues(view: LogView): FilterFormValues {
  return { ...view.filter, from: isoToLocalInput(view.filter.from), to: isoToLocalInput(view.filter.to), limit: String(view.limit) };
}

const optional = (value: string) => value.trim() || undefined;

/**
 * The form, checked by the contract's own rules (stream or category, not both; from before to; at
 * most 50 types...) once its fields are turned into the query the API takes.
 */
export const filterFormSchema = z
  .object({
    stream: z.string(),
    category: z.string(),
    type: z.string(),
    from: z.string(),
    to: z.string(),
    actor: z.string(),
    correlationId: z.string(),
    limit: z.string(),
  })
  .transform((form): LogQueryParams => ({
    stream: optional(form.stream),
    category: optional(form.category),
    type: optional(form.type),
    from: form.from ? localInputToIso(form.from) : undefined,
    to: form.to ? localInputToIso(form.to) : undefined,
    actor: optional(form.actor),
    correlationId: optional(form.correlationId),
    limit: form.limit,
  }))
  .pipe(logQuerySchema);

/** A checked form as the view it asks for: the filter's first page. */
export function viewOfForm(query: z.output<typeof filterFormSchema>): LogView {
  return {
    filter: {
      stream: query.stream ?? '',
      category: query.category ?? '',
      type: (query.type ?? []).join(','),
      from: query.from ?? '',
      to: query.to ?? '',
      actor: query.actor ?? '',
      correlationId: query.correlationId ?? '',
    },
    limit: query.limit,
    after: null,
    correlation: null,
  };
}

/** The auction whose stream (or rejections stream) this is, for a link to its timeline; null for any other stream. */
export function auctionOfStream(streamId: string): string | null {
  return /^auction(?:_rejections)?-(.+)$/.exec(streamId)?.[1] ?? null;
}

/** What an event's metadata says about who and which request, when it says it. */
export function metadataOf(metadata: unknown): { actorId: string | null; correlationId: string | null } {
  const record = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return { actorId: text(record.actorId), correlationId: text(record.correlationId) };
}
