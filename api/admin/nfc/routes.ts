import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { handleTagProvisioning } from '../../../engine/application/tag-provisioning';
import { commandMetadata, requireNfcUid } from '../../../engine/domain';
import {
  availableTagsQuerySchema,
  bindingQrAnswerSchema,
  nfcTagPageSchema,
  nfcTagSchema,
  nfcTagsQuerySchema,
  provisionTagRequestSchema,
  tagBindingAnswerSchema,
  tagChoiceSchema,
  unbindTagRequestSchema,
} from '../../contracts/admin/nfc';
import { errorResponses } from '../../contracts/common';
import type { AppDependencies } from '../../dependencies';
import { HttpError } from '../../http/errors';
import { toPage } from '../../listings/paging';
import { createBindingLink, loadListing, requireBindableListing } from '../../mobile-binding/links';
import { bindChosenTag, unbindListingTag } from '../../nfc-binding/binding';
import { presentNfcTag } from './presenters';
import { availableTags, findTag, searchTags } from './queries';

const uidParams = z.object({ uid: z.string().min(1).max(100) });
const listingParams = z.object({ id: z.string().min(1).max(200).describe("The listing's id") });

/** The QR code must scan from a laptop screen: a medium error-correction PNG, large enough modules. */
const QR_OPTIONS = { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 8 } as const;

/** The tag pool, and binding tags to listings (by the admin, or from a phone through a one-time link). */
export const adminNfcRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  const metadataOf = (request: FastifyRequest) => commandMetadata(request.actor!, deps.clock(), { correlationId: request.id, commandId: randomUUID() });

  app.post(
    '/api/admin/nfc/tags/provision',
    {
      schema: {
        tags: ['nfc'],
        summary: 'Add a tag to the pool',
        description:
          '400 "Please enter a valid NFC UID" (4 to 10 bytes of hex) or "Please enter a valid claim code"; ' +
          '409 when the tag is provisioned already or its claim code belongs to another tag.',
        security: [{ bearer: [] }],
        body: provisionTagRequestSchema,
        response: { 201: nfcTagSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { uid, claimCode } = request.body;
      const provisioned = await handleTagProvisioning(deps.commands, {
        type: 'ProvisionNfcTag',
        data: { uid, claimCode: claimCode ?? null },
        metadata: metadataOf(request),
      });
      await deps.projections.caughtUpTo(provisioned.position);
      const tag = await findTag(deps.db, requireNfcUid(uid));
      return reply.code(201).send(presentNfcTag(tag!));
    },
  );

  app.get(
    '/api/admin/nfc/tags',
    {
      schema: {
        tags: ['nfc'],
        summary: 'The tag pool, newest first, paged; filter by status, search by UID or claim code',
        security: [{ bearer: [] }],
        querystring: nfcTagsQuerySchema,
        response: { 200: nfcTagPageSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { page, size } = request.query;
      const { rows, total } = await searchTags(deps.db, request.query);
      return toPage(rows.map(presentNfcTag), total, page, size);
    },
  );

  app.get(
    '/api/admin/nfc/tags/available',
    {
      schema: {
        tags: ['nfc'],
        summary: 'Tags free to bind, newest first: the binding panel\'s pool',
        security: [{ bearer: [] }],
        querystring: availableTagsQuerySchema,
        response: { 200: z.array(nfcTagSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => (await availableTags(deps.db, request.query)).map(presentNfcTag),
  );

  app.get(
    '/api/admin/nfc/tags/:uid',
    {
      schema: {
        tags: ['nfc'],
        summary: 'One tag, by UID in any common spelling; 404 "NFC tag not found"',
        security: [{ bearer: [] }],
        params: uidParams,
        response: { 200: nfcTagSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const tag = await findTag(deps.db, requireNfcUid(request.params.uid));
      if (!tag) throw new HttpError(404, 'NFC tag not found', 'NFC_TAG_NOT_FOUND');
      return presentNfcTag(tag);
    },
  );

  app.post(
    '/api/admin/listings/:id/bind',
    {
      schema: {
        tags: ['nfc'],
        summary: 'Bind a tag to a saved listing, by UID or by claim code',
        description:
          'Send exactly one of uid and claimCode. 409 "Listing must be saved before binding NFC tag"; 400 "Please enter a valid NFC UID" ' +
          'or "Please enter a valid claim code"; 404 "Selected tag not found"; 409 when the tag or the listing is bound already. ' +
          'Of two binds of one tag at the same moment, exactly one succeeds.',
        security: [{ bearer: [] }],
        params: listingParams,
        body: tagChoiceSchema,
        response: { 200: tagBindingAnswerSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => bindChosenTag(deps, request.params.id, request.body, metadataOf(request)),
  );

  app.post(
    '/api/admin/listings/:id/unbind',
    {
      schema: {
        tags: ['nfc'],
        summary: "Give a listing's tag back to the pool, with a reason",
        description:
          'Before publishing, or once the listing is withdrawn or unsold; a live or sold item keeps its tag (409). ' +
          '400 "A reason is required"; 409 "This listing has no NFC tag bound"; 404 "Listing not found".',
        security: [{ bearer: [] }],
        params: listingParams,
        body: unbindTagRequestSchema,
        response: { 200: tagBindingAnswerSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => unbindListingTag(deps, request.params.id, request.body.reason, metadataOf(request)),
  );

  app.post(
    '/api/admin/listings/:id/nfc/qr',
    {
      schema: {
        tags: ['nfc'],
        summary: 'A QR code for a one-time link that binds a tag to this listing from a phone',
        description:
          'The link opens /mobile?token=... on this API\'s host (X-Forwarded-Proto and -Host are honoured behind a trusted proxy), ' +
          'works once and expires after 15 minutes. The listing must be saved and have no tag: ' +
          '409 "Listing must be saved before binding NFC tag" or "This listing already has an NFC tag bound"; 404 "Listing not found".',
        security: [{ bearer: [] }],
        params: listingParams,
        response: { 201: bindingQrAnswerSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const listing = requireBindableListing(await loadListing(deps.eventStore, request.params.id));
      const link = await createBindingLink(deps.db, { listingId: listing.listingId, createdBy: request.actor!.userId, now: deps.clock() });
      const url = new URL(`${request.protocol}://${request.host}/mobile`);
      url.searchParams.set('token', link.token);
      const qrCode = await QRCode.toDataURL(url.href, QR_OPTIONS);
      return reply.code(201).send({ url: url.href, qrCode, expiresAt: link.expiresAt.toISOString() });
    },
  );
};
