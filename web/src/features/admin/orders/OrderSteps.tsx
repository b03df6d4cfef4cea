import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { SnapshotFrom } from 'xstate';
import { FormField } from '../../../components/FormField';
import { TextAreaField } from '../../../components/TextAreaField';
import { formatUsd } from '../../../lib/money';
import { ActionDialog } from '../manage/ActionDialog';
import '../manage/manage.css';
import type { AdminOrder, OrderAction, OrderActionKind } from './api';
import {
  cancelFormSchema,
  localDate,
  paymentFormSchema,
  paymentRequest,
  shipmentFormSchema,
  shippingChargeFormSchema,
  typedDollars,
  type CancelForm,
  type PaymentForm,
  type ShipmentForm,
  type ShippingChargeForm,
} from './order-forms';
import { orderPath, RELISTED_LISTINGS_PATH } from './order-rules';
import { formatDateTime, type ActionNote, type OrderPanelEvent, type orderPanelMachine } from './orders-machines';
import { Section } from './OrderParts';

type PanelSnapshot = SnapshotFrom<typeof orderPanelMachine>;

/** What every step is given: whether a step is being sent (one at a time), and its own refusal. */
interface StepProps {
  readonly order: AdminOrder;
  /** Some step is being sent: every step waits. */
  readonly busy: boolean;
  /** This step is the one being sent. */
  readonly sending: boolean;
  readonly failure: string | null;
  readonly run: (action: OrderAction) => void;
}

/**
 * The steps the engine would take on the order now (its `adminActions`), each with its form or
 * button; the server still decides each, and says why when it refuses. What a step did is said at
 * the top (a live region, and focus moves there, as the step's own control may be gone); a refusal
 * is said under the step, its form kept as typed and focus left where it was. Buttons stay
 * focusable while a step is sent (aria-disabled), so that focus is never dropped.
 */
export function OrderSteps({ snapshot, send }: { snapshot: PanelSnapshot; send: (event: OrderPanelEvent) => void }) {
  const { order, failure, result, done, action } = snapshot.context;
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);
  if (!order) return null;

  const steps = order.adminActions;
  const busy = snapshot.matches({ ready: 'submitting' });
  const props = (kind: OrderActionKind): StepProps => ({
    order,
    busy,
    sending: busy && action?.kind === kind,
    failure: failure?.kind === kind ? failure.message : null,
    run: (next) => send({ type: 'RUN', action: next }),
  });
  const confirmingCancel = snapshot.matches({ ready: 'confirmingCancel' }) || (busy && action?.kind === 'cancel');
  const confirmingRelist = snapshot.matches({ ready: 'confirmingRelist' }) || (busy && action?.kind === 'relist');
  // A refusal whose step is no longer offered (the order changed meanwhile) is said at the top.
  const orphan = failure && !confirmingCancel && !confirmingRelist && !shownAtStep(failure, steps) ? failure : null;

  return (
    <Section title="Next steps" className="order__steps">
      <div role="status" className="order-steps__result">
        {result && (
          <div ref={resultRef} tabIndex={-1} className="banner banner--success order-steps__banner" data-testid="order-result">
            <span>
              {result.message}
              {result.kind === 'relist' && (
                <>
                  {' '}
                  <Link to={RELISTED_LISTINGS_PATH}>Open Manage</Link>
                </>
              )}
            </span>
            <button type="button" className="banner__dismiss order-steps__dismiss" aria-label="Dismiss" onClick={() => send({ type: 'DISMISS' })}>
              ×
            </button>
          </div>
        )}
      </div>
      {orphan && (
        <div className="banner banner--error" role="alert">
          {orphan.message}
        </div>
      )}

      {steps.recordPayment && <PaymentStep key={`payment-${done.payment ?? 0}`} {...props('payment')} />}
      {steps.ship && <ShipmentStep key={`shipment-${done.shipment ?? 0}`} {...props('shipment')} />}
      {steps.markDelivered && (
        <ButtonStep
          {...props('delivered')}
          title="Delivery"
          hint="When the carrier’s tracking shows it delivered: the sale completes. (The buyer may confirm it too; it counts as delivered 14 days after shipping.)"
          label="Mark delivered"
          sendingLabel="Marking delivered…"
          onClick={() => send({ type: 'RUN', action: { kind: 'delivered' } })}
        />
      )}
      {steps.changeShipping && <ShippingChargeStep key={`shipping-${done.shippingCharge ?? 0}`} {...props('shippingCharge')} />}
      {steps.cancel && (
        <ButtonStep
          {...props('cancel')}
          failure={null}
          title="Cancel the order"
          hint="While nothing has been paid, with a reason. Then offer the item to the runner-up, or relist it."
          label="Cancel order"
          sendingLabel="Cancel order"
          danger
          onClick={() => send({ type: 'ASK_CANCEL' })}
        />
      )}
      {steps.offerToRunnerUp && (
        <ButtonStep
          {...props('secondChance')}
          title="Offer to the runner-up"
          hint="The next-highest bidder is offered the item at their own highest bid, for 48 hours. Accepting places an order for them."
          label="Offer to the runner-up"
          sendingLabel="Making the offer…"
          onClick={() => send({ type: 'RUN', action: { kind: 'secondChance' } })}
        />
      )}
      {steps.relist && (
        <ButtonStep
          {...props('relist')}
          failure={null}
          title="Relist"
          hint="The listing goes back to NFC bound, its tag kept, to publish at a new auction."
          label="Relist item"
          sendingLabel="Relist item"
          onClick={() => send({ type: 'ASK_RELIST' })}
        />
      )}
      {/* Just relisted, the outcome above says it all. */}
      {result?.kind !== 'relist' && <NothingToDo order={order} />}

      {confirmingCancel && (
        <CancelDialog
          order={order}
          busy={busy}
          failure={failure?.kind === 'cancel' ? failure.message : null}
          onConfirm={(reason) => send({ type: 'RUN', action: { kind: 'cancel', reason } })}
          onClose={() => send({ type: 'CLOSE_DIALOG' })}
        />
      )}
      {confirmingRelist && (
        <RelistDialog
          order={order}
          busy={busy}
          failure={failure?.kind === 'relist' ? failure.message : null}
          onConfirm={() => send({ type: 'RUN', action: { kind: 'relist' } })}
          onClose={() => send({ type: 'CLOSE_DIALOG' })}
        />
      )}
    </Section>
  );
}

function shownAtStep(failure: ActionNote, steps: AdminOrder['adminActions']): boolean {
  const shown: Record<OrderActionKind, boolean> = {
    payment: steps.recordPayment,
    shippingCharge: steps.changeShipping,
    shipment: steps.ship,
    delivered: steps.markDelivered,
    cancel: false,
    secondChance: steps.offerToRunnerUp,
    relist: false,
  };
  return shown[failure.kind];
}

/** Where the order stands when no step is left to take, or none is the admin's to take now. */
function NothingToDo({ order }: { order: AdminOrder }) {
  const open = order.offers.find((offer) => offer.outcome === 'OPEN');
  if (order.status === 'SECOND_CHANCE_OFFERED') {
    return (
      <p className="order-steps__note">
        Waiting for the runner-up’s answer{open ? <> until {formatDateTime(open.expiresAt)}</> : null}. If they decline or let it expire, offer it to the next bidder or relist it.
      </p>
    );
  }
  if (order.status === 'DELIVERED' || order.status === 'COMPLETED') return <p className="order-steps__note">Nothing left to do: the sale is complete.</p>;
  if (order.status === 'CANCELLED' && order.successorOrderId) {
    return (
      <p className="order-steps__note">
        The runner-up accepted the offer: the item is sold to them. <Link to={orderPath(order.successorOrderId)}>Open their order</Link>
      </p>
    );
  }
  if (order.status === 'CANCELLED' && order.listingReleased) {
    return (
      <p className="order-steps__note">
        The item was relisted: the listing is back to NFC bound and can be published again from Manage. <Link to={RELISTED_LISTINGS_PATH}>Open Manage</Link>
      </p>
    );
  }
  return null;
}

function Step({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="order-step" aria-labelledby={id}>
      <h3 id={id} className="order-step__title">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The server's reason for refusing a step: announced where it happened. */
function StepFailure({ message }: { message: string | null }) {
  return message ? (
    <div className="banner banner--error order-step__failure" role="alert">
      {message}
    </div>
  ) : null;
}

/** A step's button: focusable while any step is sent (so focus stays on it), but inert. */
function StepButton({ busy, sending, label, sendingLabel, primary, danger, onClick }: { busy: boolean; sending: boolean; label: string; sendingLabel: string; primary?: boolean; danger?: boolean; onClick?: () => void }) {
  return (
    <button
      type={onClick ? 'button' : 'submit'}
      className={`button order-step__button${primary ? ' button--primary' : ''}${danger ? ' order-step__button--danger' : ''}`}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.();
      }}
    >
      {sending ? sendingLabel : label}
    </button>
  );
}

function ButtonStep({
  title,
  hint,
  label,
  sendingLabel,
  danger,
  busy,
  sending,
  failure,
  onClick,
}: StepProps & { title: string; hint: string; label: string; sendingLabel: string; danger?: boolean; onClick: () => void }) {
  return (
    <Step title={title}>
      <p className="muted order-step__hint">{hint}</p>
      <StepButton busy={busy} sending={sending} label={label} sendingLabel={sendingLabel} danger={danger ?? false} onClick={onClick} />
      <StepFailure message={failure} />
    </Step>
  );
}

function PaymentStep({ order, busy, sending, failure, run }: StepProps) {
  const { register, handleSubmit, formState } = useForm<PaymentForm>({
    resolver: zodResolver(paymentFormSchema),
    defaultValues: { amount: typedDollars(order.balance), reference: '', receivedAt: localDate() },
  });
  const { errors } = formState;
  return (
    <Step title="Record a payment">
      <p className="muted order-step__hint">A bank transfer or wire that arrived. Once the order is paid in full it can ship.</p>
      <form noValidate aria-label="Record a payment" onSubmit={handleSubmit((form) => !busy && run({ kind: 'payment', ...paymentRequest(form) }))}>
        <FormField
          label="Amount received ($)"
          inputMode="decimal"
          autoComplete="off"
          readOnly={sending}
          registration={register('amount')}
          error={errors.amount?.message}
          hint={<span className="field__hint">Balance due: {formatUsd(order.balance)}. Less keeps the order awaiting the rest.</span>}
        />
        <FormField
          label="Bank's transaction reference"
          autoComplete="off"
          readOnly={sending}
          registration={register('reference')}
          error={errors.reference?.message}
          hint={<span className="field__hint">The bank's own id for this transfer, from the statement (not {order.orderNumber}, which the buyer quotes on every transfer): each transfer is recorded once.</span>}
        />
        <FormField
          label="Date received"
          type="date"
          min={localDate(new Date(order.placedAt))}
          max={localDate()}
          readOnly={sending}
          registration={register('receivedAt')}
          error={errors.receivedAt?.message}
        />
        <StepButton busy={busy} sending={sending} label="Record payment" sendingLabel="Recording…" primary />
        <StepFailure message={failure} />
      </form>
    </Step>
  );
}

function ShipmentStep({ order, busy, sending, failure, run }: StepProps) {
  const { register, handleSubmit, formState } = useForm<ShipmentForm>({ resolver: zodResolver(shipmentFormSchema), defaultValues: { carrier: '', trackingNumber: '' } });
  const { errors } = formState;
  const carriers = useId();
  const waiting =
    order.shippingAddress === null
      ? 'The buyer has not given a shipping address yet: it ships once they do.'
      : `To ${order.shippingAddress.name}, ${order.shippingAddress.city}. The buyer is told the tracking number.`;
  return (
    <Step title="Ship">
      <p className="muted order-step__hint">{waiting}</p>
      {/* The address the admin reads here goes with the shipment: a change the buyer made since is refused, not shipped past. */}
      <form noValidate aria-label="Ship the order" onSubmit={handleSubmit((form) => !busy && order.shippingAddress && run({ kind: 'shipment', ...form, shipTo: order.shippingAddress }))}>
        <FormField label="Carrier" autoComplete="off" list={carriers} readOnly={sending} registration={register('carrier')} error={errors.carrier?.message} />
        <datalist id={carriers}>
          {['UPS', 'FedEx', 'USPS', 'DHL'].map((carrier) => (
            <option key={carrier} value={carrier} />
          ))}
        </datalist>
        <FormField label="Tracking number" autoComplete="off" spellCheck={false} readOnly={sending} registration={register('trackingNumber')} error={errors.trackingNumber?.message} />
        <StepButton busy={busy} sending={sending} label="Mark as shipped" sendingLabel="Shipping…" primary />
        <StepFailure message={failure} />
      </form>
    </Step>
  );
}

function ShippingChargeStep({ order, busy, sending, failure, run }: StepProps) {
  const { register, handleSubmit, formState } = useForm<ShippingChargeForm>({
    resolver: zodResolver(shippingChargeFormSchema),
    defaultValues: { shipping: typedDollars(order.shipping) },
  });
  return (
    <Step title="Shipping charge">
      <form noValidate aria-label="Change the shipping charge" onSubmit={handleSubmit((form) => !busy && run({ kind: 'shippingCharge', shipping: Number(form.shipping) }))}>
        <FormField
          label="Shipping charge ($)"
          inputMode="decimal"
          autoComplete="off"
          readOnly={sending}
          registration={register('shipping')}
          error={formState.errors.shipping?.message}
          hint={<span className="field__hint">Now {formatUsd(order.shipping)}. It can change until the order is paid in full; the total changes with it.</span>}
        />
        <StepButton busy={busy} sending={sending} label="Change shipping" sendingLabel="Changing…" />
        <StepFailure message={failure} />
      </form>
    </Step>
  );
}

function CancelDialog({ order, busy, failure, onConfirm, onClose }: { order: AdminOrder; busy: boolean; failure: string | null; onConfirm: (reason: string) => void; onClose: () => void }) {
  const { register, handleSubmit, formState } = useForm<CancelForm>({ resolver: zodResolver(cancelFormSchema), defaultValues: { reason: '' } });
  return (
    <ActionDialog title="Cancel this order?" busy={busy} onCancel={onClose}>
      <form noValidate aria-label="Cancel the order" onSubmit={handleSubmit(({ reason }) => !busy && onConfirm(reason))}>
        <p>
          {order.orderNumber}, <strong>{order.listing.title}</strong>, won by {order.buyer.name ?? 'the buyer'} for {formatUsd(order.total)}: the sale is called off and the buyer is told. The item can then go to the runner-up or be relisted.
        </p>
        <TextAreaField label="Reason for cancelling" rows={3} readOnly={busy} registration={register('reason')} error={formState.errors.reason?.message} />
        <StepFailure message={failure} />
        <div className="admin-dialog__actions">
          <StepButton busy={busy} sending={false} label="Keep the order" sendingLabel="Keep the order" onClick={onClose} />
          <StepButton busy={busy} sending={busy} label="Cancel order" sendingLabel="Cancelling…" danger />
        </div>
      </form>
    </ActionDialog>
  );
}

function RelistDialog({ order, busy, failure, onConfirm, onClose }: { order: AdminOrder; busy: boolean; failure: string | null; onConfirm: () => void; onClose: () => void }) {
  return (
    <ActionDialog title="Relist this item?" busy={busy} onCancel={onClose}>
      <p>
        <strong>{order.listing.title}</strong> goes back on sale: its listing returns to NFC bound, its tag kept, ready to publish at a new auction. No offer can then go to the runner-up.
      </p>
      <StepFailure message={failure} />
      <div className="admin-dialog__actions">
        <StepButton busy={busy} sending={false} label="Back" sendingLabel="Back" onClick={onClose} />
        <StepButton busy={busy} sending={busy} label="Relist item" sendingLabel="Relisting…" primary onClick={onConfirm} />
      </div>
    </ActionDialog>
  );
}
