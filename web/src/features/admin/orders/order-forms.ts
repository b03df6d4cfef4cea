import { z } from 'zod';
import { cancelOrderRequestSchema, recordPaymentRequestSchema, shipmentRequestSchema, shippingChargeRequestSchema } from '../../../../../api/contracts/orders';

/**
 * The Orders panel's forms, as text (inputs hold text), checked here for what the contract would
 * refuse anyway, at the field; how a step relates to the order (more than is owed, not paid yet)
 * is the server's to say.
 */

const DOLLARS = /^\d+(\.\d{1,2})?$/;

/** Dollars and cents as typed ("117", "117.5", "1,117.50"), between `min` and `max`. */
function dollars(what: string, { positive, max }: { positive: boolean; max: number }) {
  return z
    .string()
    .trim()
    .min(1, `Enter the ${what}`)
    .transform((typed) => typed.replace(/[$,\s]/g, ''))
    .refine((typed) => DOLLARS.test(typed), 'Dollars and cents, like 117 or 117.50')
    .refine((typed) => !positive || Number(typed) > 0, 'More than $0')
    .refine((typed) => Number(typed) <= max, `At most $${max.toLocaleString('en-US')}`);
}

/** The admin's calendar day, as a date input holds it: 2026-11-26. */
export function localDate(date: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const bounded = (schema: z.ZodString, what: string) => {
  const max = schema.maxLength ?? 200;
  return z.string().trim().min(1, `Enter the ${what}`).max(max, `At most ${max} characters`);
};

export const paymentFormSchema = z.object({
  amount: dollars('amount received', { positive: true, max: 100_000_000 }),
  reference: bounded(recordPaymentRequestSchema.shape.reference, 'transfer’s reference'),
  receivedAt: z
    .string()
    .refine((value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value), 'A date, like 2026-11-26')
    .refine((value) => value === '' || value <= localDate(), 'Not in the future'),
});
export type PaymentForm = z.input<typeof paymentFormSchema>;

/** The payment as the API takes it: the date picked, as a date (the server reads it as that day, up to now); none picked is "now". */
export function paymentRequest(form: z.output<typeof paymentFormSchema>): { amount: number; reference: string; receivedAt?: string } {
  return { amount: Number(form.amount), reference: form.reference, ...(form.receivedAt ? { receivedAt: form.receivedAt } : {}) };
}

export const shippingChargeFormSchema = z.object({
  shipping: z
    .string()
    .trim()
    .min(1, 'Enter the shipping charge')
    .transform((typed) => typed.replace(/[$,\s]/g, ''))
    .refine((typed) => DOLLARS.test(typed), 'Dollars and cents, like 25 or 25.50')
    .refine((typed) => Number(typed) <= (shippingChargeRequestSchema.shape.shipping.maxValue ?? 100_000), 'At most $100,000'),
});
export type ShippingChargeForm = z.input<typeof shippingChargeFormSchema>;

export const shipmentFormSchema = z.object({
  carrier: bounded(shipmentRequestSchema.shape.carrier, 'carrier'),
  trackingNumber: bounded(shipmentRequestSchema.shape.trackingNumber, 'tracking number'),
});
export type ShipmentForm = z.input<typeof shipmentFormSchema>;

export const cancelFormSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'A reason is required')
    .max(cancelOrderRequestSchema.shape.reason.maxLength ?? 2000, `At most ${cancelOrderRequestSchema.shape.reason.maxLength ?? 2000} characters`),
});
export type CancelForm = z.input<typeof cancelFormSchema>;

/** Dollars as a form shows them to edit: 117 -> "117.00". */
export const typedDollars = (amount: number) => amount.toFixed(2);
