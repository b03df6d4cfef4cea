import { z } from 'zod';
import { auctionStatusSchema, dollarsSchema } from './auctions';

/**
 * The audit side: the event log read back for auditors and admins (/api/audit/...). A position in
 * the log is the text "commit/prepare" (two integers): pass an answer's `next` back as `after`.
 */

export const logPositionSchema = z
  .string()
  .regex(/^\d{1,20}\/\d{1,20}$/, 'after must be a log position such as "1234/5678" (the next of a previous page)')
  .describe('A place in the log, "commit/prepare"; opaque: pass a page\'s `next` back as `after`');

/** `type=A&type=B` or `type=A,B`: one or more event types. */
const typesSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(',')).map((item) => item.trim()).filter(Boolean))
  .pipe(z.array(z.string().min(1).max(200)).max(50, 'At most 50 event types'));

const instantSchema = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time such as 2026-11-25T16:00:00Z' });

/** The filters that combine (AND) on every audit read of the log. */
export const logFilterSchema = z
  .strictObject({
    stream: z.string().min(1).max(500).optional().describe('One stream, exactly, e.g. auction-3f2c...'),
    category: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^-]+$/, 'category is the part of a stream id before the first "-", e.g. auction')
      .optional()
      .describe('Streams named "{category}-...", e.g. auction, listing, nfc_tag, auction_rejections'),
    type: typesSchema.optional().describe('One or more event types: repeat the parameter or separate with commas'),
    from: instantSchema.optional().describe('Recorded at or after this time'),
    to: instantSchema.optional().describe('Recorded before this time'),
    actor: z.string().min(1).max(200).optional().describe("The acting user's id (metadata.actorId)"),
    correlationId: z.string().min(1).max(200).optional().describe('Every event of one request or import'),
  })
  .refine((filter) => filter.stream === undefined || filter.category === undefined, {
    message: 'Give stream or category, not both',
    path: ['category'],
  })
  .refine((filter) => filter.from === undefined || filter.to === undefined || Date.parse(filter.from) < Date.parse(filter.to), {
    message: 'from must be before to',
    path: ['to'],
  });
export type LogFilter = z.infer<typeof logFilterSchema>;

const pagingShape = {
  after: logPositionSchema.optional().describe('Exclusive: events after this position (a previous page\'s next)'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('At most 1000; 100 when absent'),
};

/** GET /api/audit/events */
export const logQuerySchema = logFilterSchema.safeExtend(pagingShape);
export type LogQueryParams = z.input<typeof logQuerySchema>;

/** GET /api/audit/events/export */
export const logExportQuerySchema = logFilterSchema.safeExtend({
  format: z.enum(['ndjson', 'csv']).default('ndjson'),
  after: pagingShape.after,
});

/** GET /api/audit/correlations/{correlationId}: the same paging, the correlation fixed by the path. */
export const correlationQuerySchema = z.strictObject({ ...pagingShape, limit: pagingShape.limit.default(1000) });

export const auditEventSchema = z.object({
  position: logPositionSchema,
  streamId: z.string(),
  revision: z.number().int().describe("The event's place in its stream, from 0"),
  type: z.string(),
  data: z.unknown(),
  metadata: z.unknown().describe('actorId, actorRoles, occurredAt, correlationId, commandId'),
  recordedAt: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditEventPageSchema = z.object({
  events: z.array(auditEventSchema),
  next: logPositionSchema.nullable().describe('Pass as after for the next page; null at the end of the log'),
});
export type AuditEventPage = z.infer<typeof auditEventPageSchema>;

/** The columns of the CSV export, in order; data and metadata are JSON text. */
export const AUDIT_CSV_COLUMNS = ['position', 'streamId', 'revision', 'type', 'recordedAt', 'actorId', 'correlationId', 'data', 'metadata'] as const;

// ---- An auction's timeline ------------------------------------------------------------------

/** GET /api/audit/auctions/{auctionId}/timeline?asOf= */
export const timelineQuerySchema = z.strictObject({
  asOf: z
    .union([z.coerce.number().int().min(0), instantSchema])
    .optional()
    .describe("The auction as it stood at this revision of its stream (0 is its scheduling) or at this time"),
});

const rulesSchema = z.object({
  currency: z.literal('USD'),
  startingPrice: dollarsSchema,
  incrementTable: z
    .array(z.object({ from: dollarsSchema, to: dollarsSchema.nullable().describe('Up to (inclusive); null for the last band'), increment: dollarsSchema }))
    .describe('Dollars'),
  softClose: z.object({ windowSeconds: z.number(), latestEndsAt: z.string() }).nullable(),
  reservePrice: dollarsSchema.nullable(),
  buyNowPrice: dollarsSchema.nullable(),
  startsAt: z.string(),
  scheduledEndsAt: z.string(),
});

/** The auction after a step, as anyone could see it then (never a secret maximum). */
export const timelineSummarySchema = z.object({
  status: auctionStatusSchema,
  price: dollarsSchema,
  leaderId: z.string().nullable(),
  minimumNextBid: dollarsSchema,
  endsAt: z.string(),
  reserveMet: z.boolean().nullable(),
  buyNowAvailable: z.boolean(),
  bidCount: z.number().int(),
});
export type TimelineSummary = z.infer<typeof timelineSummarySchema>;

// ---- Verifiable history ---------------------------------------------------------------------

export const linkMarkSchema = z
  .enum(['VERIFIED', 'BROKEN', 'UNVERIFIED'])
  .describe('VERIFIED: its hash covers its contents and it follows the event before it; BROKEN: the first that does not; UNVERIFIED: after a break');
export type LinkMark = z.infer<typeof linkMarkSchema>;

/** GET /api/audit/streams/{streamId}/verify, and each stream of a timeline. */
export const streamVerificationSchema = z.object({
  streamId: z.string(),
  valid: z.boolean(),
  events: z.number().int().describe('Events read'),
  firstInvalidRevision: z.number().int().nullable().describe('The first revision that fails (or where a missing event should be); null when valid'),
  problem: z.string().nullable().describe('Why it fails, in words'),
});
export type StreamVerification = z.infer<typeof streamVerificationSchema>;

export const timelineStepSchema = z.object({
  step: z.number().int().describe('From 0, in log order'),
  kind: z.enum(['EVENT', 'REFUSED']).describe("EVENT: a fact of the auction's stream; REFUSED: an attempt the engine turned down"),
  type: z.string().describe('The event type (BidRejected for a refused attempt)'),
  position: logPositionSchema,
  revision: z.number().int().nullable().describe("The event's revision in the auction's stream; null for a refused attempt"),
  at: z.string().describe('When it was decided'),
  actorId: z.string(),
  correlationId: z.string(),
  tried: z
    .object({ attempt: z.enum(['BID', 'BUY_NOW']), bidId: z.string(), bidderId: z.string(), amount: dollarsSchema.nullable(), maximum: dollarsSchema.nullable() })
    .nullable()
    .describe('The bid or buy-now tried; maximum is null while the auction runs (it was private)'),
  outcome: z.enum(['SCHEDULED', 'OPENED', 'ACCEPTED', 'MAXIMUM_RAISED', 'EXTENDED', 'RETRACTED', 'CLOSED', 'CANCELLED', 'REFUSED']),
  explanation: z.array(z.string()).describe("Plain words, produced by the engine's own rules"),
  summary: timelineSummarySchema,
  hash: z.string().nullable().describe("The event's SHA-256 in its stream's hash chain"),
  integrity: linkMarkSchema,
});
export type TimelineStep = z.infer<typeof timelineStepSchema>;

export const auctionTimelineSchema = z.object({
  auctionId: z.string(),
  listingId: z.string(),
  rules: rulesSchema.describe('As recorded when the auction was scheduled'),
  maximaRevealed: z.boolean().describe('Bidders\' maxima are shown once the auction has closed or was cancelled, never while it runs'),
  steps: z.array(timelineStepSchema),
  /** The auction after the last step shown (at asOf when given). */
  summary: timelineSummarySchema,
  asOf: z.union([z.number(), z.string()]).nullable(),
  integrity: z.array(streamVerificationSchema).describe("The auction's stream and its rejections stream, each checked link by link"),
});
export type AuctionTimeline = z.infer<typeof auctionTimelineSchema>;

// ---- Who read the log -----------------------------------------------------------------------

/** GET /api/audit/reads: newest first. */
export const auditReadsQuerySchema = z.strictObject({
  user: z.string().min(1).max(200).optional().describe("Only this reader's reads"),
  before: z.coerce.number().int().positive().optional().describe("Exclusive: reads older than this id (a previous page's next)"),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const auditReadSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  route: z.string().describe('The route read, e.g. GET /api/audit/events'),
  params: z.record(z.string(), z.unknown()),
  query: z.record(z.string(), z.unknown()).describe('The query string as sent'),
  at: z.string(),
});
export type AuditRead = z.infer<typeof auditReadSchema>;

export const auditReadPageSchema = z.object({
  reads: z.array(auditReadSchema),
  next: z.number().int().nullable().describe('Pass as before for the next (older) page; null at the oldest'),
});
export type AuditReadPage = z.infer<typeof auditReadPageSchema>;
