import { z } from 'zod';
import { listingStatusSchema } from '../../../engine/domain/listing/listing';
import { pageSchema } from '../common';

/** How the engine reads a typed UID or claim code (and what it says when it cannot): the web parses alike. */
export { normalizeNfcUid, requireClaimCode, requireNfcUid } from '../../../engine/domain/nfc-tag/identifiers';

/**
 * The NFC tag pool and binding tags to listings: by the admin, or from a phone through the
 * one-time link the admin's QR code carries.
 */

export const nfcTagStatusSchema = z.enum(['AVAILABLE', 'BOUND']);
export type NfcTagStatus = z.infer<typeof nfcTagStatusSchema>;

const tagSearch = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9:\s-]*$/, 'must be part of a UID or of a claim code')
  .optional()
  .describe('Part of a UID (with or without separators) or of a claim code; any case');

export const nfcTagsQuerySchema = z.object({
  status: nfcTagStatusSchema.optional(),
  search: tagSearch,
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export type NfcTagsQuery = z.infer<typeof nfcTagsQuerySchema>;

export const availableTagsQuerySchema = z.object({
  search: tagSearch,
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AvailableTagsQuery = z.infer<typeof availableTagsQuerySchema>;

export const provisionTagRequestSchema = z.strictObject({
  uid: z.string().max(100).describe('Any common spelling; stored as colon-separated upper-case pairs'),
  claimCode: z.string().max(100).nullable().optional().describe('Optional; stored upper case; no two tags share one'),
});
export type ProvisionTagRequest = z.infer<typeof provisionTagRequestSchema>;

/** A tag: uid, claimCode, status, and the pool's id, displayUid, availableForAssignment, createdAt. */
export const nfcTagSchema = z.object({
  id: z.string().describe('The normalised UID: a tag is named by its UID'),
  uid: z.string().describe('Colon-separated upper-case hex pairs, e.g. 04:A2:B3:C4:D5:E6:F7'),
  displayUid: z.string(),
  claimCode: z.string().nullable().describe('Printed on the tag\'s card; binds the tag in place of its UID'),
  status: nfcTagStatusSchema,
  availableForAssignment: z.boolean(),
  listingId: z.string().nullable().describe('The listing the tag is bound to'),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NfcTag = z.infer<typeof nfcTagSchema>;

export const nfcTagPageSchema = pageSchema(nfcTagSchema);

/** Which tag to bind: by its UID (typed, or picked from the pool) or by the claim code on its card. */
export const tagChoiceSchema = z.strictObject({
  uid: z.string().max(100).optional().describe('Any common spelling: 04a2b3c4d5e6f7, 04-A2-..., 04:a2:...'),
  claimCode: z.string().max(100).optional().describe('Matched in upper case'),
});
export type TagChoice = z.infer<typeof tagChoiceSchema>;

export const unbindTagRequestSchema = z.strictObject({ reason: z.string().max(2000) });
export type UnbindTagRequest = z.infer<typeof unbindTagRequestSchema>;

/** What a bind or an unbind answers: the listing, the tag, and whether they are now bound. */
export const tagBindingAnswerSchema = z.object({
  listingId: z.string(),
  uid: z.string().describe('The tag bound, or just unbound'),
  status: z.enum(['BOUND', 'UNBOUND']),
  at: z.string().describe('When the binding changed (or, for a bind repeated, when it was asked again)'),
});
export type TagBindingAnswer = z.infer<typeof tagBindingAnswerSchema>;

/** The admin's QR code: a one-time link that binds a tag to the listing from a phone. */
export const bindingQrAnswerSchema = z.object({
  url: z.string().describe('Absolute link to /mobile?token=...: opened on a phone, it binds a tag to this listing once'),
  qrCode: z.string().describe('The link as a QR code: a data: URL of a PNG image (data:image/png;base64,...)'),
  expiresAt: z.string(),
});
export type BindingQrAnswer = z.infer<typeof bindingQrAnswerSchema>;

/** What the phone shows before binding: the listing the link is for. */
export const bindingLinkSchema = z.object({
  listingId: z.string(),
  title: z.string(),
  slug: z.string(),
  status: listingStatusSchema.describe("The listing's status: SAVED while a tag can be bound"),
  expiresAt: z.string(),
});
export type BindingLink = z.infer<typeof bindingLinkSchema>;
