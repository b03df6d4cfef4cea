import type { Cents, PaymentMethod } from '../../engine/domain';

/** What the buyer of an order is told to do to pay what is left. */
export interface PaymentInstructionsFor {
  readonly method: PaymentMethod;
  readonly title: string;
  /** What the buyer quotes with the payment, so it finds its order. */
  readonly reference: string;
  readonly amountDue: Cents;
  readonly details: ReadonlyArray<{ readonly label: string; readonly value: string }>;
  readonly steps: readonly string[];
}

/**
 * The payment port: each way of paying says how a buyer pays an order. The money arrives as a
 * PaymentRecorded event through the order's RecordPayment command, whoever issues it: an admin who
 * saw a bank transfer arrive (BANK_TRANSFER, the one method here), or, later, a card provider's
 * webhook (its own method, the SYSTEM actor) once its checkout has charged the card. Nothing else
 * in the order changes for a new method.
 */
export interface PaymentMethodPort {
  readonly method: PaymentMethod;
  instructions(order: { readonly orderNumber: string; readonly balance: Cents }): PaymentInstructionsFor;
}
