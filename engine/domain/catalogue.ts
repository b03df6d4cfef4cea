import type { z } from 'zod';
import { auctionEventSchema, bidRejectedSchema } from './auction/messages';
import { listingEventSchema } from './listing/listing';
import { listingSlugClaimedSchema } from './listing/slug-claim';
import { nfcClaimCodeReservedSchema } from './nfc-tag/claim-code';
import { nfcTagEventSchema } from './nfc-tag/nfc-tag';
import { checkpointEventSchema } from './integrity/checkpoints';
import { signingKeyEventSchema } from './integrity/signing-keys';
import { orderEventSchema } from './order/messages';
import { eventMetadataSchema } from './shared/messages';

/**
 * Every stream this product writes starts with one of these (the engine's *StreamId functions).
 * On a log others write to as well (KurrentDB's $all), this product reads only these streams.
 */
export const PRODUCT_STREAM_PREFIXES: readonly string[] = [
  'auction-',
  'auction_rejections-',
  'auction_checkpoints-',
  'listing-',
  'listing_slug-',
  'nfc_tag-',
  'nfc_claim_code-',
  'order-',
  'signing_keys-',
];

type EventSchema = z.ZodObject<{ type: z.ZodLiteral<string>; data: z.ZodType }>;
type EventUnion = { readonly options: readonly EventSchema[] };

const eventSchemas: ReadonlyArray<EventSchema | EventUnion> = [
  auctionEventSchema,
  listingEventSchema,
  nfcTagEventSchema,
  bidRejectedSchema,
  listingSlugClaimedSchema,
  nfcClaimCodeReservedSchema,
  orderEventSchema,
  checkpointEventSchema,
  signingKeyEventSchema,
];

/** The shape of the data of every event the engine decides, by type. */
const dataSchemas: ReadonlyMap<string, z.ZodType> = new Map(
  eventSchemas.flatMap((schema) => ('options' in schema ? schema.options : [schema])).map((schema) => [schema.shape.type.value, schema.shape.data]),
);

/** The type of every event the engine decides. */
export const PRODUCT_EVENT_TYPES: ReadonlySet<string> = new Set(dataSchemas.keys());

/** The engine's event metadata; more fields (an adapter's own) are allowed. */
const productMetadata = eventMetadataSchema.loose();

/**
 * Whether a stored event is one of this product's: in one of its streams, of a type the engine
 * decides, with that type's data and the engine's metadata. Everything that follows the log
 * (projections, the live hub, the audit queries) skips any other event: an operator's tool or
 * another service may write to a shared log, even under the product's names, and such an event
 * must neither stop nor confuse them.
 */
export function isProductEvent(event: { readonly streamId: string; readonly type: string; readonly data: unknown; readonly metadata: unknown }): boolean {
  const data = dataSchemas.get(event.type);
  return (
    data !== undefined &&
    PRODUCT_STREAM_PREFIXES.some((prefix) => event.streamId.startsWith(prefix)) &&
    productMetadata.safeParse(event.metadata).success &&
    data.safeParse(event.data).success
  );
}
