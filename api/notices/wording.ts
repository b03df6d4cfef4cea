import type { NoticeKind } from '../contracts/notifications';
import { ORDER_LINK_PATHS } from '../contracts/order-links';
import { composeMail } from '../mail/compose';
import type { AppLinks } from '../mail/links';
import type { OutgoingMail } from '../mail/transport';

/** What a notice about a lot is worded from. */
export interface LotFacts {
  readonly title: string;
  /** Cents: the price after the bid, the hammer price, or the current bid. */
  readonly priceCents: number | null;
  readonly reserveNotMet?: boolean;
  readonly endsAt?: Date;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const utc = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** US $1,234.00, as the cards show prices. */
export function formatPrice(cents: number): string {
  return `US ${usd.format(cents / 100)}`;
}

export function formatInstant(at: Date): string {
  return `${utc.format(at)} UTC`;
}

/** The title and body of a notice about a lot, in the app and as the mail's subject and first lines. */
export function lotNoticeText(kind: Extract<NoticeKind, 'OUTBID' | 'ENDING_SOON' | 'WON' | 'LOST'>, lot: LotFacts): { title: string; body: string } {
  const price = lot.priceCents === null ? null : formatPrice(lot.priceCents);
  switch (kind) {
    case 'OUTBID':
      return { title: `You have been outbid on ${lot.title}`, body: `Someone else now leads${price ? ` at ${price}` : ''}. Bid again to get back in front.` };
    case 'ENDING_SOON':
      return {
        title: `${lot.title} ends soon`,
        body: `Bidding ends ${lot.endsAt ? `at ${formatInstant(lot.endsAt)}` : 'within the hour'}${price ? `; the current bid is ${price}` : ''}.`,
      };
    case 'WON':
      return { title: `You won ${lot.title}`, body: `Your bid of ${price ?? 'the final price'} won the lot. Your invoice follows, with how to pay: see My purchases.` };
    case 'LOST':
      return lot.reserveNotMet
        ? { title: `${lot.title} did not sell`, body: 'Bidding has ended and the reserve price was not met, so the lot did not sell.' }
        : { title: `${lot.title} sold to another bidder`, body: `Bidding has ended; the lot sold for ${price ?? 'a higher bid'}.` };
  }
}

/** Where a lot's page is in the app. */
export function lotPath(slug: string | null, listingId: string): string {
  return slug ? `/marketplace/${encodeURIComponent(slug)}` : `/marketplace/listing/${encodeURIComponent(listingId)}`;
}

/** A notice as mail: what it says, a link to what it is about, and why it came (and, for optional ones, how to stop them). */
export function lotNoticeMail(links: AppLinks, to: { email: string; firstName: string }, notice: { kind: NoticeKind; title: string; body: string; link: string | null }): OutgoingMail {
  const optional = notice.kind === 'OUTBID' || notice.kind === 'ENDING_SOON';
  const aboutOrders = notice.link?.startsWith(`${ORDER_LINK_PATHS.adminOrder}/`) === true;
  return composeMail({
    to: to.email,
    subject: notice.title,
    greeting: `Hello ${to.firstName},`,
    paragraphs: [notice.body],
    ...(notice.link ? { action: { label: ACTION_LABELS[notice.kind], url: links.to(notice.link) } } : {}),
    footer: optional
      ? [`You receive outbid and ending-soon emails about lots you bid on or follow. To stop them (the notices stay in the app), tick "transactional opt-out" in your account settings: ${links.to('/account/settings')}`]
      : [aboutOrders ? 'You receive this email because you settle orders on Provenance.' : FOOTERS[notice.kind]],
  });
}

const ACTION_LABELS: Readonly<Record<NoticeKind, string>> = {
  OUTBID: 'Go to the lot',
  ENDING_SOON: 'Go to the lot',
  WON: 'See the lot',
  LOST: 'See the lot',
  PASSWORD_CHANGED: 'Open Provenance',
  EMAIL_CHANGED: 'Open Provenance',
  INVOICE: 'See your invoice',
  PAYMENT_RECEIVED: 'See your order',
  ORDER_SHIPPED: 'Track your order',
  PAYMENT_OVERDUE: 'Open the order',
  ORDER_CANCELLED: 'See your order',
  SECOND_CHANCE_OFFER: 'See the offer',
  SHIPPING_ADDRESS_CHANGED: 'See your order',
};

const FOOTERS: Readonly<Record<NoticeKind, string>> = {
  OUTBID: 'You receive this email because you bid on this lot.',
  ENDING_SOON: 'You receive this email because you bid on or follow this lot.',
  WON: 'You receive this email because you bid on this lot.',
  LOST: 'You receive this email because you bid on this lot.',
  PASSWORD_CHANGED: 'You receive this email about your Provenance account.',
  EMAIL_CHANGED: 'You receive this email about your Provenance account.',
  INVOICE: 'You receive this email about a purchase of yours.',
  PAYMENT_RECEIVED: 'You receive this email about a purchase of yours.',
  ORDER_SHIPPED: 'You receive this email about a purchase of yours.',
  PAYMENT_OVERDUE: 'You receive this email about a purchase of yours.',
  ORDER_CANCELLED: 'You receive this email about a purchase of yours.',
  SECOND_CHANCE_OFFER: 'You receive this email because you bid on this lot.',
  SHIPPING_ADDRESS_CHANGED: 'You receive this email about a purchase of yours.',
};
