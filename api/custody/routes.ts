import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireNfcUid } from '../../engine/domain';
import type { AppDependencies } from '../dependencies';
import { bearerTokenOf } from '../http/authentication';
import { HttpError } from '../http/errors';
import { chainOfCustodySchema } from '../contracts/custody';
import { chainOfCustody } from './history';

/** Scanning a tag is how a buyer checks an item: its chain of custody, public, from the event log. */
export const custodyRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/api/public/nfc/:uid',
    {
      schema: {
        tags: ['nfc'],
        summary: "Chain of custody: the verified history of the item an NFC tag is on",
        description:
          'No sign-in. Read from the event log itself, not from a view of it: the tag\'s provisioning and bindings, and for each listing ' +
          'it was on, publication, auction schedule, opening, extensions, close, sale (with its price) or its other end, and after a sale ' +
          'its payment, shipment (carrier), delivery and completion, or its cancellation and second chance. ' +
          'Individual bids are not listed and no buyer or bidder is named, nor an address, a tracking number or an amount paid beyond the hammer price ' +
          '(signed in, the buyer sees their own order\'s). The UID in any common spelling ' +
          '(04a2b3c4d5e6f7, 04-A2-..., 04:a2:...). 400 "Please enter a valid NFC UID"; 404 "NFC tag not found".',
        params: z.object({ uid: z.string().min(1).max(100) }),
        response: { 200: chainOfCustodySchema },
      },
    },
    async (request, reply) => {
      // Signed in, the buyer sees their own order's private steps; a missing or stale token is just anonymous.
      const bearer = bearerTokenOf(request.headers.authorization);
      const viewer = bearer ? await app.verifyAccessToken(bearer) : null;
      // An answer that may hold one person's details is never kept by a shared cache.
      void reply.header('vary', 'Authorization');
      if (bearer) void reply.header('cache-control', 'private, no-store');
      const custody = await chainOfCustody(deps.eventStore, requireNfcUid(request.params.uid), viewer?.userId ?? null);
      if (!custody) throw new HttpError(404, 'NFC tag not found', 'NFC_TAG_NOT_FOUND');
      return custody;
    },
  );
};
