import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditEventPageSchema,
  auditReadPageSchema,
  auditReadsQuerySchema,
  auctionTimelineSchema,
  correlationQuerySchema,
  logExportQuerySchema,
  logQuerySchema,
  streamVerificationSchema,
  timelineQuerySchema,
} from '../contracts/audit';
import { errorResponses } from '../contracts/common';
import type { AppDependencies } from '../dependencies';
import { exportCsv, exportFilename, exportNdjson, queryLogPage, toLogQuery } from './log';
import { listAuditReads, recordAuditRead } from './reads';
import { presentVerdict, readAuctionTimeline } from './timeline';
import { auditBundle } from '../integrity/bundle';
import { verifyStream } from '../integrity/stream-verification';
import { HttpError } from '../http/errors';

const CONTENT_TYPES = { ndjson: 'application/x-ndjson; charset=utf-8', csv: 'text/csv; charset=utf-8' } as const;

/**
 * /api/audit/...: the event log read back, for ADMIN and AUDITOR (anonymous 401, others 403).
 * Every read is recorded (who, route, parameters, when) before it is answered.
 */
export const auditRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  await app.register(async (scope) => {
    const audit = scope.withTypeProvider<ZodTypeProvider>();
    audit.addHook('onRequest', audit.requireRole('ADMIN', 'AUDITOR'));
    audit.addHook('preHandler', async (request) => {
      await recordAuditRead(
        deps.db,
        {
          userId: request.actor!.userId,
          route: `${request.method} ${request.routeOptions.url ?? request.url}`,
          params: (request.params ?? {}) as Record<string, unknown>,
          query: (request.query ?? {}) as Record<string, unknown>,
        },
        deps.clock(),
      );
    });

    audit.get(
      '/api/audit/events',
      {
        schema: {
          tags: ['audit'],
          summary: 'Query the event log',
          description:
            'Filters combine: stream or category, type (one or more), from/to (recorded time), actor, correlationId. ' +
            'Events in log order; pass next as after for the next page (null at the end). A page may be short and still have a next.',
          security: [{ bearer: [] }],
          querystring: logQuerySchema,
          response: { 200: auditEventPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { after, limit, ...filter } = request.query;
        return queryLogPage(deps.eventStore, toLogQuery(filter, { after, limit }));
      },
    );

    audit.get(
      '/api/audit/events/export',
      {
        schema: {
          tags: ['audit'],
          summary: 'Export the events a filter matches, streamed, as NDJSON or CSV',
          description:
            'The same filters as /api/audit/events; the whole match, read a page at a time. CSV is RFC 4180 with columns ' +
            'position, streamId, revision, type, recordedAt, actorId, correlationId, data, metadata (JSON text); a cell starting ' +
            "with = + - @ tab or CR is prefixed with ' so that no spreadsheet runs it as a formula.",
          security: [{ bearer: [] }],
          querystring: logExportQuerySchema,
        },
      },
      async (request, reply) => {
        const { format, after, ...filter } = request.query;
        const query = toLogQuery(filter, { after, limit: 1 });
        const body = format === 'csv' ? exportCsv(deps.eventStore, query) : exportNdjson(deps.eventStore, query);
        return reply
          .type(CONTENT_TYPES[format])
          .header('content-disposition', `attachment; filename="${exportFilename(filter, format, deps.clock())}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );

    audit.get(
      '/api/audit/correlations/:correlationId',
      {
        schema: {
          tags: ['audit'],
          summary: 'Every event of one request or import, across streams',
          description: 'A bulk import, a publication, a bid with its automatic answers: in log order, paged as /api/audit/events (1000 a page unless limit says).',
          security: [{ bearer: [] }],
          params: z.object({ correlationId: z.string().min(1).max(200) }),
          querystring: correlationQuerySchema,
          response: { 200: auditEventPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const { after, limit } = request.query;
        return queryLogPage(deps.eventStore, toLogQuery({ correlationId: request.params.correlationId }, { after, limit }));
      },
    );

    audit.get(
      '/api/audit/auctions/:auctionId/timeline',
      {
        schema: {
          tags: ['audit'],
          summary: "Replay an auction: every step in log order, the summary after it and why, in the engine's words",
          description:
            "The events of the auction's stream and the refused attempts of its rejections stream, interleaved. " +
            'asOf (a revision of the auction\'s stream, or a time) stops at that point. Bidders\' maxima are shown once the auction ' +
            'has closed or was cancelled, never while it runs. 404 for an unknown auction; 400 for an asOf it never reached.',
          security: [{ bearer: [] }],
          params: z.object({ auctionId: z.uuid() }),
          querystring: timelineQuerySchema,
          response: { 200: auctionTimelineSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => readAuctionTimeline(deps.eventStore, request.params.auctionId, request.query.asOf),
    );

    audit.get(
      '/api/audit/auctions/:auctionId/bundle',
      {
        schema: {
          tags: ['audit'],
          summary: "An auction's audit bundle: its events and refused attempts with their hashes, the signed checkpoints and the keys, in one signed JSON file",
          description:
            'Check it offline, with nothing but this repository: `npm run audit:verify -- bundle.json` recomputes every hash and link, checks ' +
            'every signature, decides the auction again with the engine and names the winner and the price (add `--receipt receipt.json` to ' +
            'check a bidder\'s receipt). The file is its own RFC 8785 (JCS) bytes: keep them as they are. 404 for an unknown auction.',
          security: [{ bearer: [] }],
          params: z.object({ auctionId: z.uuid() }),
        },
      },
      async (request, reply) => {
        const bundle = await auditBundle(deps, request.params.auctionId);
        if (bundle === null) throw new HttpError(404, 'Auction not found', 'AUCTION_NOT_FOUND');
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="auction-${request.params.auctionId}-bundle.json"`)
          .header('cache-control', 'no-store')
          .send(bundle);
      },
    );

    audit.get(
      '/api/audit/streams/:streamId/verify',
      {
        schema: {
          tags: ['audit'],
          summary: "Check a stream's hash chain: every event's hash recomputed from its contents, every link to the one before",
          description:
            "Events are hashed over their RFC 8785 (JCS) bytes (stream, revision, id, type, data, metadata and the previous event's hash) " +
            'when they are appended. valid is false, with the first revision that fails and why, when an event was changed, removed or ' +
            "moved since; for an auction's streams, also when they differ from the last checkpoint signed over them (events removed " +
            'from the end show only there). 404 for a stream without events.',
          security: [{ bearer: [] }],
          params: z.object({ streamId: z.string().min(1).max(300) }),
          response: { 200: streamVerificationSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) => {
        const verdict = await verifyStream(deps, request.params.streamId);
        if (verdict === null) throw new HttpError(404, 'No events in this stream', 'STREAM_NOT_FOUND');
        return presentVerdict(verdict);
      },
    );

    audit.get(
      '/api/audit/reads',
      {
        schema: {
          tags: ['audit'],
          summary: 'Who read the audit routes, with what query, when (newest first)',
          description: 'Reading this list is itself recorded.',
          security: [{ bearer: [] }],
          querystring: auditReadsQuerySchema,
          response: { 200: auditReadPageSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) => listAuditReads(deps.db, request.query),
    );
  });
};
