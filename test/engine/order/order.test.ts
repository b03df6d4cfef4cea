import { describe, expect, test } from 'vitest';
import {
  afterSaleTermsOf,
  AUTOMATIC_DELIVERY_MS,
  buyersPremiumOn,
  decideListingRelease,
  decideSecondChanceAcceptance,
  DEFAULT_AFTER_SALE_TERMS,
  fold,
  listingDecider,
  orderBalance,
  orderDecider,
  orderTotal,
  SECOND_CHANCE_OFFER_MS,
  type OrderCommand,
  type OrderEvent,
} from '../../../engine/domain';
import { acrossTwo, refusal, spec } from '../given-when-then';
import { admin, AUCTION_ID, auctionRules, buyer, LISTING_ID, liveListing, plusSeconds, scheduler, TAG_UID } from '../fixtures';
import {
  acceptSecondChance,
  addressedOrder,
  after,
  BUYER_ID,
  BUYERS_PREMIUM,
  cancelledOrder,
  cancelOrder,
  CANCELLED_AT,
  causedBy,
  changeShippingCharge,
  completedOrder,
  confirmDelivery,
  declineSecondChance,
  DELIVERED_AT,
  expireSecondChance,
  GB_ADDRESS,
  HAMMER_PRICE,
  markPaymentOverdue,
  offeredOrder,
  OFFERED_AT,
  OFFER_EXPIRES_AT,
  offerSecondChance,
  ORDER_ID,
  ORDER_NUMBER,
  orderBuyer,
  orderPlaced,
  orderTerms,
  overdueOrder,
  PAID_AT,
  paidOrder,
  PAYMENT_DUE_AT,
  PAYMENT_WINDOW_SECONDS,
  placedOrder,
  placedState,
  placeOrder,
  PLACED_AT,
  PREMIUM_BASIS_POINTS,
  recordPayment,
  releaseListing,
  RUNNER_UP_AMOUNT,
  RUNNER_UP_ID,
  runnerUp,
  runnerUpCandidate,
  setShippingAddress,
  SHIPPED_AT,
  shippedOrder,
  shipOrder,
  SHIPPING,
  soldListing,
  stateOf,
  SUCCESSOR_ORDER_ID,
  SUCCESSOR_ORDER_NUMBER,
  THIRD_BIDDER_AMOUNT,
  THIRD_BIDDER_ID,
  thirdBidder,
  thirdBidderCandidate,
  TOTAL,
  US_ADDRESS,
} from './order-fixtures';

const order = spec(orderDecider);

/** Two deciders, one decision: given(order history, listing history).when(ReleaseListing).then... */
const release = acrossTwo(orderDecider, listingDecider, decideListingRelease);

const stranger = buyer('buyer-2');

// ---------------------------------------------------------------------------------------------

describe('afterSaleTermsOf', () => {
  test('an auction scheduled before after-sale terms existed charges no premium (its bidders were shown none), with a week to pay; a publication gets 20% unless told otherwise', () => {
    expect(afterSaleTermsOf(auctionRules())).toEqual({ buyersPremiumBasisPoints: 0, paymentWindowSeconds: 604_800 });
    expect(DEFAULT_AFTER_SALE_TERMS).toEqual({ buyersPremiumBasisPoints: 2_000, paymentWindowSeconds: 604_800 });
  });

  test("an auction's own terms win, a 0% premium included", () => {
    expect(afterSaleTermsOf(auctionRules({ buyersPremiumBasisPoints: 1_500, paymentWindowSeconds: 3_600 }))).toEqual({
      buyersPremiumBasisPoints: 1_500,
      paymentWindowSeconds: 3_600,
    });
    expect(afterSaleTermsOf(auctionRules({ buyersPremiumBasisPoints: 0 }))).toEqual({ buyersPremiumBasisPoints: 0, paymentWindowSeconds: 604_800 });
  });
});

// ---------------------------------------------------------------------------------------------

describe('PlaceOrder', () => {
  test('the system places the order: hammer, 20% premium, shipping, due a week later', () => {
    order
      .given([])
      .when(placeOrder())
      .thenEvents([
        {
          type: 'OrderPlaced',
          data: {
            orderId: ORDER_ID,
            orderNumber: ORDER_NUMBER,
            auctionId: AUCTION_ID,
            listingId: LISTING_ID,
            buyerId: BUYER_ID,
            hammerPrice: 100_000,
            buyersPremiumBasisPoints: 2_000,
            buyersPremium: 20_000,
            shipping: 2_500,
            paymentWindowSeconds: 604_800,
            origin: { kind: 'SALE' },
            placedAt: '2026-12-08T12:00:00.000Z',
            paymentDueAt: '2026-12-15T12:00:00.000Z',
          },
          metadata: { actorId: 'scheduler', actorRoles: ['SYSTEM'], occurredAt: PLACED_AT, correlationId: 'corr-1', commandId: 'cmd-PlaceOrder' },
        },
      ]);
  });

  test('a placed order awaits $1,225.00 with nothing paid, no address and no offers', () => {
    const state = placedState(placedOrder());
    expect(state).toMatchObject({ status: 'AWAITING_PAYMENT', shipping: SHIPPING, amountPaid: 0, address: null, shipment: null, offers: [], successorOrderId: null, listingReleased: false });
    expect(orderTotal(state)).toBe(122_500);
    expect(orderBalance(state)).toBe(122_500);
  });

  test.each([
    [12_344, 1_000, 1_234], // $12.344 -> $12.34
    [12_345, 1_000, 1_235], // $12.345 -> $12.35: half up
    [10_002, 2_500, 2_501], // $25.005 -> $25.01
    [1, 5_000, 1], // half a cent -> a cent
    [1, 4_999, 0],
    [99_999, 0, 0],
    [100_000, 5_000, 50_000],
  ])('a hammer of %i cents at %i bp: a premium of %i cents, rounded half up', (hammerPrice, basisPoints, premium) => {
    expect(buyersPremiumOn(hammerPrice, basisPoints)).toBe(premium);
    order
      .given([])
      .when(placeOrder({ hammerPrice, buyersPremiumBasisPoints: basisPoints }))
      .thenEventsMatch([{ type: 'OrderPlaced', data: { hammerPrice, buyersPremiumBasisPoints: basisPoints, buyersPremium: premium } }]);
  });

  test('the payment is due the payment window after the order is placed', () => {
    order
      .given([])
      .when(placeOrder({ paymentWindowSeconds: 36 }, { at: '2026-12-08T12:00:00.500Z' }))
      .thenEventsMatch([{ type: 'OrderPlaced', data: { placedAt: '2026-12-08T12:00:00.500Z', paymentDueAt: '2026-12-08T12:00:36.500Z' } }]);
    order
      .given([])
      .when(placeOrder({ paymentWindowSeconds: 3 * 24 * 3_600 }))
      .thenEventsMatch([{ type: 'OrderPlaced', data: { paymentDueAt: '2026-12-11T12:00:00.000Z' } }]);
  });

  test('only the system places orders: FORBIDDEN', () => {
    order.given([]).when(placeOrder({}, { actor: admin })).thenError('FORBIDDEN', 'Access denied');
    order.given([]).when(placeOrder({}, { actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
  });

  test('placing an order twice: ORDER_ALREADY_PLACED', () => {
    order.given(placedOrder()).when(placeOrder()).thenError('ORDER_ALREADY_PLACED', 'This order has already been placed');
    order.given(cancelledOrder()).when(placeOrder()).thenError('ORDER_ALREADY_PLACED', 'This order has already been placed');
  });
});

// ---------------------------------------------------------------------------------------------

describe('commands on no order', () => {
  test.each<[string, OrderCommand]>([
    ['SetShippingAddress', setShippingAddress()],
    ['ChangeShippingCharge', changeShippingCharge(0)],
    ['RecordPayment', recordPayment(1_000)],
    ['MarkPaymentOverdue', markPaymentOverdue()],
    ['ShipOrder', shipOrder()],
    ['ConfirmDelivery', confirmDelivery()],
    ['CancelOrder', cancelOrder()],
    ['OfferSecondChance', offerSecondChance()],
    ['AcceptSecondChance', acceptSecondChance()],
    ['DeclineSecondChance', declineSecondChance()],
    ['ExpireSecondChance', expireSecondChance()],
    ['ReleaseListing', releaseListing()],
  ])('%s: ORDER_NOT_FOUND', (_, command) => {
    const error = order.given([]).when(command).thenError('ORDER_NOT_FOUND', 'Order not found');
    expect(error.kind).toBe('not_found');
  });
});

// ---------------------------------------------------------------------------------------------

describe('SetShippingAddress', () => {
  test('the buyer gives an address: ShippingAddressSet', () => {
    const command = setShippingAddress();
    order
      .given(placedOrder())
      .when(command)
      .thenEvents([{ type: 'ShippingAddressSet', data: { orderId: ORDER_ID, address: US_ADDRESS }, metadata: causedBy(command) }]);
    expect(causedBy(command)).toMatchObject({ actorId: BUYER_ID, actorRoles: ['BUYER'] });
    expect(placedState(addressedOrder()).address).toEqual(US_ADDRESS);
  });

  test('the address is recorded as the schema reads it: trimmed, country upper-cased, empty lines null', () => {
    order
      .given(placedOrder())
      .when(setShippingAddress({ ...US_ADDRESS, city: '  New York ', line2: '', country: 'us' }))
      .thenEventsMatch([{ type: 'ShippingAddressSet', data: { address: { ...US_ADDRESS, line2: null } } }]);
  });

  test('a ZIP+4 code and addresses outside the US are accepted', () => {
    order
      .given(placedOrder())
      .when(setShippingAddress({ ...US_ADDRESS, postalCode: '10118-0110' }))
      .thenEventsMatch([{ type: 'ShippingAddressSet', data: { address: { postalCode: '10118-0110' } } }]);
    order.given(placedOrder()).when(setShippingAddress(GB_ADDRESS)).thenEventsMatch([{ type: 'ShippingAddressSet', data: { address: GB_ADDRESS } }]);
    order
      .given(placedOrder())
      .when(setShippingAddress({ ...GB_ADDRESS, city: 'Paris', postalCode: '75008', country: 'FR' }))
      .thenEventsMatch([{ type: 'ShippingAddressSet', data: { address: { country: 'FR', region: null } } }]);
  });

  test('the buyer may change the address until the order ships', () => {
    order.given(addressedOrder()).when(setShippingAddress(GB_ADDRESS)).thenEventsMatch([{ type: 'ShippingAddressSet', data: { address: GB_ADDRESS } }]);
  });

  test('the same address again changes nothing, however it is typed', () => {
    order.given(addressedOrder()).when(setShippingAddress()).thenNothing();
    order.given(addressedOrder()).when(setShippingAddress({ ...US_ADDRESS, name: ' Jordan Avery ', country: 'us' })).thenNothing();
  });

  test('a paid order may still change its address', () => {
    order.given(paidOrder()).when(setShippingAddress(GB_ADDRESS)).thenEventsMatch([{ type: 'ShippingAddressSet', data: { address: GB_ADDRESS } }]);
  });

  test('only the buyer gives the address: FORBIDDEN for an admin, another buyer, the system', () => {
    for (const actor of [admin, stranger, scheduler]) {
      order.given(placedOrder()).when(setShippingAddress(US_ADDRESS, { actor })).thenError('FORBIDDEN', 'Access denied');
    }
  });

  test('a country that is not ISO 3166-1: ADDRESS_INVALID', () => {
    for (const country of ['XX', 'USA', 'U1', '']) {
      const error = order
        .given(placedOrder())
        .when(setShippingAddress({ ...US_ADDRESS, country }))
        .thenError('ADDRESS_INVALID', 'Choose a country (an ISO 3166-1 two-letter code)');
      expect(error.details).toEqual({ field: 'country' });
      expect(error.kind).toBe('invalid');
    }
  });

  test('a postal code not of the country’s form: ADDRESS_INVALID', () => {
    const error = order
      .given(placedOrder())
      .when(setShippingAddress({ ...US_ADDRESS, postalCode: '1011' }))
      .thenError('ADDRESS_INVALID', 'Enter a postal code like 10001 or 10001-1234');
    expect(error.details).toEqual({ field: 'postalCode' });
    order
      .given(placedOrder())
      .when(setShippingAddress({ ...US_ADDRESS, region: 'ON', postalCode: '12345', country: 'CA' }))
      .thenError('ADDRESS_INVALID', 'Enter a postal code like K1A 0B1');
    order
      .given(placedOrder())
      .when(setShippingAddress({ ...GB_ADDRESS, postalCode: '12345' }))
      .thenError('ADDRESS_INVALID', 'Enter a postal code like SW1A 1AA');
    order
      .given(placedOrder())
      .when(setShippingAddress({ ...GB_ADDRESS, postalCode: '7', country: 'FR' }))
      .thenError('ADDRESS_INVALID', 'Enter a valid postal code');
  });

  test('no state or province for the US, Canada or Australia: ADDRESS_INVALID', () => {
    const addresses = [
      { ...US_ADDRESS, region: null },
      { ...US_ADDRESS, region: '  ' },
      { ...US_ADDRESS, region: null, postalCode: 'K1A 0B1', country: 'CA' },
      { ...US_ADDRESS, region: null, postalCode: '2000', country: 'AU' },
    ];
    for (const address of addresses) {
      const error = order.given(placedOrder()).when(setShippingAddress(address)).thenError('ADDRESS_INVALID', 'Enter the state or province');
      expect(error.details).toEqual({ field: 'region' });
    }
  });

  test('a missing recipient: ADDRESS_INVALID', () => {
    order.given(placedOrder()).when(setShippingAddress({ ...US_ADDRESS, name: ' ' })).thenError('ADDRESS_INVALID', 'Enter the recipient’s name');
  });

  test('after shipping: ORDER_ALREADY_SHIPPED', () => {
    order
      .given(shippedOrder())
      .when(setShippingAddress(GB_ADDRESS))
      .thenError('ORDER_ALREADY_SHIPPED', 'This order has shipped: its address can no longer change');
    order.given(completedOrder()).when(setShippingAddress(GB_ADDRESS)).thenError('ORDER_ALREADY_SHIPPED', 'This order has shipped: its address can no longer change');
  });

  test('a cancelled order: ORDER_CANCELLED', () => {
    order.given(cancelledOrder()).when(setShippingAddress()).thenError('ORDER_CANCELLED', 'This order was cancelled');
    order.given(offeredOrder()).when(setShippingAddress()).thenError('ORDER_CANCELLED', 'This order was cancelled');
  });
});

// ---------------------------------------------------------------------------------------------

describe('ChangeShippingCharge', () => {
  test('an admin changes the shipping: ShippingChargeChanged, and the total follows', () => {
    const command = changeShippingCharge(4_000);
    order
      .given(placedOrder())
      .when(command)
      .thenEvents([{ type: 'ShippingChargeChanged', data: { orderId: ORDER_ID, previousShipping: 2_500, shipping: 4_000 }, metadata: causedBy(command) }]);
    expect(orderTotal(placedState(after(placedOrder(), command)))).toBe(124_000);
  });

  test('free shipping, and an overdue order, are fine', () => {
    order.given(placedOrder()).when(changeShippingCharge(0)).thenEventsMatch([{ type: 'ShippingChargeChanged', data: { previousShipping: 2_500, shipping: 0 } }]);
    order.given(overdueOrder()).when(changeShippingCharge(0)).thenEventsMatch([{ type: 'ShippingChargeChanged', data: { shipping: 0 } }]);
  });

  test('the same charge changes nothing', () => {
    order.given(placedOrder()).when(changeShippingCharge(SHIPPING)).thenNothing();
  });

  test('a total below what was paid: SHIPPING_BELOW_PAID', () => {
    order
      .given(after(placedOrder(), recordPayment(121_000)))
      .when(changeShippingCharge(999))
      .thenError('SHIPPING_BELOW_PAID', 'The total would fall below the $1,210.00 already paid');
  });

  test('a total equal to what was paid: ShippingChargeChanged and OrderPaid', () => {
    const command = changeShippingCharge(1_000);
    order
      .given(after(placedOrder(), recordPayment(121_000)))
      .when(command)
      .thenEvents([
        { type: 'ShippingChargeChanged', data: { orderId: ORDER_ID, previousShipping: 2_500, shipping: 1_000 }, metadata: causedBy(command) },
        { type: 'OrderPaid', data: { orderId: ORDER_ID, paidAt: command.metadata.now }, metadata: causedBy(command) },
      ]);
    expect(stateOf(after(placedOrder(), recordPayment(121_000), command)).status).toBe('PAID');
  });

  test('a paid order: ORDER_ALREADY_PAID', () => {
    order.given(paidOrder()).when(changeShippingCharge(5_000)).thenError('ORDER_ALREADY_PAID', 'This order is already paid in full');
    order.given(shippedOrder()).when(changeShippingCharge(5_000)).thenError('ORDER_ALREADY_PAID', 'This order is already paid in full');
  });

  test('a cancelled order: ORDER_CANCELLED', () => {
    order.given(cancelledOrder()).when(changeShippingCharge(5_000)).thenError('ORDER_CANCELLED', 'This order was cancelled');
  });

  test('only an admin: FORBIDDEN', () => {
    order.given(placedOrder()).when(changeShippingCharge(0, { actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
    order.given(placedOrder()).when(changeShippingCharge(0, { actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('RecordPayment', () => {
  test('a partial payment is recorded and the order still awaits the rest', () => {
    const command = recordPayment(50_000, { paymentId: 'payment-1', reference: 'WIRE 123' });
    order
      .given(placedOrder())
      .when(command)
      .thenEvents([
        {
          type: 'PaymentRecorded',
          data: { orderId: ORDER_ID, paymentId: 'payment-1', method: 'BANK_TRANSFER', amount: 50_000, reference: 'WIRE 123', receivedAt: PAID_AT, amountPaid: 50_000 },
          metadata: causedBy(command),
        },
      ]);
    const state = placedState(after(placedOrder(), command));
    expect(state).toMatchObject({ status: 'AWAITING_PAYMENT', amountPaid: 50_000 });
    expect(orderBalance(state)).toBe(72_500);
  });

  test('the rest: PaymentRecorded and OrderPaid', () => {
    const command = recordPayment(72_500, { paymentId: 'payment-2', reference: 'WIRE 456', at: '2026-12-10T09:00:00.000Z', receivedAt: '2026-12-10T00:00:00.000Z' });
    order
      .given(after(placedOrder(), recordPayment(50_000)))
      .when(command)
      .thenEvents([
        {
          type: 'PaymentRecorded',
          data: {
            orderId: ORDER_ID,
            paymentId: 'payment-2',
            method: 'BANK_TRANSFER',
            amount: 72_500,
            reference: 'WIRE 456',
            receivedAt: '2026-12-10T00:00:00.000Z',
            amountPaid: 122_500,
          },
          metadata: causedBy(command),
        },
        { type: 'OrderPaid', data: { orderId: ORDER_ID, paidAt: '2026-12-10T09:00:00.000Z' }, metadata: causedBy(command) },
      ]);
  });

  test('the whole total in one payment: paid', () => {
    order.given(placedOrder()).when(recordPayment(TOTAL)).thenEventsMatch([{ type: 'PaymentRecorded', data: { amountPaid: TOTAL } }, { type: 'OrderPaid' }]);
    expect(placedState(paidOrder())).toMatchObject({ status: 'PAID', amountPaid: TOTAL });
  });

  test('the reference is recorded trimmed', () => {
    order.given(placedOrder()).when(recordPayment(1_000, { reference: '  WIRE 123 ' })).thenEventsMatch([{ type: 'PaymentRecorded', data: { reference: 'WIRE 123' } }]);
  });

  test('an overdue order can still be paid, in part or in full', () => {
    const late = { at: CANCELLED_AT };
    order.given(overdueOrder()).when(recordPayment(TOTAL, late)).thenEventsMatch([{ type: 'PaymentRecorded' }, { type: 'OrderPaid', data: { paidAt: CANCELLED_AT } }]);
    expect(stateOf(after(overdueOrder(), recordPayment(TOTAL, late))).status).toBe('PAID');
    expect(stateOf(after(overdueOrder(), recordPayment(1_000, late))).status).toBe('PAYMENT_OVERDUE');
  });

  test('the system may record a payment too (a payment provider)', () => {
    order.given(placedOrder()).when(recordPayment(1_000, { actor: scheduler })).thenEventsMatch([{ type: 'PaymentRecorded', data: { amount: 1_000 } }]);
  });

  test('more than the balance: PAYMENT_EXCEEDS_BALANCE, saying what is owed', () => {
    const error = order.given(placedOrder()).when(recordPayment(TOTAL + 1)).thenError('PAYMENT_EXCEEDS_BALANCE', 'The payment is more than the $1,225.00 still owed');
    expect(error.details).toEqual({ balance: 122_500 });
    order
      .given(after(placedOrder(), recordPayment(50_000)))
      .when(recordPayment(80_000))
      .thenError('PAYMENT_EXCEEDS_BALANCE', 'The payment is more than the $725.00 still owed');
  });

  test('a reference already recorded, in any case or spacing: PAYMENT_ALREADY_RECORDED', () => {
    const history = after(placedOrder(), recordPayment(1_000, { paymentId: 'payment-1', reference: 'WIRE 123' }));
    order
      .given(history)
      .when(recordPayment(2_000, { paymentId: 'payment-2', reference: 'wire123' }))
      .thenError('PAYMENT_ALREADY_RECORDED', 'A payment with the reference wire123 is already recorded on this order');
    order
      .given(history)
      .when(recordPayment(1_000, { paymentId: 'payment-1', reference: ' Wire 1 2 3 ' }))
      .thenError('PAYMENT_ALREADY_RECORDED', 'A payment with the reference Wire 1 2 3 is already recorded on this order');
    order.given(history).when(recordPayment(1_000, { paymentId: 'payment-2', reference: 'WIRE 124' })).thenEventsMatch([{ type: 'PaymentRecorded', data: { amountPaid: 2_000 } }]);
  });

  test('received after now: PAYMENT_IN_FUTURE; received now is fine', () => {
    order
      .given(placedOrder())
      .when(recordPayment(1_000, { receivedAt: plusSeconds(PAID_AT, 1) }))
      .thenError('PAYMENT_IN_FUTURE', 'A payment cannot be received in the future');
    order.given(placedOrder()).when(recordPayment(1_000, { receivedAt: PAID_AT })).thenEventsMatch([{ type: 'PaymentRecorded' }]);
  });

  test('received more than a day before the order was placed: PAYMENT_BEFORE_ORDER; within the day of grace (time zones, dates without a time) is fine', () => {
    // PLACED_AT is 2026-12-08T12:00Z.
    order
      .given(placedOrder())
      .when(recordPayment(1_000, { receivedAt: '2026-12-07T11:59:59.999Z' }))
      .thenError('PAYMENT_BEFORE_ORDER', 'A payment cannot have been received before the order was placed');
    order
      .given(placedOrder())
      .when(recordPayment(1_000, { receivedAt: '2026-12-07T12:00:00.000Z' }))
      .thenEventsMatch([{ type: 'PaymentRecorded', data: { receivedAt: '2026-12-07T12:00:00.000Z' } }]);
  });

  test('a buyer cannot record a payment: FORBIDDEN', () => {
    order.given(placedOrder()).when(recordPayment(1_000, { actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
  });

  test('a cancelled order: ORDER_CANCELLED', () => {
    order.given(cancelledOrder()).when(recordPayment(1_000)).thenError('ORDER_CANCELLED', 'This order was cancelled');
    order.given(offeredOrder()).when(recordPayment(1_000)).thenError('ORDER_CANCELLED', 'This order was cancelled');
  });

  test('a paid order: ORDER_ALREADY_PAID', () => {
    order.given(paidOrder()).when(recordPayment(1_000, { reference: 'WIRE 999' })).thenError('ORDER_ALREADY_PAID', 'This order is already paid in full');
    order.given(completedOrder()).when(recordPayment(1_000, { reference: 'WIRE 999' })).thenError('ORDER_ALREADY_PAID', 'This order is already paid in full');
  });
});

// ---------------------------------------------------------------------------------------------

describe('MarkPaymentOverdue', () => {
  test('at the end of the window: OrderPaymentOverdue, with what was paid', () => {
    const command = markPaymentOverdue();
    order
      .given(placedOrder())
      .when(command)
      .thenEvents([{ type: 'OrderPaymentOverdue', data: { orderId: ORDER_ID, paymentDueAt: PAYMENT_DUE_AT, amountPaid: 0 }, metadata: causedBy(command) }]);
    order.given(after(placedOrder(), recordPayment(10_000))).when(markPaymentOverdue()).thenEventsMatch([{ type: 'OrderPaymentOverdue', data: { amountPaid: 10_000 } }]);
    expect(stateOf(overdueOrder()).status).toBe('PAYMENT_OVERDUE');
  });

  test('before the end of the window: PAYMENT_NOT_DUE', () => {
    const error = order
      .given(placedOrder())
      .when(markPaymentOverdue({ at: '2026-12-15T11:59:59.999Z' }))
      .thenError('PAYMENT_NOT_DUE', 'The payment window has not ended yet');
    expect(error.details).toEqual({ paymentDueAt: PAYMENT_DUE_AT });
  });

  test('an order already overdue: nothing', () => {
    order.given(overdueOrder()).when(markPaymentOverdue({ at: CANCELLED_AT })).thenNothing();
  });

  test('an order no longer awaiting payment: ORDER_NOT_AWAITING_PAYMENT', () => {
    order.given(paidOrder()).when(markPaymentOverdue()).thenError('ORDER_NOT_AWAITING_PAYMENT', 'This order is not awaiting payment: it is PAID');
    order.given(shippedOrder()).when(markPaymentOverdue()).thenError('ORDER_NOT_AWAITING_PAYMENT', 'This order is not awaiting payment: it is SHIPPED');
    order.given(after(placedOrder(), cancelOrder())).when(markPaymentOverdue()).thenError('ORDER_NOT_AWAITING_PAYMENT', 'This order is not awaiting payment: it is CANCELLED');
  });

  test('only the system: FORBIDDEN', () => {
    order.given(placedOrder()).when(markPaymentOverdue({ actor: admin })).thenError('FORBIDDEN', 'Access denied');
    order.given(placedOrder()).when(markPaymentOverdue({ actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('ShipOrder', () => {
  test('a paid order with an address ships: OrderShipped', () => {
    const command = shipOrder();
    order
      .given(paidOrder())
      .when(command)
      .thenEvents([
        { type: 'OrderShipped', data: { orderId: ORDER_ID, carrier: 'UPS', trackingNumber: '1Z999AA10123456784', shipTo: US_ADDRESS, shippedAt: SHIPPED_AT }, metadata: causedBy(command) },
      ]);
    expect(placedState(shippedOrder())).toMatchObject({ status: 'SHIPPED', shipment: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784', shippedAt: SHIPPED_AT } });
  });

  test('the carrier and tracking number are trimmed', () => {
    order
      .given(paidOrder())
      .when(shipOrder({ carrier: '  FedEx ', trackingNumber: ' 7712 3456 7890 ' }))
      .thenEventsMatch([{ type: 'OrderShipped', data: { carrier: 'FedEx', trackingNumber: '7712 3456 7890' } }]);
  });

  test('an order not paid in full: ORDER_NOT_PAID', () => {
    for (const history of [addressedOrder(), after(addressedOrder(), recordPayment(TOTAL - 1)), after(addressedOrder(), markPaymentOverdue())]) {
      order.given(history).when(shipOrder()).thenError('ORDER_NOT_PAID', 'This order is not paid in full: it cannot ship yet');
    }
  });

  test('no address yet: SHIPPING_ADDRESS_REQUIRED', () => {
    order
      .given(after(placedOrder(), recordPayment(TOTAL)))
      .when(shipOrder())
      .thenError('SHIPPING_ADDRESS_REQUIRED', 'The buyer has not given a shipping address yet');
  });

  test('shipped already: ORDER_ALREADY_SHIPPED', () => {
    order.given(shippedOrder()).when(shipOrder({ at: DELIVERED_AT })).thenError('ORDER_ALREADY_SHIPPED', 'This order has already shipped');
    order.given(completedOrder()).when(shipOrder()).thenError('ORDER_ALREADY_SHIPPED', 'This order has already shipped');
  });

  test('a cancelled order: ORDER_CANCELLED', () => {
    order.given(after(addressedOrder(), cancelOrder())).when(shipOrder()).thenError('ORDER_CANCELLED', 'This order was cancelled');
  });

  test('only an admin: FORBIDDEN', () => {
    order.given(paidOrder()).when(shipOrder({ actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
    order.given(paidOrder()).when(shipOrder({ actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('ConfirmDelivery', () => {
  test('the buyer confirms: OrderDelivered by the BUYER, then OrderCompleted', () => {
    const command = confirmDelivery();
    order
      .given(shippedOrder())
      .when(command)
      .thenEvents([
        { type: 'OrderDelivered', data: { orderId: ORDER_ID, deliveredAt: DELIVERED_AT, confirmedBy: 'BUYER' }, metadata: causedBy(command) },
        { type: 'OrderCompleted', data: { orderId: ORDER_ID, completedAt: DELIVERED_AT }, metadata: causedBy(command) },
      ]);
    expect(stateOf(completedOrder()).status).toBe('COMPLETED');
  });

  test('an admin confirms (the carrier says so): ADMIN', () => {
    order
      .given(shippedOrder())
      .when(confirmDelivery({ actor: admin }))
      .thenEventsMatch([{ type: 'OrderDelivered', data: { confirmedBy: 'ADMIN' } }, { type: 'OrderCompleted' }]);
  });

  test('the system confirms 14 days after shipping: AUTOMATIC; earlier: DELIVERY_NOT_DUE', () => {
    expect(AUTOMATIC_DELIVERY_MS).toBe(14 * 24 * 3_600_000);
    const due = '2026-12-24T12:00:00.000Z';
    order
      .given(shippedOrder())
      .when(confirmDelivery({ actor: scheduler, at: due }))
      .thenEventsMatch([{ type: 'OrderDelivered', data: { deliveredAt: due, confirmedBy: 'AUTOMATIC' } }, { type: 'OrderCompleted', data: { completedAt: due } }]);
    order
      .given(shippedOrder())
      .when(confirmDelivery({ actor: scheduler, at: '2026-12-24T11:59:59.999Z' }))
      .thenError('DELIVERY_NOT_DUE', 'A shipment counts as delivered only 14 days after it shipped');
  });

  test('another buyer: FORBIDDEN', () => {
    order.given(shippedOrder()).when(confirmDelivery({ actor: stranger })).thenError('FORBIDDEN', 'Access denied');
  });

  test('not shipped yet: ORDER_NOT_SHIPPED', () => {
    order.given(paidOrder()).when(confirmDelivery()).thenError('ORDER_NOT_SHIPPED', 'This order has not shipped yet');
    order.given(placedOrder()).when(confirmDelivery({ actor: admin })).thenError('ORDER_NOT_SHIPPED', 'This order has not shipped yet');
  });

  test('a cancelled order: ORDER_CANCELLED', () => {
    order.given(cancelledOrder()).when(confirmDelivery()).thenError('ORDER_CANCELLED', 'This order was cancelled');
  });

  test('delivered already: nothing', () => {
    order.given(completedOrder()).when(confirmDelivery()).thenNothing();
    order.given(completedOrder()).when(confirmDelivery({ actor: scheduler, at: '2026-12-30T12:00:00.000Z' })).thenNothing();
  });
});

// ---------------------------------------------------------------------------------------------

describe('CancelOrder', () => {
  test('an admin cancels an unpaid order: OrderCancelled with the reason trimmed', () => {
    const command = cancelOrder('  The buyer did not pay ');
    order
      .given(overdueOrder())
      .when(command)
      .thenEvents([{ type: 'OrderCancelled', data: { orderId: ORDER_ID, reason: 'The buyer did not pay', cancelledAt: CANCELLED_AT }, metadata: causedBy(command) }]);
    expect(stateOf(cancelledOrder()).status).toBe('CANCELLED');
  });

  test('an order still within its window can be cancelled too', () => {
    order.given(addressedOrder()).when(cancelOrder('The buyer asked to cancel')).thenEventsMatch([{ type: 'OrderCancelled', data: { reason: 'The buyer asked to cancel' } }]);
  });

  test('no reason: REASON_REQUIRED', () => {
    order.given(overdueOrder()).when(cancelOrder('   ')).thenError('REASON_REQUIRED', 'A reason is required');
  });

  test('money has been paid: ORDER_HAS_PAYMENTS', () => {
    order
      .given(after(overdueOrder(), recordPayment(50_000, { at: CANCELLED_AT })))
      .when(cancelOrder())
      .thenError('ORDER_HAS_PAYMENTS', '$500.00 has been paid on this order: it cannot be cancelled');
    order
      .given(after(placedOrder(), recordPayment(1)))
      .when(cancelOrder())
      .thenError('ORDER_HAS_PAYMENTS', '$0.01 has been paid on this order: it cannot be cancelled');
  });

  test('a paid order: ORDER_ALREADY_PAID', () => {
    order.given(paidOrder()).when(cancelOrder()).thenError('ORDER_ALREADY_PAID', 'This order is already paid in full');
    order.given(shippedOrder()).when(cancelOrder()).thenError('ORDER_ALREADY_PAID', 'This order is already paid in full');
  });

  test('cancelled already: ORDER_ALREADY_CANCELLED', () => {
    order.given(cancelledOrder()).when(cancelOrder()).thenError('ORDER_ALREADY_CANCELLED', 'This order has already been cancelled');
    order.given(offeredOrder()).when(cancelOrder()).thenError('ORDER_ALREADY_CANCELLED', 'This order has already been cancelled');
  });

  test('only an admin: FORBIDDEN', () => {
    order.given(overdueOrder()).when(cancelOrder('reason', { actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
    order.given(overdueOrder()).when(cancelOrder('reason', { actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('OfferSecondChance', () => {
  test('a cancelled order is offered to the runner-up at their bid, for 48 hours', () => {
    expect(SECOND_CHANCE_OFFER_MS).toBe(48 * 3_600_000);
    const command = offerSecondChance();
    order
      .given(cancelledOrder())
      .when(command)
      .thenEvents([
        {
          type: 'SecondChanceOffered',
          data: { orderId: ORDER_ID, offerId: 'offer-1', bidderId: RUNNER_UP_ID, amount: RUNNER_UP_AMOUNT, offeredAt: OFFERED_AT, expiresAt: '2026-12-18T13:00:00.000Z' },
          metadata: causedBy(command),
        },
      ]);
    expect(placedState(offeredOrder())).toMatchObject({
      status: 'SECOND_CHANCE_OFFERED',
      offers: [{ offerId: 'offer-1', bidderId: RUNNER_UP_ID, amount: RUNNER_UP_AMOUNT, expiresAt: OFFER_EXPIRES_AT, outcome: 'OPEN' }],
    });
  });

  test('an order not cancelled: ORDER_NOT_CANCELLED', () => {
    for (const history of [placedOrder(), overdueOrder(), paidOrder(), completedOrder()]) {
      order.given(history).when(offerSecondChance()).thenError('ORDER_NOT_CANCELLED', 'Cancel the order first');
    }
  });

  test('nobody left to ask: NO_RUNNER_UP', () => {
    order.given(cancelledOrder()).when(offerSecondChance(null)).thenError('NO_RUNNER_UP', 'No other bidder is left to make an offer to');
  });

  test('the buyer, or a bidder asked before: RUNNER_UP_ALREADY_ASKED', () => {
    order
      .given(cancelledOrder())
      .when(offerSecondChance({ bidderId: BUYER_ID, amount: HAMMER_PRICE }))
      .thenError('RUNNER_UP_ALREADY_ASKED', 'This bidder has already had this item offered to them');
    order
      .given(after(offeredOrder(), declineSecondChance()))
      .when(offerSecondChance(runnerUpCandidate, { offerId: 'offer-2' }))
      .thenError('RUNNER_UP_ALREADY_ASKED', 'This bidder has already had this item offered to them');
  });

  test('an offer id used before: OFFER_ALREADY_MADE (an answer would find the old offer, never the new one)', () => {
    order
      .given(after(offeredOrder(), declineSecondChance()))
      .when(offerSecondChance(thirdBidderCandidate))
      .thenError('OFFER_ALREADY_MADE', 'An offer with this id has already been made');
  });

  test('an offer still open: SECOND_CHANCE_PENDING', () => {
    order
      .given(offeredOrder())
      .when(offerSecondChance(thirdBidderCandidate, { offerId: 'offer-2' }))
      .thenError('SECOND_CHANCE_PENDING', 'An offer to the runner-up is still open');
  });

  test('the item relisted: LISTING_RELEASED', () => {
    order.given(after(cancelledOrder(), releaseListing())).when(offerSecondChance()).thenError('LISTING_RELEASED', 'The item has been relisted');
  });

  test('an offer accepted: SECOND_CHANCE_ACCEPTED', () => {
    order
      .given(after(offeredOrder(), acceptSecondChance()))
      .when(offerSecondChance(thirdBidderCandidate, { offerId: 'offer-2' }))
      .thenError('SECOND_CHANCE_ACCEPTED', 'The runner-up accepted an offer: the item is sold to them');
  });

  test('only an admin: FORBIDDEN', () => {
    order.given(cancelledOrder()).when(offerSecondChance(runnerUpCandidate, { actor: runnerUp })).thenError('FORBIDDEN', 'Access denied');
    order.given(cancelledOrder()).when(offerSecondChance(runnerUpCandidate, { actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('AcceptSecondChance', () => {
  test('the runner-up accepts: SecondChanceAccepted naming their new order', () => {
    const command = acceptSecondChance();
    order
      .given(offeredOrder())
      .when(command)
      .thenEvents([
        { type: 'SecondChanceAccepted', data: { orderId: ORDER_ID, offerId: 'offer-1', bidderId: RUNNER_UP_ID, newOrderId: SUCCESSOR_ORDER_ID }, metadata: causedBy(command) },
      ]);
    expect(placedState(after(offeredOrder(), command))).toMatchObject({
      status: 'CANCELLED',
      successorOrderId: SUCCESSOR_ORDER_ID,
      offers: [{ offerId: 'offer-1', outcome: 'ACCEPTED' }],
    });
  });

  test('up to the last millisecond of the 48 hours; at their end: OFFER_EXPIRED', () => {
    order.given(offeredOrder()).when(acceptSecondChance({ at: '2026-12-18T12:59:59.999Z' })).thenEventsMatch([{ type: 'SecondChanceAccepted' }]);
    order.given(offeredOrder()).when(acceptSecondChance({ at: OFFER_EXPIRES_AT })).thenError('OFFER_EXPIRED', 'This offer has expired');
  });

  test('an offer the system expired: OFFER_EXPIRED', () => {
    order.given(after(offeredOrder(), expireSecondChance())).when(acceptSecondChance()).thenError('OFFER_EXPIRED', 'This offer has expired');
  });

  test('only the bidder offered: FORBIDDEN for the buyer, another bidder, an admin', () => {
    for (const actor of [orderBuyer, thirdBidder, admin]) {
      order.given(offeredOrder()).when(acceptSecondChance({ actor })).thenError('FORBIDDEN', 'Access denied');
    }
  });

  test('an unknown offer: OFFER_NOT_FOUND', () => {
    const error = order.given(offeredOrder()).when(acceptSecondChance({ offerId: 'offer-9' })).thenError('OFFER_NOT_FOUND', 'Offer not found');
    expect(error.kind).toBe('not_found');
  });

  test('answered already: OFFER_ANSWERED', () => {
    order.given(after(offeredOrder(), acceptSecondChance())).when(acceptSecondChance()).thenError('OFFER_ANSWERED', 'This offer has already been accepted');
    order.given(after(offeredOrder(), declineSecondChance())).when(acceptSecondChance()).thenError('OFFER_ANSWERED', 'This offer has already been declined');
  });
});

describe('DeclineSecondChance', () => {
  test('the runner-up declines: SecondChanceDeclined, and the order is CANCELLED again', () => {
    const command = declineSecondChance();
    order
      .given(offeredOrder())
      .when(command)
      .thenEvents([{ type: 'SecondChanceDeclined', data: { orderId: ORDER_ID, offerId: 'offer-1', bidderId: RUNNER_UP_ID }, metadata: causedBy(command) }]);
    expect(placedState(after(offeredOrder(), command))).toMatchObject({ status: 'CANCELLED', successorOrderId: null, offers: [{ outcome: 'DECLINED' }] });
  });

  test('after a decline the next bidder can be offered the item', () => {
    const command = offerSecondChance(thirdBidderCandidate, { offerId: 'offer-2', at: '2026-12-17T14:00:00.000Z' });
    order
      .given(after(offeredOrder(), declineSecondChance()))
      .when(command)
      .thenEvents([
        {
          type: 'SecondChanceOffered',
          data: { orderId: ORDER_ID, offerId: 'offer-2', bidderId: THIRD_BIDDER_ID, amount: THIRD_BIDDER_AMOUNT, offeredAt: '2026-12-17T14:00:00.000Z', expiresAt: '2026-12-19T14:00:00.000Z' },
          metadata: causedBy(command),
        },
      ]);
  });

  test('only the bidder offered: FORBIDDEN', () => {
    for (const actor of [orderBuyer, thirdBidder, admin]) {
      order.given(offeredOrder()).when(declineSecondChance({ actor })).thenError('FORBIDDEN', 'Access denied');
    }
  });

  test('an unknown offer: OFFER_NOT_FOUND', () => {
    order.given(offeredOrder()).when(declineSecondChance({ offerId: 'offer-9' })).thenError('OFFER_NOT_FOUND', 'Offer not found');
  });

  test('an expired offer: OFFER_EXPIRED', () => {
    order.given(after(offeredOrder(), expireSecondChance())).when(declineSecondChance()).thenError('OFFER_EXPIRED', 'This offer has expired');
  });

  test('answered already: OFFER_ANSWERED', () => {
    order.given(after(offeredOrder(), declineSecondChance())).when(declineSecondChance()).thenError('OFFER_ANSWERED', 'This offer has already been declined');
    order.given(after(offeredOrder(), acceptSecondChance())).when(declineSecondChance()).thenError('OFFER_ANSWERED', 'This offer has already been accepted');
  });
});

describe('ExpireSecondChance', () => {
  test('the system expires an unanswered offer at its end: SecondChanceExpired', () => {
    const command = expireSecondChance();
    order
      .given(offeredOrder())
      .when(command)
      .thenEvents([{ type: 'SecondChanceExpired', data: { orderId: ORDER_ID, offerId: 'offer-1', bidderId: RUNNER_UP_ID }, metadata: causedBy(command) }]);
    expect(placedState(after(offeredOrder(), command))).toMatchObject({ status: 'CANCELLED', offers: [{ outcome: 'EXPIRED' }] });
  });

  test('after an expiry the next bidder can be offered the item', () => {
    order
      .given(after(offeredOrder(), expireSecondChance()))
      .when(offerSecondChance(thirdBidderCandidate, { offerId: 'offer-2', at: OFFER_EXPIRES_AT }))
      .thenEventsMatch([{ type: 'SecondChanceOffered', data: { offerId: 'offer-2', bidderId: THIRD_BIDDER_ID } }]);
  });

  test('before its end: OFFER_NOT_EXPIRED', () => {
    order.given(offeredOrder()).when(expireSecondChance({ at: '2026-12-18T12:59:59.999Z' })).thenError('OFFER_NOT_EXPIRED', 'This offer has not expired yet');
  });

  test('an offer answered or expired already: nothing', () => {
    order.given(after(offeredOrder(), acceptSecondChance())).when(expireSecondChance()).thenNothing();
    order.given(after(offeredOrder(), declineSecondChance())).when(expireSecondChance()).thenNothing();
    order.given(after(offeredOrder(), expireSecondChance())).when(expireSecondChance({ at: '2026-12-19T13:00:00.000Z' })).thenNothing();
  });

  test('only the system: FORBIDDEN', () => {
    order.given(offeredOrder()).when(expireSecondChance({ actor: admin })).thenError('FORBIDDEN', 'Access denied');
    order.given(offeredOrder()).when(expireSecondChance({ actor: runnerUp })).thenError('FORBIDDEN', 'Access denied');
  });
});

// ---------------------------------------------------------------------------------------------

describe('decideSecondChanceAcceptance', () => {
  const ACCEPTED_AT = '2026-12-17T13:00:00.000Z';
  const decide = (history: OrderEvent[], successor: OrderEvent[] = [], shipping = 3_000, command = acceptSecondChance()) =>
    decideSecondChanceAcceptance(command, stateOf(history), stateOf(successor), shipping);

  test("the original records the acceptance; the runner-up's order is placed at the offer, under the same terms", () => {
    const command = acceptSecondChance();
    expect(decide(offeredOrder(), [], 3_000, command)).toEqual({
      originalEvents: [
        { type: 'SecondChanceAccepted', data: { orderId: ORDER_ID, offerId: 'offer-1', bidderId: RUNNER_UP_ID, newOrderId: SUCCESSOR_ORDER_ID }, metadata: causedBy(command) },
      ],
      successorEvents: [
        {
          type: 'OrderPlaced',
          data: {
            orderId: SUCCESSOR_ORDER_ID,
            orderNumber: SUCCESSOR_ORDER_NUMBER,
            auctionId: AUCTION_ID,
            listingId: LISTING_ID,
            buyerId: RUNNER_UP_ID,
            hammerPrice: 95_000,
            buyersPremiumBasisPoints: 2_000,
            buyersPremium: 19_000,
            shipping: 3_000,
            paymentWindowSeconds: PAYMENT_WINDOW_SECONDS,
            origin: { kind: 'SECOND_CHANCE', previousOrderId: ORDER_ID, offerId: 'offer-1' },
            placedAt: ACCEPTED_AT,
            paymentDueAt: '2026-12-24T13:00:00.000Z',
          },
          metadata: causedBy(command),
        },
      ],
    });
    expect(causedBy(command).actorId).toBe(RUNNER_UP_ID);
  });

  test("the original order's premium rate and payment window carry over", () => {
    const original = after([], placeOrder({ buyersPremiumBasisPoints: 1_250, paymentWindowSeconds: 3 * 24 * 3_600 }), cancelOrder(), offerSecondChance());
    const { successorEvents } = decide(original);
    expect(successorEvents[0]).toMatchObject({
      type: 'OrderPlaced',
      data: { buyersPremiumBasisPoints: 1_250, buyersPremium: 11_875, paymentWindowSeconds: 259_200, paymentDueAt: '2026-12-20T13:00:00.000Z' },
    });
  });

  test("the runner-up's order awaits payment like any other", () => {
    const { successorEvents } = decide(offeredOrder());
    const successor = placedState(successorEvents);
    expect(successor).toMatchObject({ status: 'AWAITING_PAYMENT', facts: { buyerId: RUNNER_UP_ID }, amountPaid: 0 });
    expect(orderTotal(successor)).toBe(95_000 + 19_000 + 3_000);
    expect(placedState(after(offeredOrder(), acceptSecondChance())).successorOrderId).toBe(SUCCESSOR_ORDER_ID);
  });

  test('the successor order placed already (a retry): ORDER_ALREADY_PLACED', () => {
    const { successorEvents } = decide(offeredOrder());
    const error = refusal(() => decide(offeredOrder(), successorEvents));
    expect([error.code, error.message]).toEqual(['ORDER_ALREADY_PLACED', 'This order has already been placed']);
  });

  test("the original's refusals stand: an expired offer, another bidder, an answered offer, no order", () => {
    const refused = (...args: Parameters<typeof decide>) => {
      const error = refusal(() => decide(...args));
      return [error.code, error.message];
    };
    expect(refused(offeredOrder(), [], 3_000, acceptSecondChance({ at: OFFER_EXPIRES_AT }))).toEqual(['OFFER_EXPIRED', 'This offer has expired']);
    expect(refused(offeredOrder(), [], 3_000, acceptSecondChance({ actor: thirdBidder }))).toEqual(['FORBIDDEN', 'Access denied']);
    expect(refused(after(offeredOrder(), acceptSecondChance()))).toEqual(['OFFER_ANSWERED', 'This offer has already been accepted']);
    expect(refused(cancelledOrder())).toEqual(['OFFER_NOT_FOUND', 'Offer not found']);
    expect(refused([])).toEqual(['ORDER_NOT_FOUND', 'Order not found']);
  });
});

// ---------------------------------------------------------------------------------------------

describe('ReleaseListing', () => {
  test('a cancelled order gives its item back: OrderListingReleased and ListingRelisted', () => {
    const command = releaseListing();
    release
      .given(cancelledOrder(), soldListing())
      .when(command)
      .thenEvents({
        orderEvents: [{ type: 'OrderListingReleased', data: { orderId: ORDER_ID, listingId: LISTING_ID }, metadata: causedBy(command) }],
        listingEvents: [{ type: 'ListingRelisted', data: { listingId: LISTING_ID, previousAuctionId: AUCTION_ID }, metadata: causedBy(command) }],
      });
  });

  test('the listing is NFC_BOUND again, tag kept, no auction; the order knows its item is gone', () => {
    const command = releaseListing();
    const { orderEvents, listingEvents } = decideListingRelease(command, stateOf(cancelledOrder()), fold(listingDecider, soldListing()));
    expect(fold(listingDecider, [...soldListing(), ...listingEvents])).toMatchObject({ status: 'NFC_BOUND', nfcUid: TAG_UID, auctionId: null });
    expect(placedState([...cancelledOrder(), ...orderEvents])).toMatchObject({ status: 'CANCELLED', listingReleased: true });
  });

  test('after offers declined or expired, the item can still be released', () => {
    release
      .given(after(offeredOrder(), declineSecondChance()), soldListing())
      .when(releaseListing())
      .thenEvents({
        orderEvents: [{ type: 'OrderListingReleased', data: { orderId: ORDER_ID, listingId: LISTING_ID }, metadata: causedBy(releaseListing()) }],
        listingEvents: [{ type: 'ListingRelisted', data: { listingId: LISTING_ID, previousAuctionId: AUCTION_ID }, metadata: causedBy(releaseListing()) }],
      });
  });

  test('the order alone decides OrderListingReleased', () => {
    const command = releaseListing();
    order
      .given(after(offeredOrder(), expireSecondChance()))
      .when(command)
      .thenEvents([{ type: 'OrderListingReleased', data: { orderId: ORDER_ID, listingId: LISTING_ID }, metadata: causedBy(command) }]);
  });

  test('a listing not sold in that auction: LISTING_NOT_SOLD', () => {
    release.given(cancelledOrder(), liveListing()).when(releaseListing()).thenError('LISTING_NOT_SOLD', 'This listing was not sold in that auction');
    const relisted = [...soldListing(), ...decideListingRelease(releaseListing(), stateOf(cancelledOrder()), fold(listingDecider, soldListing())).listingEvents];
    release.given(cancelledOrder(), relisted).when(releaseListing()).thenError('LISTING_NOT_SOLD', 'This listing was not sold in that auction');
    const otherAuction = after([], placeOrder({ auctionId: 'auction-2' }), cancelOrder());
    release.given(otherAuction, soldListing()).when(releaseListing()).thenError('LISTING_NOT_SOLD', 'This listing was not sold in that auction');
  });

  test('an offer still open: SECOND_CHANCE_PENDING', () => {
    release.given(offeredOrder(), soldListing()).when(releaseListing()).thenError('SECOND_CHANCE_PENDING', 'An offer to the runner-up is still open');
  });

  test('an order not cancelled: ORDER_NOT_CANCELLED', () => {
    for (const history of [placedOrder(), overdueOrder(), paidOrder(), completedOrder()]) {
      release.given(history, soldListing()).when(releaseListing()).thenError('ORDER_NOT_CANCELLED', 'Cancel the order first');
    }
  });

  test('an offer accepted: SECOND_CHANCE_ACCEPTED; released already: LISTING_RELEASED', () => {
    release
      .given(after(offeredOrder(), acceptSecondChance()), soldListing())
      .when(releaseListing())
      .thenError('SECOND_CHANCE_ACCEPTED', 'The runner-up accepted an offer: the item is sold to them');
    release.given(after(cancelledOrder(), releaseListing()), soldListing()).when(releaseListing()).thenError('LISTING_RELEASED', 'The item has been relisted');
  });

  test('only an admin: FORBIDDEN', () => {
    release.given(cancelledOrder(), soldListing()).when(releaseListing({ actor: scheduler })).thenError('FORBIDDEN', 'Access denied');
    release.given(cancelledOrder(), soldListing()).when(releaseListing({ actor: orderBuyer })).thenError('FORBIDDEN', 'Access denied');
  });

  test('no order: ORDER_NOT_FOUND', () => {
    release.given([], soldListing()).when(releaseListing()).thenError('ORDER_NOT_FOUND', 'Order not found');
  });
});

// ---------------------------------------------------------------------------------------------

describe('event metadata', () => {
  test.each<[string, OrderEvent[], OrderCommand]>([
    ['PlaceOrder', [], placeOrder()],
    ['SetShippingAddress', placedOrder(), setShippingAddress()],
    ['ChangeShippingCharge', after(placedOrder(), recordPayment(121_000)), changeShippingCharge(1_000)],
    ['RecordPayment', placedOrder(), recordPayment(TOTAL)],
    ['MarkPaymentOverdue', placedOrder(), markPaymentOverdue()],
    ['ShipOrder', paidOrder(), shipOrder()],
    ['ConfirmDelivery (buyer)', shippedOrder(), confirmDelivery()],
    ['ConfirmDelivery (system)', shippedOrder(), confirmDelivery({ actor: scheduler, at: '2026-12-25T00:00:00.000Z' })],
    ['CancelOrder', overdueOrder(), cancelOrder()],
    ['OfferSecondChance', cancelledOrder(), offerSecondChance()],
    ['AcceptSecondChance', offeredOrder(), acceptSecondChance()],
    ['DeclineSecondChance', offeredOrder(), declineSecondChance()],
    ['ExpireSecondChance', offeredOrder(), expireSecondChance()],
    ['ReleaseListing', cancelledOrder(), releaseListing()],
  ])("every event of %s carries the command's actor, time and ids", (_, history, command) => {
    const events = orderDecider.decide(command, stateOf(history));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.metadata).toEqual(causedBy(command));
      expect(event.metadata).toMatchObject({ actorId: command.metadata.actor.userId, actorRoles: command.metadata.actor.roles, occurredAt: command.metadata.now });
    }
  });

  test('the fixture sale is what the numbers say', () => {
    expect([HAMMER_PRICE, BUYERS_PREMIUM, SHIPPING, TOTAL, PREMIUM_BASIS_POINTS]).toEqual([100_000, 20_000, 2_500, 122_500, 2_000]);
    expect(orderPlaced().data).toEqual({ ...orderTerms(), buyersPremium: 20_000, placedAt: PLACED_AT, paymentDueAt: PAYMENT_DUE_AT });
  });
});

describe('an admin never settles their own order', () => {
  const adminBuyer = { userId: BUYER_ID, roles: ['ADMIN' as const, 'BUYER' as const] };
  const ownOrder = (): OrderEvent[] => placedOrder();

  test.each([
    ['records a payment on it', () => recordPayment(1_000, { actor: adminBuyer })],
    ['changes its shipping', () => changeShippingCharge(0, { actor: adminBuyer })],
    ['cancels it', () => cancelOrder('Changed my mind', { actor: adminBuyer })],
  ] as const)('an admin who is the buyer %s: OWN_ORDER', (_what, command) => {
    order.given(ownOrder()).when(command()).thenError('OWN_ORDER', 'You cannot settle an order of your own: another admin must');
  });

  test('nor ships it to themselves: OWN_ORDER', () => {
    order.given(paidOrder()).when(shipOrder({ actor: adminBuyer })).thenError('OWN_ORDER', 'You cannot settle an order of your own: another admin must');
  });

  test('an admin cannot offer a cancelled sale to themselves: OWN_OFFER', () => {
    const bidderAdmin = { userId: RUNNER_UP_ID, roles: ['ADMIN' as const, 'BUYER' as const] };
    order.given(cancelledOrder()).when(offerSecondChance(runnerUpCandidate, { actor: bidderAdmin })).thenError('OWN_OFFER', 'You cannot offer an item to yourself: another admin must');
  });
});

describe('the parcel goes where the admin read it should', () => {
  test('an address changed since the admin read it: ADDRESS_CHANGED, nothing shipped', () => {
    order
      .given(after(paidOrder(), setShippingAddress(GB_ADDRESS)))
      .when(shipOrder())
      .thenError('ADDRESS_CHANGED', 'The buyer has changed the shipping address: check the new one and ship again');
    order.given(paidOrder()).when(shipOrder({ shipTo: null })).thenError('ADDRESS_CHANGED');
  });

  test('OrderShipped records the address it went to', () => {
    order.given(after(paidOrder(), setShippingAddress(GB_ADDRESS))).when(shipOrder({ shipTo: GB_ADDRESS })).thenEventsMatch([{ type: 'OrderShipped', data: { shipTo: GB_ADDRESS } }]);
  });
});

describe('the engine checks what it is told', () => {
  test('a payment of nothing, whoever sends it: INVALID_ORDER_COMMAND', () => {
    order.given(placedOrder()).when(recordPayment(0, { actor: scheduler })).thenError('INVALID_ORDER_COMMAND');
  });

  test('a carrier blank once trimmed: INVALID_ORDER_COMMAND', () => {
    order.given(paidOrder()).when(shipOrder({ carrier: '   ' })).thenError('INVALID_ORDER_COMMAND');
  });

  test('an address line with a line break or a control character: ADDRESS_INVALID', () => {
    const error = order.given(placedOrder()).when(setShippingAddress({ ...US_ADDRESS, line1: '1 Main Street\nEvil Corp' })).thenError('ADDRESS_INVALID', 'Use one line of plain text');
    expect(error.details).toEqual({ field: 'line1' });
  });
});
