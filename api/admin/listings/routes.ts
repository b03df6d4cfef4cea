import { randomUUID } from 'node:crypto';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { handleListingCommand, handleListingCommands } from '../../../engine/application/listing-commands';
import { handleListingPublication } from '../../../engine/application/listing-publication';
import {
  auctionStreamId,
  commandMetadata,
  listingStatusSchema,
  listingStreamId,
  type Actor,
  type ListingCommand,
  type ListingDetails,
} from '../../../engine/domain';
import { jerseyFormSchema, jerseyRequestSchema } from '../../contracts/admin/jersey-form';
import {
  adminListingDetailSchema,
  adminListingSchema,
  arrangeMediaRequestSchema,
  createListingRequestSchema,
  listingFormSchema,
  listingStatusChangeRequestSchema,
  publicationRequestSchema,
  publishedListingSchema,
  type PublicationRequest,
} from '../../contracts/admin/listings';
import { errorResponses, pageSchema } from '../../contracts/common';
import type { Database } from '../../database';
import type { AppDependencies } from '../../dependencies';
import { HttpError } from '../../http/errors';
import { centsOf, toCents } from '../../http/money';
import { listingSearchQuery, toPage } from '../../listings/paging';
import { presentAuction, presentListing } from '../../listings/presenters';
import { findAuction, searchListings, type ListingRow } from '../../listings/queries';
import { readModelsCaughtUpWith } from '../../read-after-write';
import { createListing } from './create-listing';
import { jerseyListingDetails, jerseySlugParts, validateJerseyForm } from './jersey-form';
import { requireCompletedMedia } from './media-ids';
import { scheduleFrom } from './publication-rules';

const listingParams = z.object({ id: z.uuid() });

/** Admin listings: list, create (also from the jersey form), read, edit, attach media, change status, publish. */
export const adminListingRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const metadataFor = (actor: Actor, correlationId: string) => commandMetadata(actor, deps.clock(), { correlationId, commandId: randomUUID() });
  /** One listing command, then the listing as the read models show it afterwards. */
  const decideListing = async (command: ListingCommand) => {
    await handleListingCommand(deps.commands, command);
    await readModelsCaughtUpWith(deps, listingStreamId(command.data.listingId));
    return presentAdminListing(await requireListing(deps.db, command.data.listingId), deps.mediaStorage);
  };
  const publish = async (listingId: string, body: PublicationRequest, actor: Actor, correlationId: string) => {
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
        querystring: listingSearchQuery.extend({ status: listingStatusSchema.optional().describe('Default: every status') }),
        response: { 200: pageSchema(adminListingSchema), ...errorResponses(400, 401, 403) },
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
        body: createListingRequestSchema,
        response: { 201: adminListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
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
        summary: "Create a listing from the jersey form",
        description:
          'playerName, jerseyNumber, team, size and condition are required; team is patriots, buccaneers or chiefs; size xs, s, m, l, xl or xxl; ' +
          'condition new, like-new, good or fair. Every problem is listed in `errors`, each naming its field. Saved at once unless save is false.',
        security: [{ bearer: [] }],
        body: jerseyRequestSchema,
        response: { 201: adminListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
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

  app.put(
    '/api/admin/jerseys/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revise a jersey listing from the jersey form, its media order included, and save it if it was a draft (until it is published)',
        description: 'The same form and rules as POST /api/admin/jerseys; every problem is listed in `errors`, each naming its field.',
        security: [{ bearer: [] }],
        params: listingParams,
        body: jerseyFormSchema,
        response: { 200: adminListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
      // As on create: the form's own rules answer, all at once.
      validatorCompiler: (route) => (route.httpPart === 'body' ? (data) => ({ value: data }) : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0])),
    },
    async (request) => {
      const listingId = request.params.id;
      const current = await requireListing(deps.db, listingId);
      const checked = validateJerseyForm(request.body ?? {});
      if (checked.errors) throw new HttpError(400, checked.errors.map((error) => error.message).join('; '), 'VALIDATION_FAILED', checked.errors);
      const { form } = checked;
      const mediaChanged = form.mediaIds.join('\n') !== (current.media_ids as string[]).join('\n');
      if (mediaChanged) await requireCompletedMedia(deps.db, form.mediaIds);
      const metadata = metadataFor(request.actor!, request.id);
      const commands: [ListingCommand, ...ListingCommand[]] = [{ type: 'ReviseListingDetails', data: { listingId, details: jerseyListingDetails(form) }, metadata }];
      if (mediaChanged) commands.push({ type: 'ArrangeListingMedia', data: { listingId, mediaIds: form.mediaIds }, metadata });
      // Saving the form saves a draft (a bulk-imported row, say): with its photos it can take a tag.
      if (current.status === 'DRAFT') commands.push({ type: 'SaveListing', data: { listingId }, metadata });
      // Everything the form changes happens together, or nothing does.
      await handleListingCommands(deps.commands, commands);
      await readModelsCaughtUpWith(deps, listingStreamId(listingId));
      return presentAdminListing(await requireListing(deps.db, listingId), deps.mediaStorage);
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
        response: { 200: adminListingDetailSchema, ...errorResponses(400, 401, 403, 404) },
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
        body: listingFormSchema,
        response: { 200: adminListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
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
        body: arrangeMediaRequestSchema,
        response: { 200: adminListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
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
        body: listingStatusChangeRequestSchema,
        response: { 200: adminListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
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
        body: publicationRequestSchema,
        response: { 200: publishedListingSchema, ...errorResponses(400, 401, 403, 404, 409) },
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
