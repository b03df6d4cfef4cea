import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireNfcUid } from '../../engine/domain';
import type { AppDependencies } from '../dependencies';
import { HttpError } from '../http/errors';
import { chainOfCustody } from './history';

const custodyEntrySchema = z.object({
  event: z
    .string()
    .describe(
      'TAG_PROVISIONED, TAG_BOUND, TAG_UNBOUND, LISTING_PUBLISHED, AUCTION_SCHEDULED, AUCTION_OPENED, AUCTION_EXTENDED, ' +
        'AUCTION_CLOSED, AUCTION_CANCELLED, LISTING_SOLD, LISTING_UNSOLD or LISTING_WITHDRAWN',
    ),
  at: z.string().describe('When it happened'),
  eventId: z.string().describe('The id of the event in the log: anyone with access to the log can check it'),
  stream: z.string().describe('The stream holding the event (nfc_tag-{uid}, listing-{id}, auction-{id})'),
  revision: z.number().describe("The event's revision in its stream"),
  summary: z.string().describe('One sentence for people'),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).describe('Facts of the event; amounts in dollars'),
});

const custodyAnswerSchema = z.object({
  uid: z.string(),
  status: z.enum(['AVAILABLE', 'BOUND']),
  listing: z.object({ id: z.string(), slug: z.string(), title: z.string(), status: z.string() }).nullable().describe('The listing the tag is on now'),
  history: z.array(custodyEntrySchema).describe('In the order the log recorded it'),
});

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
          'it was on, publication, auction schedule, opening, extensions, close, sale (with its price) or its other end. ' +
          'Individual bids are not listed and no buyer or bidder is named. The UID in any common spelling ' +
          '(04a2b3c4d5e6f7, 04-A2-..., 04:a2:...). 400 "Please enter a valid NFC UID"; 404 "NFC tag not found".',
        params: z.object({ uid: z.string().min(1).max(100) }),
        response: { 200: custodyAnswerSchema },
      },
    },
    async (request) => {
      const custody = await chainOfCustody(deps.eventStore, requireNfcUid(request.params.uid));
      if (!custody) throw new HttpError(404, 'NFC tag not found', 'NFC_TAG_NOT_FOUND');
      return custody;
    },
  );
};
