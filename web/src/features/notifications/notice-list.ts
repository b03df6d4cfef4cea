import type { Notification, NoticeKind } from '../../../../api/contracts/notifications';

/** The list of notices as the page keeps it: newest first, each once, whether it came with a page or live. */

/** A notice that arrived live goes on top; one already shown (same id) is not shown twice. */
export function withLiveNotice(notices: readonly Notification[], notice: Notification): readonly Notification[] {
  return notices.some((shown) => shown.id === notice.id) ? notices : [notice, ...notices];
}

/** The next page goes below. Notices that arrived since the first page push older ones onto later pages: those already shown are skipped. */
export function withNextPage(notices: readonly Notification[], page: readonly Notification[]): readonly Notification[] {
  const shown = new Set(notices.map((notice) => notice.id));
  return [...notices, ...page.filter((notice) => !shown.has(notice.id))];
}

/** Marks these notices read at `readAt` (those already read keep their time). */
export function markedRead(notices: readonly Notification[], ids: ReadonlySet<string>, readAt: string): readonly Notification[] {
  return notices.map((notice) => (ids.has(notice.id) && notice.readAt === null ? { ...notice, readAt } : notice));
}

/** Back to unread: the server refused to mark them. */
export function markedUnread(notices: readonly Notification[], ids: ReadonlySet<string>): readonly Notification[] {
  return notices.map((notice) => (ids.has(notice.id) ? { ...notice, readAt: null } : notice));
}

export const NOTICE_KIND_LABELS: Readonly<Record<NoticeKind, string>> = {
  OUTBID: 'Outbid',
  ENDING_SOON: 'Ending soon',
  WON: 'You won',
  LOST: 'Auction lost',
  PASSWORD_CHANGED: 'Password changed',
  EMAIL_CHANGED: 'Email changed',
  INVOICE: 'Invoice',
  PAYMENT_RECEIVED: 'Payment received',
  ORDER_SHIPPED: 'Shipped',
  PAYMENT_OVERDUE: 'Payment overdue',
  ORDER_CANCELLED: 'Order cancelled',
  SECOND_CHANCE_OFFER: 'Second chance',
  SHIPPING_ADDRESS_CHANGED: 'Address changed',
};

/** Where a notice leads, if it is a path in this app ("/marketplace/…"); anything else (another site, "//host") is not linked. */
export function inAppLink(link: string | null): string | null {
  return link !== null && link.startsWith('/') && !link.startsWith('//') && !link.startsWith('/\\') ? link : null;
}
