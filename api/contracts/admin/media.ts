import { z } from 'zod';
export { MAX_MEDIA_PER_LISTING } from '../../../engine/domain/listing/listing';

/**
 * The media a listing may carry, each type with the filename extensions that mean it: the upload
 * API checks files against this list, and the web's drop zone accepts by it. A stored file is named
 * with its type's last extension.
 */
export const ACCEPTED_MEDIA = {
  'image/jpeg': ['.jpeg', '.jpg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'video/mp4': ['.mp4'],
  'video/quicktime': ['.mov'],
  'video/x-msvideo': ['.avi'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Media uploads of the admin dashboard: a signed URL to PUT the file to, then a confirm; or the
 * one-request multipart upload. Both answer the stored media's status.
 */

/** PENDING: announced (an upload URL was handed out) but not confirmed; FAILED: refused at confirm. */
export const mediaStatusSchema = z.enum(['PENDING', 'COMPLETED', 'FAILED']);
export type MediaStatus = z.infer<typeof mediaStatusSchema>;

export const presignUploadRequestSchema = z.strictObject({
  filename: z.string().trim().min(1).max(255).describe('A label only: the server chooses where the file is stored'),
  contentType: z.string().trim().min(1).max(100),
  fileSizeBytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().describe('When known: the URL is then signed for exactly that many bytes'),
});
export type PresignUploadRequest = z.infer<typeof presignUploadRequestSchema>;

export const presignedUploadAnswerSchema = z.object({
  mediaId: z.string(),
  uploadUrl: z.string().describe('PUT the file\'s bytes here, with the headers below; the answer carries the ETag to confirm with'),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  expiresAt: z.string(),
  maxSizeBytes: z.number().describe('The most bytes the file may have (images 25 MB, videos 500 MB, or exactly the announced size)'),
});
export type PresignedUploadAnswer = z.infer<typeof presignedUploadAnswerSchema>;

export const confirmUploadRequestSchema = z.strictObject({
  mediaId: z.uuid(),
  etag: z.string().trim().min(1).max(200).describe('The ETag header of the PUT\'s answer, quotes and all'),
  fileSizeBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type ConfirmUploadRequest = z.infer<typeof confirmUploadRequestSchema>;

export const mediaStatusAnswerSchema = z.object({
  mediaId: z.string(),
  status: mediaStatusSchema,
  contentType: z.string(),
  fileSizeBytes: z.number().nullable().describe('The stored size once completed; the announced size (or null) before'),
  url: z.string().optional().describe('Where the public fetches the file: only once COMPLETED'),
  error: z.object({ code: z.string(), message: z.string() }).optional().describe('Why the upload was refused: only when FAILED'),
  expiresAt: z.string().optional().describe('When the upload URL stops working: only while PENDING'),
});
export type MediaStatusAnswer = z.infer<typeof mediaStatusAnswerSchema>;
