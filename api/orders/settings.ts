import type { ShippingRates } from '../../engine/application/order-commands';
import { listingCategorySchema } from '../../engine/domain';
import { DEMO_BANK_ACCOUNT, type BankAccountDetails } from '../payments/bank-transfer';

/** What the after-sale pipeline is configured with (SHIPPING_RATES, BANK_TRANSFER_DETAILS). */
export interface AfterSaleSettings {
  /** The flat shipping charge of each category, in cents, fixed on the order when it is placed. */
  readonly shippingRates: ShippingRates;
  /** The account buyers wire to. */
  readonly bankAccount: BankAccountDetails;
}

/** Insured, tracked domestic shipping of a boxed item, by category (in cents: $25, $45, $30, $15). */
export const DEFAULT_SHIPPING_RATES: ShippingRates = { CLOTHING: 2_500, EQUIPMENT: 4_500, FOOTWEAR: 3_000, ACCESSORIES: 1_500 };

export const DEFAULT_AFTER_SALE_SETTINGS: AfterSaleSettings = { shippingRates: DEFAULT_SHIPPING_RATES, bankAccount: DEMO_BANK_ACCOUNT };

/** SHIPPING_RATES: "CLOTHING=25,EQUIPMENT=45" (dollars); categories not named keep their default. Undefined when malformed. */
export function parseShippingRates(text: string): ShippingRates | undefined {
  const rates: Record<string, number> = { ...DEFAULT_SHIPPING_RATES };
  for (const part of text.split(',').map((each) => each.trim()).filter(Boolean)) {
    const match = /^([A-Z_]+)\s*=\s*(\d{1,6}(?:\.\d{1,2})?)$/i.exec(part);
    const category = listingCategorySchema.safeParse(match?.[1]?.toUpperCase());
    if (!match || !category.success) return undefined;
    rates[category.data] = Math.round(Number(match[2]) * 100);
  }
  return rates as ShippingRates;
}
