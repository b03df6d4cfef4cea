import { formatUsd } from '../../engine/domain';
import type { PaymentMethodPort } from './payment-method';

/** The account buyers wire to: label and value pairs, as the invoice and the purchase page show them. */
export type BankAccountDetails = ReadonlyArray<{ readonly label: string; readonly value: string }>;

/** The embedded demo's account: plainly not a real one (BANK_TRANSFER_DETAILS sets the real one). */
export const DEMO_BANK_ACCOUNT: BankAccountDetails = [
  { label: 'Beneficiary', value: 'Provenance Auctions (demo account)' },
  { label: 'Bank', value: 'Example Bank, N.A.' },
  { label: 'Account number', value: '000000000000' },
  { label: 'Routing number (ABA)', value: '000000000' },
  { label: 'SWIFT/BIC', value: 'EXAMPLEXXX' },
];

/** BANK_TRANSFER_DETAILS: "Beneficiary=Provenance Auctions LLC;Bank=First Bank;Account number=123" -> label and value pairs. */
export function parseBankAccountDetails(text: string): BankAccountDetails | undefined {
  const pairs = text.split(';').map((part) => part.trim()).filter(Boolean).map((part) => {
    const at = part.indexOf('=');
    return at <= 0 ? null : { label: part.slice(0, at).trim(), value: part.slice(at + 1).trim() };
  });
  if (pairs.length === 0 || pairs.some((pair) => pair === null || pair.label === '' || pair.value === '')) return undefined;
  return pairs as BankAccountDetails;
}

/**
 * A bank transfer or wire, how high-value memorabilia is commonly settled: the buyer wires the
 * amount quoting the order number, an admin records what arrived (in parts, if it comes in parts).
 */
export class BankTransfer implements PaymentMethodPort {
  readonly method = 'BANK_TRANSFER' as const;

  constructor(private readonly account: BankAccountDetails) {}

  instructions(order: { readonly orderNumber: string; readonly balance: number }) {
    return {
      method: this.method,
      title: 'Bank transfer or wire',
      reference: order.orderNumber,
      amountDue: order.balance,
      details: this.account,
      steps: [
        `Send ${formatUsd(order.balance)} by bank transfer or wire to the account below.`,
        `Quote ${order.orderNumber} as the reference, so the payment finds your order.`,
        'We record the payment when it reaches us (usually one to three business days) and tell you.',
      ],
    };
  }
}
