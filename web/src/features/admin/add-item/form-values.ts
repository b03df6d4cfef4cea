import { JERSEY_TEAMS, jerseyFormSchema, type JerseyForm, type JerseyTeam } from '../../../../../api/contracts/admin/jersey-form';
import { DEFAULT_AFTER_SALE_TERMS, PUBLICATION_DEFAULTS, publicationRequestSchema, type AdminListing, type IncrementTableName, type PublicationRequest } from '../../../../../api/contracts/admin/listings';
import type { FieldError } from '../../../../../api/contracts/common';

/**
 * What the Add Item form holds (text, as inputs hold it) and how it becomes the API's bodies, checked
 * by the contract's own schemas so that the form says what the server would say, at the same fields.
 */

export interface ItemFormValues {
  playerName: string;
  jerseyNumber: string;
  team: string;
  size: string;
  condition: string;
  gameTitle: string;
  gameDate: string;
  opponent: string;
  venue: string;
  touchdowns: string;
  passingYards: string;
  completions: string;
  description: string;
  /** The asking price, and the auction's starting price. */
  price: string;
  timing: 'duration' | 'end';
  durationHours: string;
  /** A datetime-local value, in the admin's time zone. */
  endsAt: string;
  incrementTable: IncrementTableName;
  softClose: boolean;
  windowSeconds: string;
  maxExtensionHours: string;
  reservePrice: string;
  buyNowPrice: string;
  /** What the winner pays on top of the hammer price, in percent. */
  buyersPremiumPercent: string;
  /** How long the winner has to pay once the auction closes. */
  paymentWindowHours: string;
}

export type ItemField = keyof ItemFormValues | 'mediaIds';

export const EMPTY_ITEM: ItemFormValues = {
  playerName: '',
  jerseyNumber: '',
  team: '',
  size: '',
  condition: '',
  gameTitle: '',
  gameDate: '',
  opponent: '',
  venue: '',
  touchdowns: '',
  passingYards: '',
  completions: '',
  description: '',
  price: '',
  timing: 'duration',
  durationHours: String(PUBLICATION_DEFAULTS.durationHours),
  endsAt: '',
  incrementTable: PUBLICATION_DEFAULTS.incrementTable,
  softClose: true,
  windowSeconds: String(PUBLICATION_DEFAULTS.softClose.windowSeconds),
  maxExtensionHours: String(PUBLICATION_DEFAULTS.softClose.maxExtensionHours),
  reservePrice: '',
  buyNowPrice: '',
  buyersPremiumPercent: String(DEFAULT_AFTER_SALE_TERMS.buyersPremiumBasisPoints / 100),
  paymentWindowHours: String(DEFAULT_AFTER_SALE_TERMS.paymentWindowSeconds / 3_600),
};

/** The contract names nested fields by path ("stats.touchdowns"); the form names them flat. */
function formField(path: string): ItemField {
  const last = path.split('.').at(-1)!;
  return (last === 'startingPrice' ? 'price' : last) as ItemField;
}

export function fieldErrorsOf(errors: readonly FieldError[]): Array<{ field: ItemField; message: string }> {
  return errors.map((error) => ({ field: formField(error.field), message: error.message }));
}

/** The jersey form's body; or the problems, at their fields. */
export function jerseyFormOf(values: ItemFormValues, mediaIds: readonly string[]): { form: JerseyForm } | { errors: Array<{ field: ItemField; message: string }> } {
  const parsed = jerseyFormSchema.safeParse({
    playerName: values.playerName,
    jerseyNumber: values.jerseyNumber,
    team: values.team,
    size: values.size,
    condition: values.condition,
    gameTitle: values.gameTitle,
    gameDate: values.gameDate,
    opponent: values.opponent,
    venue: values.venue,
    stats: { touchdowns: values.touchdowns, passingYards: values.passingYards, completions: values.completions },
    description: values.description,
    price: values.price,
    mediaIds: [...mediaIds],
  });
  if (parsed.success) return { form: parsed.data };
  return { errors: fieldErrorsOf(parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }))) };
}

const dollars = (text: string) => (text.trim() === '' ? undefined : Number(text));

/** The auction's rule set as POST .../publish takes it; or the problems, at their fields. */
export function publicationOf(values: ItemFormValues): { rules: PublicationRequest } | { errors: Array<{ field: ItemField; message: string }> } {
  const end = values.endsAt.trim() === '' ? null : new Date(values.endsAt);
  if (values.timing === 'end' && end === null) return { errors: [{ field: 'endsAt', message: 'End is required' }] };
  const candidate = {
    ...(values.timing === 'duration'
      ? { durationHours: dollars(values.durationHours) }
      : { endsAt: end && !Number.isNaN(end.getTime()) ? end.toISOString() : values.endsAt }),
    incrementTable: values.incrementTable,
    softClose: values.softClose ? { windowSeconds: dollars(values.windowSeconds), maxExtensionHours: dollars(values.maxExtensionHours) } : null,
    reservePrice: dollars(values.reservePrice) ?? null,
    buyNowPrice: dollars(values.buyNowPrice) ?? null,
    buyersPremiumPercent: dollars(values.buyersPremiumPercent),
    paymentWindowHours: dollars(values.paymentWindowHours),
  };
  const parsed = publicationRequestSchema.safeParse(candidate);
  if (parsed.success) return { rules: parsed.data };
  return {
    errors: fieldErrorsOf(parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: `${labelOf(formField(issue.path.join('.')))}: ${issue.message}` }))),
  };
}

const LABELS: Partial<Record<ItemField, string>> = {
  durationHours: 'Duration',
  endsAt: 'End',
  windowSeconds: 'Soft-close window',
  maxExtensionHours: 'Longest extension',
  reservePrice: 'Reserve price',
  buyNowPrice: 'Buy-now price',
  buyersPremiumPercent: "Buyer's premium",
  paymentWindowHours: 'Payment window',
};

function labelOf(field: ItemField): string {
  return LABELS[field] ?? field;
}

/** A saved jersey listing, back in the form, to edit it; null when it was not made with the jersey form. */
export function itemValuesOf(listing: AdminListing): ItemFormValues | null {
  const { jersey } = listing;
  if (!jersey) return null;
  const team = (Object.keys(JERSEY_TEAMS) as JerseyTeam[]).find((key) => JERSEY_TEAMS[key] === listing.teamOrClub) ?? '';
  const text = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    ...EMPTY_ITEM,
    playerName: listing.playerName ?? '',
    jerseyNumber: text(jersey.jerseyNumber),
    team,
    size: (listing.size ?? '').toLowerCase(),
    condition: listing.condition,
    gameTitle: text(jersey.gameTitle),
    gameDate: text(jersey.gameDate),
    opponent: text(jersey.opponent),
    venue: text(jersey.venue),
    touchdowns: text(jersey.stats?.touchdowns),
    passingYards: text(jersey.stats?.passingYards),
    completions: text(jersey.stats?.completions),
    description: listing.description,
    price: Number(listing.price) > 0 ? listing.price : '',
  };
}
