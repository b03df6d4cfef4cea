import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commandMetadata } from '../../engine/domain';
import { bindingLinkSchema, tagBindingAnswerSchema, tagChoiceSchema } from '../contracts/admin/nfc';
import { errorResponses } from '../contracts/common';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { bindChosenTag } from '../nfc-binding/binding';
import { consumeBindingLink, linkCorrelationId, linkCreator, loadListing, requireUsableLink } from './links';

const tokenParams = z.object({ token: z.string().min(1).max(200).describe('The token of the link the QR code carries') });

const LINK_ERRORS = '404 "Binding link not found"; 410 "This binding link has already been used" or "This binding link has expired".';

/**
 * The phone's side of the admin's QR code (/mobile?token=...): no sign-in, the one-time token is
 * the authority, and the bind is made as the admin who created the link.
 */
export const mobileBindingRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/api/mobile/nfc-binding/:token',
    {
      schema: {
        tags: ['nfc'],
        summary: 'What a phone binding link is for: the listing to bind a tag to',
        description: LINK_ERRORS,
        params: tokenParams,
        response: { 200: bindingLinkSchema, ...errorResponses(400, 404, 410) },
      },
    },
    async (request) => {
      const link = await requireUsableLink(deps.db, request.params.token, deps.clock());
      const listing = await loadListing(deps.eventStore, link.listing_id);
      if (listing.status === 'NONE') throw new HttpError(404, 'Listing not found', 'LISTING_NOT_FOUND');
      return { listingId: listing.listingId, title: listing.details.title, slug: listing.slug, status: listing.status, expiresAt: link.expires_at.toISOString() };
    },
  );

  app.post(
    '/api/mobile/nfc-binding/:token',
    {
      schema: {
        tags: ['nfc'],
        summary: "Bind a tag (scanned UID or the card's claim code) to the link's listing; the link is then used up",
        description:
          `${LINK_ERRORS} The bind answers as the admin bind does ("Please enter a valid NFC UID", "Selected tag not found", ...); ` +
          'a refused bind leaves the link usable.',
        params: tokenParams,
        body: tagChoiceSchema,
        response: { 200: tagBindingAnswerSchema, ...errorResponses(400, 403, 404, 409, 410) },
      },
    },
    async (request) => {
      const now = deps.clock();
      const link = await requireUsableLink(deps.db, request.params.token, now);
      const actor = await linkCreator(deps.db, link);
      const metadata = commandMetadata(actor, now, { correlationId: linkCorrelationId(link), commandId: randomUUID() });
      const bound = await bindChosenTag(deps, link.listing_id, request.body, metadata);
      await consumeBindingLink(deps.db, link, bound.uid, now);
      return bound;
    },
  );
};
