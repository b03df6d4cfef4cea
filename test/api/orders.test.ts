import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOrderSchema, adminOrdersPageSchema, orderSchema, ordersSchema, secondChanceOfferSchema } from '../../api/contracts/orders';
import { auctionStreamId, orderStreamId } from '../../engine/domain';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing } from '../support/marketplace';

const ADDRESS = { name: 'Jordan Fan', line1: '1 Main Street', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'us' };

describe.each(API_BACKENDS)('after the hammer: orders (%s)', (backend) => {
  let api: TestApi;
  /** The API's clock runs this far ahead of the wall clock: the overdue path moves it instead of waiting. */
  let skewMs = 0;
  let admin: Awaited<ReturnType<TestApi['signUp']>>;

  beforeAll(async () => {
    api = await startTestApi(backend, { clock: () => new Date(Date.now() + skewMs), services: { lifecycle: { pollMs: 100 } } });
    admin = await api.signUp('ADMIN');
  });
  afterAll(async () => {
    await api?.close();
  });

  const adminToken = () => admin.tokens.accessToken;
  const bid = (token: string, auctionId: string, amount: number, maxAmount?: number) =>
    api.call('POST', '/api/bids', { token, body: { auctionId, amount, ...(maxAmount ? { maxAmount } : {}) } });

  /** A lot published through the admin route with these after-sale terms, ending `endsInMs` from the API's now. */
  async function publishedLot(terms: { buyersPremiumPercent?: number; paymentWindowHours?: number }, endsInMs = 2_500) {
    const lot = await createMarketplaceListing(api, { stage: 'NFC_BOUND', title: 'Playoff game-worn jersey', category: 'CLOTHING', seller: { userId: admin.user.id, roles: ['ADMIN', 'BUYER'] } });
    const endsAt = new Date(api.deps.clock().getTime() + endsInMs).toISOString();
    const published = await api.call('POST', `/api/admin/listings/${lot.listingId}/publish`, { token: adminToken(), body: { endsAt, softClose: null, ...terms } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return { ...lot, auctionId: published.body.auction.auctionId as string, auction: published.body.auction };
  }

  const noticesOf = async (token: string): Promise<Array<{ kind: string; title: string; body: string; link: string | null }>> =>
    (await api.call('GET', '/api/v1/users/me/notifications?size=100', { token })).body.content;

  async function orderOf(token: string, listingId: string) {
    let order: ReturnType<typeof orderSchema.parse> | undefined;
    await expect
      .poll(
        async () => {
          const mine = ordersSchema.parse((await api.call('GET', '/api/v1/users/me/orders', { token })).body);
          order = mine.content.find((candidate) => candidate.listingId === listingId);
          return order !== undefined;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    return order!;
  }

  it('a won lot becomes an order: invoice under the rules published with it, paid in two parts, shipped, received', async () => {
    const lot = await publishedLot({ buyersPremiumPercent: 15, paymentWindowHours: 48 });
    expect(lot.auction).toMatchObject({ buyersPremiumPercent: 15, paymentWindowHours: 48 });
    const winner = await api.signUp();
    const rival = await api.signUp();
    expect((await bid(rival.tokens.accessToken, lot.auctionId, 51)).status).toBe(201);
    expect((await bid(winner.tokens.accessToken, lot.auctionId, 80)).status).toBe(201);

    const order = await orderOf(winner.tokens.accessToken, lot.listingId);
    expect(order).toMatchObject({
      status: 'AWAITING_PAYMENT',
      auctionId: lot.auctionId,
      hammerPrice: 80,
      buyersPremiumPercent: 15,
      buyersPremium: 12,
      shipping: 25,
      total: 117,
      amountPaid: 0,
      balance: 117,
      shippingAddress: null,
      carrier: null,
      trackingNumber: null,
      actions: { setShippingAddress: true, confirmReceipt: false },
    });
    expect(Date.parse(order.paymentDueAt) - Date.parse(order.placedAt)).toBe(48 * 3_600_000);
    expect(order.howToPay).toMatchObject({ method: 'BANK_TRANSFER', reference: order.orderNumber, amountDue: 117 });
    expect(order.orderNumber).toMatch(/^PRV-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(order.billedTo).toEqual({ name: 'Test Buyer', email: winner.user.email });

    // Who may see and touch it.
    const path = `/api/v1/orders/${order.id}`;
    expect((await api.call('GET', path)).status).toBe(401);
    expect((await api.call('GET', path, { token: rival.tokens.accessToken })).status).toBe(403);
    expect(orderSchema.parse((await api.call('GET', path, { token: adminToken() })).body).id).toBe(order.id);
    expect((await api.call('GET', '/api/v1/users/me/orders', { token: rival.tokens.accessToken })).body).toEqual({ content: [] });
    expect((await api.call('PUT', `${path}/shipping-address`, { token: rival.tokens.accessToken, body: ADDRESS })).status).toBe(403);
    expect((await api.call('GET', '/api/admin/orders', { token: winner.tokens.accessToken })).status).toBe(403);
    expect((await api.call('POST', `/api/admin/orders/${order.id}/payments`, { body: { amount: 1, reference: 'X' } })).status).toBe(401);

    // The address: checked by the engine's rule, then kept.
    const badCountry = await api.call('PUT', `${path}/shipping-address`, { token: winner.tokens.accessToken, body: { ...ADDRESS, country: 'XX' } });
    expect(badCountry.status).toBe(400);
    expect(JSON.stringify(badCountry.body)).toContain('Choose a country');
    const badZip = await api.call('PUT', `${path}/shipping-address`, { token: winner.tokens.accessToken, body: { ...ADDRESS, postalCode: '6270' } });
    expect(badZip.status).toBe(400);
    expect(badZip.body.errors).toEqual([{ field: 'postalCode', message: 'Enter a postal code like 10001 or 10001-1234' }]);
    const addressed = await api.call('PUT', `${path}/shipping-address`, { token: winner.tokens.accessToken, body: ADDRESS });
    expect(addressed.status, JSON.stringify(addressed.body)).toBe(200);
    expect(addressed.body.shippingAddress).toEqual({ ...ADDRESS, line2: null, country: 'US' });

    // Steps out of order are refused, with their reason.
    const admin409 = async (route: string, body: unknown, message: string) => {
      const answer = await api.call('POST', `/api/admin/orders/${order.id}/${route}`, { token: adminToken(), body });
      expect([answer.status, answer.body.message]).toEqual([409, message]);
    };
    await admin409('shipment', { carrier: 'UPS', trackingNumber: '1Z999' }, 'This order is not paid in full: it cannot ship yet');
    await admin409('payments', { amount: 117.01, reference: 'WIRE-1' }, 'The payment is more than the $117.00 still owed');

    // Two transfers: the first part keeps it awaiting the rest.
    const today = api.deps.clock().toISOString().slice(0, 10);
    const first = await api.call('POST', `/api/admin/orders/${order.id}/payments`, { token: adminToken(), body: { amount: 100, reference: 'WIRE-1', receivedAt: today } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(adminOrderSchema.parse(first.body)).toMatchObject({ status: 'AWAITING_PAYMENT', amountPaid: 100, balance: 17 });
    await admin409('payments', { amount: 17, reference: 'wire 1' }, 'A payment with the reference wire 1 is already recorded on this order');
    const rest = await api.call('POST', `/api/admin/orders/${order.id}/payments`, { token: adminToken(), body: { amount: 17, reference: 'WIRE-2' } });
    expect(rest.body).toMatchObject({ status: 'PAID', amountPaid: 117, balance: 0, howToPay: null });
    expect(rest.body.payments[0].receivedAt.slice(0, 10)).toBe(today);
    expect(Date.parse(rest.body.payments[0].receivedAt)).toBeLessThanOrEqual(api.deps.clock().getTime());
    expect(rest.body.payments.map((payment: { amount: number; reference: string }) => [payment.amount, payment.reference])).toEqual([
      [100, 'WIRE-1'],
      [17, 'WIRE-2'],
    ]);
    await admin409('cancel', { reason: 'Changed mind' }, 'This order is already paid in full');
    await admin409('payments', { amount: 1, reference: 'WIRE-3' }, 'This order is already paid in full');

    const received = await api.call('POST', `${path}/confirm-receipt`, { token: winner.tokens.accessToken });
    expect([received.status, received.body.message]).toEqual([409, 'This order has not shipped yet']);

    // The buyer moves the address after paying: told at once (someone with their session could do it);
    // an admin shipping to the address they read before is refused.
    const moved = { ...ADDRESS, line1: '2 Oak Avenue' };
    expect((await api.call('PUT', `${path}/shipping-address`, { token: winner.tokens.accessToken, body: moved })).status).toBe(200);
    const stale = await api.call('POST', `/api/admin/orders/${order.id}/shipment`, {
      token: adminToken(),
      body: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784', shipTo: { ...ADDRESS, line2: null, country: 'US' } },
    });
    expect([stale.status, stale.body.message]).toEqual([409, 'The buyer has changed the shipping address: check the new one and ship again']);
    const shipped = await api.call('POST', `/api/admin/orders/${order.id}/shipment`, {
      token: adminToken(),
      body: { carrier: 'UPS', trackingNumber: ' 1Z999AA10123456784 ', shipTo: { ...moved, line2: null, country: 'US' } },
    });
    expect(shipped.body).toMatchObject({ status: 'SHIPPED', carrier: 'UPS', trackingNumber: '1Z999AA10123456784', actions: { confirmReceipt: true } });
    expect((await api.call('PUT', `${path}/shipping-address`, { token: winner.tokens.accessToken, body: ADDRESS })).body.message).toBe(
      'This order has shipped: its address can no longer change',
    );
    expect((await api.call('POST', `${path}/confirm-receipt`, { token: rival.tokens.accessToken })).status).toBe(403);

    const done = await api.call('POST', `${path}/confirm-receipt`, { token: winner.tokens.accessToken });
    expect(done.status).toBe(200);
    expect(orderSchema.parse(done.body)).toMatchObject({ status: 'COMPLETED' });
    expect(done.body.deliveredAt).not.toBeNull();
    expect((await api.call('POST', `${path}/confirm-receipt`, { token: winner.tokens.accessToken })).status).toBe(200);

    // Every step is an event with its actor, in the order's stream.
    const events = await api.deps.eventStore.readStream(orderStreamId(order.id));
    expect(events.map((event) => [event.type, (event.metadata as { actorId: string }).actorId])).toEqual([
      ['OrderPlaced', 'lifecycle'],
      ['ShippingAddressSet', winner.user.id],
      ['PaymentRecorded', admin.user.id],
      ['PaymentRecorded', admin.user.id],
      ['OrderPaid', admin.user.id],
      ['ShippingAddressSet', winner.user.id],
      ['OrderShipped', admin.user.id],
      ['OrderDelivered', winner.user.id],
      ['OrderCompleted', winner.user.id],
    ]);

    // Told at each step, in the app (and by mail), with a link to the order.
    await api.deps.notifier!.caughtUp();
    const told = (await noticesOf(winner.tokens.accessToken)).filter((notice) => notice.link === `/purchases/${order.id}`);
    expect(told.map((notice) => notice.kind)).toEqual(['ORDER_SHIPPED', 'SHIPPING_ADDRESS_CHANGED', 'PAYMENT_RECEIVED', 'PAYMENT_RECEIVED', 'INVOICE']);
    expect(told.map((notice) => notice.title)).toEqual([
      'Playoff game-worn jersey has shipped',
      'The shipping address of Playoff game-worn jersey was changed',
      'Playoff game-worn jersey is paid in full',
      'We received US $100.00 for Playoff game-worn jersey',
      'Your invoice for Playoff game-worn jersey: US $117.00',
    ]);
    expect(told[0]!.body).toContain('UPS, tracking number 1Z999AA10123456784');
    expect(told[4]!.body).toContain(`quoting ${order.orderNumber}`);

    // The chain of custody tells the hand-over: public dates and carrier, nothing of the buyer's.
    const custodyPath = `/api/public/nfc/${lot.nfcUid}`;
    const custody = (await api.call('GET', custodyPath)).body;
    const story = custody.history.map((entry: { event: string }) => entry.event);
    expect(story.slice(story.indexOf('AUCTION_CLOSED'))).toEqual(['AUCTION_CLOSED', 'LISTING_SOLD', 'ORDER_PAID', 'ORDER_SHIPPED', 'ORDER_DELIVERED', 'SALE_COMPLETED']);
    expect(custody.status).toBe('BOUND');
    const shippedEntry = custody.history.find((entry: { event: string }) => entry.event === 'ORDER_SHIPPED');
    expect(shippedEntry).toMatchObject({ summary: 'Shipped to the buyer with UPS', details: { carrier: 'UPS' } });
    const publicText = JSON.stringify(custody);
    for (const secret of [winner.user.email, winner.user.id, 'Jordan Fan', '1 Main Street', '2 Oak Avenue', '62701', '1Z999AA10123456784', 'WIRE-1', 'amountPaid', 'buyersPremium', order.orderNumber]) {
      expect(publicText, secret).not.toContain(secret);
    }
    const theirs = (await api.call('GET', custodyPath, { token: winner.tokens.accessToken })).body;
    expect(theirs.history.find((entry: { event: string }) => entry.event === 'ORDER_SHIPPED').details).toMatchObject({ trackingNumber: '1Z999AA10123456784', yourOrderId: order.id });
    const othersView = JSON.stringify((await api.call('GET', custodyPath, { token: rival.tokens.accessToken })).body);
    expect(othersView).not.toContain('1Z999AA10123456784');

    const pdf = await fetch(`${api.url}${path}/invoice.pdf`, { headers: { authorization: `Bearer ${winner.tokens.accessToken}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await fetch(`${api.url}${path}/invoice.pdf`, { headers: { authorization: `Bearer ${rival.tokens.accessToken}` } })).status).toBe(403);
  });

  it('an unpaid order goes overdue when its window (set at publish) ends; cancelled, it is offered to the runner-up, who accepts', async () => {
    const lot = await publishedLot({ paymentWindowHours: 0.01 });
    const winner = await api.signUp();
    const runnerUp = await api.signUp();
    const third = await api.signUp();
    await bid(third.tokens.accessToken, lot.auctionId, 51);
    await bid(runnerUp.tokens.accessToken, lot.auctionId, 52, 64);
    expect((await bid(winner.tokens.accessToken, lot.auctionId, 70)).status).toBe(201);
    const order = await orderOf(winner.tokens.accessToken, lot.listingId);
    expect(order).toMatchObject({ status: 'AWAITING_PAYMENT', hammerPrice: 70, buyersPremiumPercent: 20, buyersPremium: 14, total: 109 });
    expect(Date.parse(order.paymentDueAt) - Date.parse(order.placedAt)).toBe(36_000);

    const offerTooSoon = await api.call('POST', `/api/admin/orders/${order.id}/second-chance`, { token: adminToken() });
    expect([offerTooSoon.status, offerTooSoon.body.message]).toEqual([409, 'Cancel the order first']);

    // The window ends: 36 s on the API's clock.
    skewMs += 40_000;
    await expect.poll(async () => (await api.call('GET', `/api/v1/orders/${order.id}`, { token: winner.tokens.accessToken })).body.status, { timeout: 15_000 }).toBe('PAYMENT_OVERDUE');
    const overduePage = adminOrdersPageSchema.parse((await api.call('GET', '/api/admin/orders?status=PAYMENT_OVERDUE', { token: adminToken() })).body);
    const listed = overduePage.content;
    expect(listed.map((each) => each.id)).toContain(order.id);
    expect(overduePage.counts.PAYMENT_OVERDUE).toBeGreaterThanOrEqual(1);
    expect(listed.find((each) => each.id === order.id)!.adminActions).toEqual({
      recordPayment: true,
      changeShipping: true,
      ship: false,
      markDelivered: false,
      cancel: true,
      offerToRunnerUp: false,
      relist: false,
    });
    // Found by its order number (or the start of it), the buyer's email, the item's title.
    for (const search of [order.orderNumber, order.orderNumber.slice(4, 9).toLowerCase(), winner.user.email.toUpperCase()]) {
      const found = (await api.call('GET', `/api/admin/orders?search=${encodeURIComponent(search)}`, { token: adminToken() })).body;
      expect(found.content.map((each: { id: string }) => each.id), search).toContain(order.id);
    }
    const paged = (await api.call('GET', '/api/admin/orders?size=1&page=0', { token: adminToken() })).body;
    expect(paged).toMatchObject({ size: 1, number: 0, first: true });
    expect(paged.content).toHaveLength(1);
    expect(listed.find((each) => each.id === order.id)!.buyer).toEqual({ id: winner.user.id, email: winner.user.email, name: 'Test Buyer' });

    await api.deps.notifier!.caughtUp();
    expect((await noticesOf(winner.tokens.accessToken)).filter((notice) => notice.kind === 'PAYMENT_OVERDUE').map((notice) => notice.link)).toEqual([`/purchases/${order.id}`]);
    const adminTold = (await noticesOf(adminToken())).filter((notice) => notice.kind === 'PAYMENT_OVERDUE' && notice.link === `/admin/orders/${order.id}`);
    expect(adminTold).toHaveLength(1);
    expect(adminTold[0]!.body).toContain(winner.user.email);

    const noReason = await api.call('POST', `/api/admin/orders/${order.id}/cancel`, { token: adminToken(), body: { reason: ' ' } });
    expect([noReason.status, noReason.body.message]).toEqual([400, 'A reason is required']);
    const cancelled = await api.call('POST', `/api/admin/orders/${order.id}/cancel`, { token: adminToken(), body: { reason: 'Not paid within the window' } });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancellationReason: 'Not paid within the window', howToPay: null });
    const payCancelled = await api.call('POST', `/api/admin/orders/${order.id}/payments`, { token: adminToken(), body: { amount: 10, reference: 'LATE' } });
    expect([payCancelled.status, payCancelled.body.message]).toEqual([409, 'This order was cancelled']);

    // The runner-up: the best bid of the others, at their own highest (their maximum, $64).
    const offered = await api.call('POST', `/api/admin/orders/${order.id}/second-chance`, { token: adminToken() });
    expect(offered.status, JSON.stringify(offered.body)).toBe(201);
    const offer = secondChanceOfferSchema.parse(offered.body);
    expect(offer).toMatchObject({ bidderId: runnerUp.user.id, amount: 64 });
    expect(offered.body.bidder).toEqual({ id: runnerUp.user.id, email: runnerUp.user.email, name: 'Test Buyer' });
    expect(Date.parse(offer.expiresAt) - api.deps.clock().getTime()).toBeGreaterThan(47 * 3_600_000);
    expect((await api.call('POST', `/api/admin/orders/${order.id}/second-chance`, { token: adminToken() })).body.message).toBe('An offer to the runner-up is still open');
    expect((await api.call('POST', `/api/admin/orders/${order.id}/relist`, { token: adminToken() })).body.message).toBe('An offer to the runner-up is still open');

    await api.deps.notifier!.caughtUp();
    const offerNotice = (await noticesOf(runnerUp.tokens.accessToken)).find((notice) => notice.kind === 'SECOND_CHANCE_OFFER');
    expect(offerNotice).toMatchObject({ link: `/second-chance/${offer.offerId}`, title: 'Second chance: Playoff game-worn jersey can be yours' });
    expect(offerNotice!.body).toContain('US $64.00');
    expect((await noticesOf(winner.tokens.accessToken)).map((notice) => notice.kind)).toContain('ORDER_CANCELLED');
    expect((await api.call('GET', `/api/v1/second-chance/${offer.offerId}`, { token: third.tokens.accessToken })).status).toBe(403);
    expect((await api.call('POST', `/api/v1/second-chance/${offer.offerId}/accept`, { token: winner.tokens.accessToken })).status).toBe(403);
    expect((await api.call('GET', `/api/v1/second-chance/${offer.offerId}`, { token: runnerUp.tokens.accessToken })).body).toMatchObject({
      amount: 64,
      buyersPremiumPercent: 20,
      buyersPremium: 12.8,
      shipping: 25,
      total: 101.8,
      outcome: 'OPEN',
      orderId: null,
    });

    const accepted = await api.call('POST', `/api/v1/second-chance/${offer.offerId}/accept`, { token: runnerUp.tokens.accessToken });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const theirs = orderSchema.parse(accepted.body);
    expect(theirs).toMatchObject({ status: 'AWAITING_PAYMENT', hammerPrice: 64, buyersPremium: 12.8, shipping: 25, total: 101.8, secondChance: true, listingId: lot.listingId });
    expect(Date.parse(theirs.paymentDueAt) - Date.parse(theirs.placedAt)).toBe(36_000);
    expect((await api.call('POST', `/api/v1/second-chance/${offer.offerId}/accept`, { token: runnerUp.tokens.accessToken })).body.message).toBe('This offer has already been accepted');
    expect((await orderOf(runnerUp.tokens.accessToken, lot.listingId)).id).toBe(theirs.id);

    const original = adminOrderSchema.parse((await api.call('GET', `/api/admin/orders/${order.id}`, { token: adminToken() })).body);
    expect(original).toMatchObject({ status: 'CANCELLED', successorOrderId: theirs.id });
    expect(original.offers).toEqual([expect.objectContaining({ offerId: offer.offerId, outcome: 'ACCEPTED', newOrderId: theirs.id, bidder: expect.objectContaining({ email: runnerUp.user.email }) })]);
    expect(original).toMatchObject({ balance: 0, adminActions: { offerToRunnerUp: false, relist: false, cancel: false } });
    expect((await api.call('POST', `/api/admin/orders/${order.id}/relist`, { token: adminToken() })).body.message).toBe(
      'The runner-up accepted an offer: the item is sold to them',
    );
    const story = (await api.call('GET', `/api/public/nfc/${lot.nfcUid}`)).body.history.map((entry: { event: string; summary: string }) => entry.summary);
    // The runner-up's price was their private maximum: the public record says only that they bought it.
    expect(story.slice(-3)).toEqual(['Sold for $70.00', 'The sale was cancelled: the buyer did not complete it', 'Sold to the runner-up']);
  });

  it('a declined offer leaves the admin free to relist: the listing is back on sale with its tag, and publishes again', async () => {
    const lot = await publishedLot({});
    const winner = await api.signUp();
    const runnerUp = await api.signUp();
    await bid(runnerUp.tokens.accessToken, lot.auctionId, 51);
    await bid(winner.tokens.accessToken, lot.auctionId, 60);
    const order = await orderOf(winner.tokens.accessToken, lot.listingId);
    await api.call('POST', `/api/admin/orders/${order.id}/cancel`, { token: adminToken(), body: { reason: 'Buyer withdrew' } });
    const offer = (await api.call('POST', `/api/admin/orders/${order.id}/second-chance`, { token: adminToken() })).body;
    const declined = await api.call('POST', `/api/v1/second-chance/${offer.offerId}/decline`, { token: runnerUp.tokens.accessToken });
    expect(declined.body).toMatchObject({ outcome: 'DECLINED' });
    expect((await api.call('POST', `/api/admin/orders/${order.id}/second-chance`, { token: adminToken() })).body.message).toBe('No other bidder is left to make an offer to');

    const relisted = await api.call('POST', `/api/admin/orders/${order.id}/relist`, { token: adminToken() });
    expect(relisted.body).toMatchObject({ status: 'CANCELLED', listingReleased: true });
    const listing = await api.call('GET', `/api/admin/listings/${lot.listingId}`, { token: adminToken() });
    expect(listing.body).toMatchObject({ status: 'NFC_BOUND', nfcUid: lot.nfcUid });
    const again = await api.call('POST', `/api/admin/listings/${lot.listingId}/publish`, { token: adminToken(), body: { durationHours: 24 } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.auction.auctionId).not.toBe(lot.auctionId);
    const story = (await api.call('GET', `/api/public/nfc/${lot.nfcUid}`)).body.history.map((entry: { event: string }) => entry.event);
    expect(story.slice(story.indexOf('LISTING_SOLD')), JSON.stringify(story)).toEqual(['LISTING_SOLD', 'SALE_CANCELLED', 'LISTING_RELISTED', 'LISTING_PUBLISHED', 'AUCTION_SCHEDULED', 'AUCTION_OPENED']);
  });

  it('places one order per sale, with the lifecycle restarted and a second API process on the same database', async () => {
    const second = await startTestApi(backend, { sharing: api, clock: () => new Date(Date.now() + skewMs), services: { lifecycle: { pollMs: 50 } } });
    try {
      const lots = await Promise.all([publishedLot({}, 1_500), publishedLot({}, 1_600), publishedLot({}, 1_700)]);
      const buyer = await api.signUp();
      for (const lot of lots) expect((await bid(buyer.tokens.accessToken, lot.auctionId, 51)).status).toBe(201);
      await api.deps.lifecycle!.stop();
      api.deps.lifecycle!.start();
      for (const lot of lots) await orderOf(buyer.tokens.accessToken, lot.listingId);
      await Promise.all([api.deps.lifecycle!.runOnce(), second.deps.lifecycle!.runOnce()]);
      for (const lot of lots) await caughtUpWith(api, auctionStreamId(lot.auctionId));
      const rows = await api.deps.db.selectFrom('orders').select(['id', 'auction_id']).where('auction_id', 'in', lots.map((lot) => lot.auctionId)).execute();
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(await api.deps.eventStore.readStream(orderStreamId(row.id))).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
