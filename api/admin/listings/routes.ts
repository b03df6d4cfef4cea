import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { handleListingPublication } from '../../../engine/application/listing-publication';
import {
  auctionStreamId,
  listingCategorySchema,
  listingDecider,
  listingStreamId,
  listingTagSchema,
  MAX_MEDIA_PER_LISTING,
  sportTypeSchema,
  type Actor,
  type CommandMetadata,
  type ListingCommand,
  type ListingDetails,
} from '../../../engine/domain';
import { errorSchema as errorResponse } from '../../contracts/common';
import type { Database } from '../../database';
import type { AppDependencies } from '../../dependencies';
import { HttpError } from '../../http/errors';
import { centsOf, toCents } from '../../http/money';
import { listingSearchQuery, pageSchema, toPage } from '../../listings/paging';
import { auctionSchema as auctionAnswerSchema } from '../../contracts/auctions';
import { listingSchema as listingAnswerSchema } from '../../contracts/listings';
import { presentAuction, presentListing } from '../../listings/presenters';
import { findAuction, searchListings, type ListingRow } from '../../listings/queries';
import { readModelsCaughtUpWith } from '../../read-after-write';
import { createListing } from './create-listing';
import { jerseyFormSchema, jerseyListingDetails, jerseySlugParts, validateJerseyForm } from './jersey-form';
import { requireCompletedMedia } from './media-ids';
import { publicationBody, scheduleFrom } from './publication-rules';

const LISTING_STATUSES = ['DRAFT', 'SAVED', 'NFC_BOUND', 'LIVE', 'SOLD', 'UNSOLD', 'WITHDRAWN'] as const;

/** What the admin sees of a listing: the public shape, every status, and the media ids to arrange. */
const adminListingAnswer = listingAnswerSchema.extend({
  mediaIds: z.array(z.string()).describe('In display order; POST /api/admin/listings/{id}/media rearranges them'),
});
const adminListingDetailAnswer = adminListingAnswer.extend({
  auction: auctionAnswerSchema.nullable().describe('The auction it was published with; null before publishing'),
});
const publishedAnswer = z.object({
  message: z.string(),
  listing: adminListingAnswer,
  auction: auctionAnswerSchema,
});

const listingParams = z.object({ id: z.uuid() });
const reason = z.string().max(2000);
const mediaIds = z.array(z.string().min(1).max(200)).max(MAX_MEDIA_PER_LISTING, `A listing can have at most ${MAX_MEDIA_PER_LISTING} media files`);
const text = (max: number) => z.string().trim().max(max);

/** The general listing fields (spec section 3), prices in dollars. */
const listingFields = z.strictObject({
  title: text(200).min(1, 'Title is required'),
  description: text(10_000).default(''),
  category: listingCategorySchema,
  condition: text(50).min(1, 'Condition is required'),
  sportType: sportTypeSchema,
  price: z.number().min(0).max(100_000_000).describe("Dollars: the asking price, and the auction's starting price unless publishing says otherwise"),
  playerName: text(200).nullable().default(null),
  teamOrClub: text(200).nullable().default(null),
  leagueOrEvent: text(200).nullable().default(null),
  dateOrSeason: text(100).nullable().default(null),
  size: text(20).nullable().default(null),
  tags: z.array(listingTagSchema).max(20).default([]),
});
const createListingBody = listingFields.extend({
  mediaIds: mediaIds.default([]),
  save: z.boolean().default(true).describe('Save at once (needs at least one uploaded media file); false keeps a draft'),
  nfcUid: z.string().max(64).optional().describe('Bind this provisioned tag in the same step (needs save)'),
});
const jerseyBody = jerseyFormSchema.extend({
  save: z.boolean().default(true).describe('Save at once (needs at least one uploaded media file); false keeps a draft'),
});

const statusBody = z.strictObject({
  status: z.enum(LISTING_STATUSES),
  reason: reason.optional().describe('Required to withdraw'),
});

/** Admin listings (spec section 7, "Admin listings on the main host" and the admin host's jerseys). */
export const adminListingRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const metadataFor = (actor: Actor, correlationId: string): CommandMetadata => ({
    actor,
    now: deps.clock().toISOString(),
    correlationId,
    commandId: randomUUID(),
  });
  /** One listing command, then the listing as the read models show it afterwards. */
  const decideListing = async (command: ListingCommand) => {
    await deps.commands.handle(listingDecider, listingStreamId(command.data.listingId), command);
    await readModelsCaughtUpWith(deps, listingStreamId(command.data.listingId));
    return presentAdminListing(await requireListing(deps.db, command.data.listingId), deps.mediaStorage);
  };
  const publish = async (listingId: string, body: z.infer<typeof publicationBody>, actor: Actor, correlationId: string) => {
    const listing = await requireListing(deps.db, listingId);
    const auctionId = randomUUID();
    const schedule = scheduleFrom(body, centsOf(listing.asking_price), deps.clock());
    await handleListingPublication(deps.commands, {
      type: 'PublishListingAtAuction',
      data: { listingId, auctionId, ...schedule },
      metadata: metadataFor(actor, correlationId),
    });
    await readModelsCaughtUpWith(deps, listingStreamId(listingId), auctionStreamId(auctionId));
    const auction = await findAuction(deps.db, auctionId);
    return {
      message: 'Listing published successfully and is now LIVE!',
      listing: presentAdminListing(await requireListing(deps.db, listingId), deps.mediaStorage),
      auction: presentAuction(auction!, deps.clock()),
    };
  };

  app.get(
    '/api/admin/listings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every listing, any status: paged, searched, filtered, sorted',
        security: [{ bearer: [] }],
        querystring: listingSearchQuery.extend({ status: z.enum(LISTING_STATUSES).optional().describe('Default: every status') }),
        response: { 200: pageSchema(adminListingAnswer), 400: errorResponse, 401: errorResponse, 403: errorResponse },
      },
    },
    async (request) => {
      const { page, size, search, category, tag, status, sort } = request.query;
      const { rows, total } = await searchListings(deps.db, { page, size, status: status ?? null, search: search || undefined, category, tags: tag, sort });
      return toPage(rows.map((row) => presentAdminListing(row, deps.mediaStorage)), total, page, size);
    },
  );

  app.post(
    '/api/admin/listings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create a listing (saved at once unless save is false)',
        description: 'Saving needs at least one uploaded media file: "At least one media file is required."',
        security: [{ bearer: [] }],
        body: createListingBody,
        response: { 201: adminListingAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const { mediaIds: media, save, nfcUid, ...fields } = request.body;
      const details: ListingDetails = { ...fields, price: toCents(fields.price, 'price'), jersey: null };
      const { listingId } = await createListing(deps, request.actor!, { details, mediaIds: media, slugParts: [fields.title], save, nfcUid }, request.id);
      return reply.code(201).send(presentAdminListing(await requireListing(deps.db, listingId), deps.mediaStorage));
    },
  );

  app.post(
    '/api/admin/jerseys',
    {
      schema: {
        tags: ['admin'],
        summary: "Create a listing from the jersey form (spec section 3)",
        description:
          'playerName, jerseyNumber, team, size and condition are required; team is patriots, buccaneers or chiefs; size xs, s, m, l, xl or xxl; ' +
          'condition new, like-new, good or fair. Every problem is listed in `errors`, each naming its field. Saved at once unless save is false.',
        security: [{ bearer: [] }],
        body: jerseyBody,
        response: { 201: adminListingAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
      // The form's own rules answer, all at once, rather than the first schema error.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (request, reply) => {
      const { save, ...input } = (request.body ?? {}) as Record<string, unknown>;
      if (save !== undefined && typeof save !== 'boolean') throw new HttpError(400, 'save: must be true or false', 'VALIDATION_FAILED');
      const checked = validateJerseyForm(input);
      if (checked.errors) throw new HttpError(400, checked.errors.map((error) => error.message).join('; '), 'VALIDATION_FAILED', checked.errors);
      const { form } = checked;
      const { listingId } = await createListing(
        deps,
        request.actor!,
        { details: jerseyListingDetails(form), mediaIds: form.mediaIds, slugParts: jerseySlugParts(form), save: save ?? true, nfcUid: form.nfcUid },
        request.id,
      );
      return reply.code(201).send(presentAdminListing(await requireListing(deps.db, listingId), deps.mediaStorage));
    },
  );

  app.get(
    '/api/admin/listings/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'One listing, any status, with its auction; 404 "Listing not found"',
        security: [{ bearer: [] }],
        params: listingParams,
        response: { 200: adminListingDetailAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const listing = await requireListing(deps.db, request.params.id);
      const auction = listing.auction_id === null ? undefined : await findAuction(deps.db, listing.auction_id);
      return { ...presentAdminListing(listing, deps.mediaStorage), auction: auction ? presentAuction(auction, deps.clock()) : null };
    },
  );

  app.put(
    '/api/admin/listings/:id',
    {
      schema: {
        tags: ['admin'],
        summary: "Revise a listing's details (until it is published)",
        security: [{ bearer: [] }],
        params: listingParams,
        body: listingFields,
        response: { 200: adminListingAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const listingId = request.params.id;
      const current = await requireListing(deps.db, listingId);
      const details: ListingDetails = { ...request.body, price: toCents(request.body.price, 'price'), jersey: current.jersey as ListingDetails['jersey'] };
      return decideListing({ type: 'ReviseListingDetails', data: { listingId, details }, metadata: metadataFor(request.actor!, request.id) });
    },
  );

  app.post(
    '/api/admin/listings/:id/media',
    {
      schema: {
        tags: ['admin'],
        summary: "Set the listing's media, in display order (at most 8)",
        description: 'Every id must be an uploaded, checked media file. A saved listing keeps at least one: "At least one media file is required."',
        security: [{ bearer: [] }],
        params: listingParams,
        body: z.strictObject({ mediaIds }),
        response: { 200: adminListingAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await requireCompletedMedia(deps.db, request.body.mediaIds);
      const listingId = request.params.id;
      return decideListing({ type: 'ArrangeListingMedia', data: { listingId, mediaIds: request.body.mediaIds }, metadata: metadataFor(request.actor!, request.id) });
    },
  );

  app.put(
    '/api/admin/listings/:id/status',
    {
      schema: {
        tags: ['admin'],
        summary: "Move a listing along its life: SAVED, LIVE (publish with the default rules) or WITHDRAWN",
        description:
          'DRAFT -> SAVED -> NFC_BOUND (by binding a tag) -> LIVE -> SOLD | UNSOLD (by the auction); WITHDRAWN before the end, with a reason ' +
          '(a live listing takes its auction with it). Other changes answer 409 saying why.',
        security: [{ bearer: [] }],
        params: listingParams,
        body: statusBody,
        response: { 200: adminListingAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const listingId = request.params.id;
      const { status } = request.body;
      const metadata = metadataFor(request.actor!, request.id);
      const current = await requireListing(deps.db, listingId);
      switch (status) {
        case 'SAVED':
          if (current.status !== 'DRAFT' && current.status !== 'SAVED') throw notThisWay(current.status, status, 'only a draft can be saved');
          return decideListing({ type: 'SaveListing', data: { listingId }, metadata });
        case 'LIVE':
          return (await publish(listingId, undefined, request.actor!, request.id)).listing;
        case 'WITHDRAWN': {
          const outcome = await handleListingPublication(deps.commands, {
            type: 'WithdrawListingFromSale',
            data: { listingId, reason: request.body.reason ?? '' },
            metadata,
          });
          await readModelsCaughtUpWith(deps, listingStreamId(listingId), ...(outcome.auctionId ? [auctionStreamId(outcome.auctionId)] : []));
          return presentAdminListing(await requireListing(deps.db, listingId), deps.mediaStorage);
        }
        case 'DRAFT':
          throw notThisWay(current.status, status, 'a listing never goes back to draft');
        case 'NFC_BOUND':
          throw notThisWay(current.status, status, 'a listing becomes NFC_BOUND by binding a tag (POST /api/admin/listings/{id}/bind)');
        case 'SOLD':
        case 'UNSOLD':
          throw notThisWay(current.status, status, "only the close of the listing's auction decides SOLD or UNSOLD");
      }
    },
  );

  app.post(
    '/api/admin/listings/:id/publish',
    {
      schema: {
        tags: ['admin'],
        summary: 'Publish to LIVE: schedules the auction with its rule set',
        description:
          'Needs a saved listing ("Listing must be created before publishing") with a bound tag ("NFC tag must be bound before publishing"). ' +
          'The listing and its auction are written in one atomic append. Defaults: starting price = asking price, opens now, 7 days, ' +
          'every bid adds at least $1, a 3-minute soft close capped at 24 h, no reserve, no buy-now.',
        security: [{ bearer: [] }],
        params: listingParams,
        body: publicationBody,
        response: { 200: publishedAnswer, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => publish(request.params.id, request.body, request.actor!, request.id),
  );
};

function presentAdminListing(row: ListingRow, media: AppDependencies['mediaStorage']) {
  return { ...presentListing(row, media), mediaIds: row.media_ids };
}

async function requireListing(db: Kysely<Database>, listingId: string): Promise<ListingRow> {
  const listing = await db.selectFrom('listings').selectAll().where('id', '=', listingId).executeTakeFirst();
  if (!listing) throw new HttpError(404, 'Listing not found', 'LISTING_NOT_FOUND');
  return listing;
}

function notThisWay(from: string, to: string, why: string): HttpError {
  return new HttpError(409, `A ${from} listing cannot be set to ${to}: ${why}`, 'STATUS_CHANGE_NOT_ALLOWED');
}
