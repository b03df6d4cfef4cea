import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buyersPremiumOn,
  DomainError,
  decideOrder,
  evolveOrder,
  fromMillis,
  initialOrderState,
  orderBalance,
  orderCommandSchema,
  orderEventSchema,
  orderTotal,
  type Actor,
  type CommandMetadata,
  type OrderCommand,
  type OrderState,
  type OrderStatus,
  type PlacedOrder,
} from '../../../engine/domain';

/**
 * Properties of the order decider: random terms (hammer price, premium rate, shipping, payment
 * window) and random sequences of after-sale commands (partial payments of any size, shipping
 * changes, the overdue mark, cancellation, second-chance offers and their answers, relisting...)
 * run through decideOrder / evolveOrder the way the command handler does. A refused command
 * appends nothing and the run goes on. The money is checked against a model kept from the accepted
 * commands alone, the premium against exact BigInt arithmetic.
 */

const RUNS = 300;
const BASE_MS = Date.parse('2026-12-08T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ORDER_ID = 'order-1';
const BUYER_ID = 'buyer-1';
/** Index 0 is the buyer, whom no offer may name. */
const BIDDERS = [BUYER_ID, 'bidder-2', 'bidder-3', 'bidder-4'] as const;

const ADMIN: Actor = { userId: 'admin-1', roles: ['ADMIN'] };
const SYSTEM: Actor = { userId: 'scheduler', roles: ['SYSTEM'] };
const buyer = (userId: string): Actor => ({ userId, roles: ['BUYER'] });

/** Round half up of hammer × bp / 10 000, in exact integers. */
function exactPremium(hammerPrice: number, basisPoints: number): number {
  return Number((BigInt(hammerPrice) * BigInt(basisPoints) + 5_000n) / 10_000n);
}

// ---- scenarios ------------------------------------------------------------------------------

type Action =
  /** A payment of `perMille` thousandths of the balance (at least a cent; above 1000 overpays). */
  | { readonly kind: 'pay'; readonly perMille: number; readonly reuseReference: boolean; readonly receivedAgoMs: number }
  | { readonly kind: 'payRest' }
  /** The balance but a few cents: paid into the shipping charge. */
  | { readonly kind: 'payAllBut'; readonly cents: number }
  | { readonly kind: 'shipping'; readonly shipping: number }
  /** A shipping charge that makes the total what was paid, plus `offset` cents (when it can). */
  | { readonly kind: 'shippingToPaid'; readonly offset: number }
  | { readonly kind: 'overdue' }
  | { readonly kind: 'address' }
  | { readonly kind: 'ship' }
  | { readonly kind: 'confirm'; readonly by: 'BUYER' | 'ADMIN' | 'SYSTEM' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'offer'; readonly bidder: number | null; readonly amount: number }
  | { readonly kind: 'answer'; readonly how: 'accept' | 'decline' | 'expire' }
  | { readonly kind: 'release' }
  | { readonly kind: 'placeAgain' };

interface Step {
  readonly advanceMs: number;
  readonly action: Action;
}

interface Scenario {
  readonly hammerPrice: number;
  readonly basisPoints: number;
  readonly shipping: number;
  readonly paymentWindowSeconds: number;
  readonly steps: readonly Step[];
}

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      perMille: fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1_001, max: 1_100 })),
      reuseReference: fc.boolean(),
      receivedAgoMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3 * DAY }), fc.constant(-1_000)),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: 'payRest' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payAllBut' as const), cents: fc.integer({ min: 1, max: 2_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('shipping' as const), shipping: fc.integer({ min: 0, max: 50_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('shippingToPaid' as const), offset: fc.constantFrom(-1, 0, 0, 1) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'overdue' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'address' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'ship' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('confirm' as const), by: fc.constantFrom('BUYER' as const, 'ADMIN' as const, 'SYSTEM' as const) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'cancel' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('offer' as const),
      bidder: fc.option(fc.integer({ min: 0, max: BIDDERS.length - 1 }), { freq: 6 }),
      amount: fc.integer({ min: 1, max: 10_000_000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('answer' as const), how: fc.constantFrom('accept' as const, 'decline' as const, 'expire' as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'release' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'placeAgain' as const }) },
);

const stepArb: fc.Arbitrary<Step> = fc.record({
  advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 * HOUR }), fc.integer({ min: DAY, max: 16 * DAY })),
  action: actionArb,
});

const at = (action: Action): Step => ({ advanceMs: HOUR, action });
const between = fc.array(stepArb, { maxLength: 5 });

/**
 * Paying the rest: at once, or all but a few cents, the same reference again in another spelling,
 * the shipping brought to (or just below, or just above) what was paid, then whatever is left.
 */
const settleArb: fc.Arbitrary<Step[]> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Step[]>([at({ kind: 'payRest' })]) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom(-1, -1, 0, 1)).map(([cents, offset]) => [
      at({ kind: 'payAllBut', cents }),
      at({ kind: 'pay', perMille: 1, reuseReference: true, receivedAgoMs: 0 }),
      at({ kind: 'shippingToPaid', offset }),
      at({ kind: 'payRest' }),
    ]),
  },
);

/** The way to COMPLETED (address, paid, shipped, confirmed by the buyer), with random steps in between. */
const settlementArb: fc.Arbitrary<Step[]> = fc
  .tuple(between, between, settleArb, between, between, between)
  .map(([a, b, settle, c, d, e]) => [...a, at({ kind: 'address' }), ...b, ...settle, ...c, at({ kind: 'ship' }), ...d, at({ kind: 'confirm', by: 'BUYER' }), ...e]);

/** The way to a second chance (overdue past any window, cancelled, offered, answered, offered again, relisted), with random steps in between. */
const lapseArb: fc.Arbitrary<Step[]> = fc
  .tuple(between, between, between, between, between, fc.integer({ min: 1, max: BIDDERS.length - 1 }), fc.constantFrom('accept' as const, 'decline' as const, 'expire' as const))
  .map(([a, b, c, d, e, bidder, how]) => [
    ...a,
    { advanceMs: 31 * DAY, action: { kind: 'overdue' } },
    ...b,
    at({ kind: 'cancel' }),
    ...c,
    at({ kind: 'offer', bidder, amount: 50_000 }),
    ...d,
    { advanceMs: how === 'expire' ? 2 * DAY : HOUR, action: { kind: 'answer', how } },
    ...e,
    at({ kind: 'offer', bidder: (bidder % (BIDDERS.length - 1)) + 1, amount: 40_000 }),
    at({ kind: 'answer', how: 'decline' }),
    at({ kind: 'release' }),
  ]);

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  // Up to $1bn: the totals stay far inside exact integers.
  hammerPrice: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 100_000_000_000 })),
  basisPoints: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.constantFrom(0, 2_000, 5_000)),
  shipping: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 0, max: 50_000 }) }),
  paymentWindowSeconds: fc.oneof(fc.constant(36), fc.integer({ min: 36, max: 30 * 24 * 3_600 })),
  steps: fc.oneof(fc.array(stepArb, { maxLength: 30 }), settlementArb, lapseArb),
});

// ---- the driver -----------------------------------------------------------------------------

const STATUS_EDGES: ReadonlySet<string> = new Set([
  'NONE->AWAITING_PAYMENT',
  'AWAITING_PAYMENT->PAID',
  'AWAITING_PAYMENT->PAYMENT_OVERDUE',
  'AWAITING_PAYMENT->CANCELLED',
  'PAYMENT_OVERDUE->PAID',
  'PAYMENT_OVERDUE->CANCELLED',
  'PAID->SHIPPED',
  'SHIPPED->DELIVERED',
  'DELIVERED->COMPLETED',
  'CANCELLED->SECOND_CHANCE_OFFERED',
  'SECOND_CHANCE_OFFERED->CANCELLED',
]);

const BEFORE_SHIPPING: ReadonlySet<OrderStatus> = new Set(['AWAITING_PAYMENT', 'PAYMENT_OVERDUE', 'PAID', 'CANCELLED', 'SECOND_CHANCE_OFFERED']);

/** Statuses and edges any run reached: the generator must reach every one, or the properties prove little. */
const reached = { statuses: new Set<string>(), edges: new Set<string>(), refusals: new Set<string>() };

/** Hot loops compare first and let expect build the report only on failure. */
function must(condition: boolean, actual: unknown, message: string): void {
  if (!condition) expect(actual, message).toBe('a value satisfying the property');
}

function placed(state: OrderState): PlacedOrder {
  if (state.status === 'NONE') throw new Error('the order was not placed');
  return state;
}

/** The command `action` stands for in `state`, at `nowMs`; step `index` names its ids. */
function commandFor(action: Action, state: PlacedOrder, nowMs: number, index: number, lastReference: string | null, scenario: Scenario): OrderCommand {
  const meta = (actor: Actor): CommandMetadata => ({ actor, now: fromMillis(nowMs), correlationId: `corr-${index}`, commandId: `cmd-${index}` });
  const orderId = ORDER_ID;
  const balance = orderBalance(state);
  const lastOffer = state.offers.at(-1);
  switch (action.kind) {
    case 'pay': {
      const amount = Math.max(1, Math.floor((balance * action.perMille) / 1_000));
      const reference = action.reuseReference && lastReference !== null ? ` ${lastReference.toLowerCase().split('').join(' ')} ` : `WIRE-${index}`;
      const receivedAt = fromMillis(nowMs - action.receivedAgoMs);
      return { type: 'RecordPayment', data: { orderId, paymentId: `payment-${index}`, method: 'BANK_TRANSFER', amount, reference, receivedAt }, metadata: meta(ADMIN) };
    }
    case 'payRest':
    case 'payAllBut': {
      const amount = Math.max(1, balance - (action.kind === 'payAllBut' ? action.cents : 0));
      return {
        type: 'RecordPayment',
        data: { orderId, paymentId: `payment-${index}`, method: 'BANK_TRANSFER', amount, reference: `WIRE-${index}`, receivedAt: fromMillis(nowMs) },
        metadata: meta(ADMIN),
      };
    }
    case 'shipping':
      return { type: 'ChangeShippingCharge', data: { orderId, shipping: action.shipping }, metadata: meta(ADMIN) };
    case 'shippingToPaid': {
      const shipping = Math.max(0, state.amountPaid - state.facts.hammerPrice - state.facts.buyersPremium + action.offset);
      return { type: 'ChangeShippingCharge', data: { orderId, shipping }, metadata: meta(ADMIN) };
    }
    case 'overdue':
      return { type: 'MarkPaymentOverdue', data: { orderId }, metadata: meta(SYSTEM) };
    case 'address': {
      const address = { name: 'Jordan Avery', line1: '350 Fifth Avenue', line2: null, city: 'New York', region: 'NY', postalCode: `1${String(index % 10_000).padStart(4, '0')}`, country: 'US' };
      return { type: 'SetShippingAddress', data: { orderId, address }, metadata: meta(buyer(BUYER_ID)) };
    }
    case 'ship':
      return { type: 'ShipOrder', data: { orderId, carrier: 'UPS', trackingNumber: `1Z${index}`, shipTo: state.address }, metadata: meta(ADMIN) };
    case 'confirm':
      return { type: 'ConfirmDelivery', data: { orderId }, metadata: meta(action.by === 'BUYER' ? buyer(BUYER_ID) : action.by === 'ADMIN' ? ADMIN : SYSTEM) };
    case 'cancel':
      return { type: 'CancelOrder', data: { orderId, reason: 'The buyer did not pay' }, metadata: meta(ADMIN) };
    case 'offer': {
      const candidate = action.bidder === null ? null : { bidderId: BIDDERS[action.bidder]!, amount: action.amount };
      return { type: 'OfferSecondChance', data: { orderId, offerId: `offer-${index}`, candidate }, metadata: meta(ADMIN) };
    }
    case 'answer': {
      const offerId = lastOffer?.offerId ?? 'offer-none';
      const bidder = buyer(lastOffer?.bidderId ?? BIDDERS[1]);
      if (action.how === 'accept') return { type: 'AcceptSecondChance', data: { orderId, offerId, newOrderId: `order-${index}`, newOrderNumber: 'PRV-R4NNER2P' }, metadata: meta(bidder) };
      if (action.how === 'decline') return { type: 'DeclineSecondChance', data: { orderId, offerId }, metadata: meta(bidder) };
      return { type: 'ExpireSecondChance', data: { orderId, offerId }, metadata: meta(SYSTEM) };
    }
    case 'release':
      return { type: 'ReleaseListing', data: { orderId }, metadata: meta(ADMIN) };
    case 'placeAgain':
      return placeCommand(scenario, nowMs, index);
  }
}

function placeCommand(scenario: Scenario, nowMs: number, index: number): OrderCommand {
  const { hammerPrice, basisPoints, shipping, paymentWindowSeconds } = scenario;
  return {
    type: 'PlaceOrder',
    data: {
      orderId: ORDER_ID,
      orderNumber: 'PRV-7K3QX9MA',
      auctionId: 'auction-1',
      listingId: 'listing-1',
      buyerId: BUYER_ID,
      hammerPrice,
      buyersPremiumBasisPoints: basisPoints,
      shipping,
      paymentWindowSeconds,
      origin: { kind: 'SALE' },
    },
    metadata: { actor: SYSTEM, now: fromMillis(nowMs), correlationId: `corr-${index}`, commandId: `cmd-${index}` },
  };
}

/**
 * Runs the scenario and checks, after every event and every accepted command, the properties
 * stated on the model: what was accepted, not how the engine computed it.
 */
function run(scenario: Scenario): void {
  const premium = exactPremium(scenario.hammerPrice, scenario.basisPoints);
  const model = { shipping: scenario.shipping, paid: 0 };
  let state: OrderState = initialOrderState;
  let nowMs = BASE_MS;
  let lastReference: string | null = null;

  const apply = (command: OrderCommand): boolean => {
    must(orderCommandSchema.safeParse(command).success, command, 'the generator issues only well-formed commands');
    let events;
    try {
      events = decideOrder(command, state);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      reached.refusals.add(error.code);
      return false;
    }
    for (const event of events) {
      must(orderEventSchema.safeParse(event).success, event, 'every event fits its schema');
      must(event.metadata.actorId === command.metadata.actor.userId && event.metadata.occurredAt === command.metadata.now, event.metadata, "every event carries the command's actor and time");
      const next = evolveOrder(state, event);
      if (next.status !== state.status) {
        const edge = `${state.status}->${next.status}`;
        must(STATUS_EDGES.has(edge), edge, `no status is skipped (${event.type})`);
        reached.edges.add(edge);
      }
      state = next;
    }
    if (command.type === 'RecordPayment' && events.length > 0) {
      model.paid += command.data.amount;
      lastReference = command.data.reference.trim();
    }
    if (command.type === 'ChangeShippingCharge' && events.length > 0) model.shipping = command.data.shipping;
    return true;
  };

  must(apply(placeCommand(scenario, nowMs, 0)), scenario, 'the order is placed');
  const first = placed(state);
  must(first.facts.buyersPremium === premium, [first.facts.buyersPremium, premium], 'the premium is hammer × rate, rounded half up');
  must(first.facts.paymentDueAt === fromMillis(BASE_MS + scenario.paymentWindowSeconds * 1_000), first.facts.paymentDueAt, 'due a window after it was placed');

  scenario.steps.forEach((step, i) => {
    nowMs += step.advanceMs;
    apply(commandFor(step.action, placed(state), nowMs, i + 1, lastReference, scenario));
    const order = placed(state);
    reached.statuses.add(order.status);
    const total = orderTotal(order);
    must(total === scenario.hammerPrice + premium + model.shipping, [total, scenario.hammerPrice, premium, model.shipping], 'total == hammer + premium + shipping');
    must(order.amountPaid === model.paid, [order.amountPaid, model.paid], 'amountPaid is the sum of the payments recorded');
    must(order.amountPaid <= total, [order.amountPaid, total], 'amountPaid never exceeds the total');
    if (BEFORE_SHIPPING.has(order.status)) {
      must((order.status === 'PAID') === (order.amountPaid === total), [order.status, order.amountPaid, total], 'PAID exactly when paid in full, before shipping');
    } else {
      must(order.amountPaid === total, [order.status, order.amountPaid, total], 'nothing ships unpaid');
    }
    if (order.status === 'CANCELLED' || order.status === 'SECOND_CHANCE_OFFERED') must(order.amountPaid === 0, order.amountPaid, 'a cancelled order had no payments');
  });
}

// ---- properties -----------------------------------------------------------------------------

describe('order properties', () => {
  it('over random terms and command sequences: the total, the payments and the status hold together', () => {
    fc.assert(fc.property(scenarioArb, run), { numRuns: RUNS });
    // The runs reached every status and every edge, and met the refusals the rules describe.
    expect([...reached.statuses].sort()).toEqual(['AWAITING_PAYMENT', 'CANCELLED', 'COMPLETED', 'PAID', 'PAYMENT_OVERDUE', 'SECOND_CHANCE_OFFERED', 'SHIPPED'].sort());
    expect([...reached.edges].sort()).toEqual([...STATUS_EDGES].sort());
    for (const code of ['PAYMENT_EXCEEDS_BALANCE', 'PAYMENT_ALREADY_RECORDED', 'PAYMENT_IN_FUTURE', 'SHIPPING_BELOW_PAID', 'ORDER_ALREADY_PLACED', 'ORDER_NOT_PAID']) {
      expect(reached.refusals, code).toContain(code);
    }
  });

  it('buyersPremiumOn is round half up of hammer × bp / 10 000, exactly, for every hammer price the schema allows', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
        fc.integer({ min: 0, max: 5_000 }),
        (hammerPrice, basisPoints) => {
          const premium = buyersPremiumOn(hammerPrice, basisPoints);
          must(premium === exactPremium(hammerPrice, basisPoints), [hammerPrice, basisPoints, premium], 'exact');
          must(Number.isSafeInteger(premium), premium, 'a whole number of cents');
        },
      ),
      {
        numRuns: RUNS * 3,
        examples: [
          [12_345, 1_000],
          [1, 5_000],
          [Number.MAX_SAFE_INTEGER, 5_000],
          [Number.MAX_SAFE_INTEGER, 4_999],
          [1_801_439_850_948, 5_000],
        ],
      },
    );
  });
});
