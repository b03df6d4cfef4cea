import { z } from 'zod';
import { pageSchema } from './common';

/**
 * Notices to one person: about the lots they bid on or follow (OUTBID, ENDING_SOON, WON, LOST), about
 * what they bought (INVOICE, PAYMENT_RECEIVED, ORDER_SHIPPED, PAYMENT_OVERDUE, ORDER_CANCELLED; to
 * admins too, PAYMENT_OVERDUE), a second-chance offer to a runner-up (SECOND_CHANCE_OFFER), and about
 * their account (PASSWORD_CHANGED, EMAIL_CHANGED). Created from the event log, each exactly
 * once; the signed-in user's socket hears of each new one (live.ts).
 */
export const noticeKindSchema = z.enum([
  'OUTBID',
  'ENDING_SOON',
  'WON',
  'LOST',
  'PASSWORD_CHANGED',
  'EMAIL_CHANGED',
  'INVOICE',
  'PAYMENT_RECEIVED',
  'ORDER_SHIPPED',
  'PAYMENT_OVERDUE',
  'ORDER_CANCELLED',
  'SECOND_CHANCE_OFFER',
  'SHIPPING_ADDRESS_CHANGED',
]);
export type NoticeKind = z.infer<typeof noticeKindSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  kind: noticeKindSchema,
  listingId: z.string().nullable(),
  auctionId: z.string().nullable(),
  title: z.string(),
  body: z.string(),
  /** Where the notice leads in the app (the lot's page), or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = pageSchema(notificationSchema).extend({ unreadCount: z.number().int() });
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

export const notificationsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(0).max(10_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(20),
  unread: z.enum(['true', 'false']).optional().describe('true: unread ones only'),
});

export const MAX_NOTIFICATIONS_MARKED_AT_ONCE = 500;

export const markReadRequestSchema = z.union([
  z.strictObject({ ids: z.array(z.string().min(1).max(100)).min(1).max(MAX_NOTIFICATIONS_MARKED_AT_ONCE) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkReadRequest = z.infer<typeof markReadRequestSchema>;

export const unreadCountSchema = z.object({ unreadCount: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;
