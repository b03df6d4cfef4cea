import countries from 'i18n-iso-countries';
import type { Order, OrderAddress } from '../../../../api/contracts/orders';

/** What the order and offer pages say of dates, countries and an order's progress. */

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const longDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });
const shortDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "March 3, 2026". */
export const formatDay = (iso: string | Date) => longDate.format(new Date(iso));
/** "March 3, 2026 at 5:00 PM", in the reader's own time zone. */
export const formatMoment = (iso: string) => longDateTime.format(new Date(iso));
/** "Mar 3, 2026, 5:00 PM". */
export const formatShortMoment = (iso: string) => shortDateTime.format(new Date(iso));

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "United States" for "US"; the code itself when the browser knows no name for it. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

let options: ReadonlyArray<{ value: string; label: string }> | null = null;

/** Every ISO 3166-1 alpha-2 country the server accepts, by English name: the address form's choices. */
export function countryOptions(): ReadonlyArray<{ value: string; label: string }> {
  options ??= Object.keys(countries.getAlpha2Codes())
    .map((code) => ({ value: code, label: countryName(code) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  return options;
}

/** An address as an envelope shows it, one line each. */
export function addressLines(address: OrderAddress): string[] {
  return [
    address.name,
    address.line1,
    address.line2,
    [address.city, address.region, address.postalCode].filter(Boolean).join(', '),
    countryName(address.country),
  ].filter((line): line is string => Boolean(line));
}

export interface TimelineStep {
  readonly label: string;
  /** When it happened; null while it has not. */
  readonly at: string | null;
  /** done: it happened; current: what the order waits for now; upcoming: later; stopped: the order was cancelled here. */
  readonly state: 'done' | 'current' | 'upcoming' | 'stopped';
}

/** The order's steps, placed to delivered; a cancelled order stops at its cancellation. */
export function orderTimeline(order: Order): TimelineStep[] {
  const placed: TimelineStep = { label: 'Placed', at: order.placedAt, state: 'done' };
  if (order.cancelledAt !== null || order.status === 'CANCELLED' || order.status === 'SECOND_CHANCE_OFFERED') {
    const paid = order.paidAt === null ? [] : [{ label: 'Paid', at: order.paidAt, state: 'done' as const }];
    return [placed, ...paid, { label: 'Cancelled', at: order.cancelledAt, state: 'stopped' }];
  }
  const later: Array<{ label: string; at: string | null }> = [
    { label: 'Paid', at: order.paidAt },
    { label: 'Shipped', at: order.shippedAt },
    { label: 'Delivered', at: order.deliveredAt },
  ];
  const waiting = later.findIndex((step) => step.at === null);
  return [placed, ...later.map((step, index) => ({ ...step, state: index < waiting || waiting < 0 ? ('done' as const) : index === waiting ? ('current' as const) : ('upcoming' as const) }))];
}

