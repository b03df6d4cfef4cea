import type { NoticeKind } from '../contracts/notifications';
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
      return { title: `You won ${lot.title}`, body: `Your bid of ${price ?? 'the final price'} won the lot. We will be in touch about payment and delivery.` };
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

/** A notice about a lot as mail: what it says, a link to the lot, and how to stop such mail. */
export function lotNoticeMail(links: AppLinks, to: { email: string; firstName: string }, notice: { kind: NoticeKind; title: string; body: string; link: string | null }): OutgoingMail {
  const optional = notice.kind === 'OUTBID' || notice.kind === 'ENDING_SOON';
  return composeMail({
    to: to.email,
    subject: notice.title,
    greeting: `Hello ${to.firstName},`,
    paragraphs: [notice.body],
    ...(notice.link ? { action: { label: notice.kind === 'WON' || notice.kind === 'LOST' ? 'See the lot' : 'Go to the lot', url: links.to(notice.link) } } : {}),
    footer: optional
      ? [`You receive outbid and ending-soon emails about lots you bid on or follow. To stop them (the notices stay in the app), tick "transactional opt-out" in your account settings: ${links.to('/account/settings')}`]
      : ['You receive this email because you bid on this lot.'],
  });
}
