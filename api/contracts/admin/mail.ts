import { z } from 'zod';

/** Mail in the outbox as an admin sees it: where it stands, never its body (it may hold a one-time link). */
export const outboxMailSchema = z.object({
  id: z.string(),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(['PENDING', 'SENT', 'FAILED']),
  attempts: z.number().int(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable().describe('When it is tried again; null once sent or given up'),
  sentAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxQuerySchema = z.strictObject({
  status: z.enum(['PENDING', 'SENT', 'FAILED']).default('FAILED'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const outboxAnswerSchema = z.object({
  content: z.array(outboxMailSchema),
  counts: z.object({ pending: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
});
