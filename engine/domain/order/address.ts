import countries from 'i18n-iso-countries';
import { z } from 'zod';

/** One line of an address: printable text on one line (no control characters, no line breaks). */
const line = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'Use one line of plain text');

/** Postal codes whose form we know for sure; elsewhere any 2 to 12 letters, digits, spaces or hyphens. */
const POSTAL_CODE_FORMS: Readonly<Record<string, { pattern: RegExp; example: string }>> = {
  US: { pattern: /^\d{5}(-\d{4})?$/, example: '10001 or 10001-1234' },
  CA: { pattern: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, example: 'K1A 0B1' },
  GB: { pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, example: 'SW1A 1AA' },
};
const ANY_POSTAL_CODE = /^[A-Z0-9][A-Z0-9 -]{0,10}[A-Z0-9]$/i;

/** Countries whose addresses need a state or province to be delivered. */
const REGION_REQUIRED: ReadonlySet<string> = new Set(['US', 'CA', 'AU']);

/**
 * Where a won item is shipped. Checked here so the API, the web form (which shows these messages)
 * and the order decider apply one rule: an ISO 3166-1 alpha-2 country, and the postal code and
 * region that country's post needs.
 */
export const shippingAddressSchema = z
  .strictObject({
    name: line(200).min(1, 'Enter the recipient’s name'),
    line1: line(200).min(1, 'Enter the street address'),
    line2: line(200).nullish().transform((value) => (value ? value : null)),
    city: line(100).min(1, 'Enter the city'),
    region: line(100).nullish().transform((value) => (value ? value : null)),
    postalCode: line(16).min(1, 'Enter the postal code'),
    country: z
      .string()
      .trim()
      .transform((code) => code.toUpperCase())
      .refine((code) => /^[A-Z]{2}$/.test(code) && countries.isValid(code), 'Choose a country (an ISO 3166-1 two-letter code)'),
  })
  .superRefine((address, context) => {
    const form = POSTAL_CODE_FORMS[address.country];
    if (form ? !form.pattern.test(address.postalCode) : !ANY_POSTAL_CODE.test(address.postalCode)) {
      context.addIssue({ code: 'custom', path: ['postalCode'], message: form ? `Enter a postal code like ${form.example}` : 'Enter a valid postal code' });
    }
    if (REGION_REQUIRED.has(address.country) && address.region === null) {
      context.addIssue({ code: 'custom', path: ['region'], message: 'Enter the state or province' });
    }
  });
export type ShippingAddress = z.output<typeof shippingAddressSchema>;
