import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serverMessageSchema, type ServerMessage } from '../../api/contracts/live';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { caughtUpWith, createMarketplaceListing } from '../support/marketplace';
import { TestSmtpServer } from '../support/smtp';
import { auctionStreamId } from '../../engine/domain';

/** A real WebSocket client that keeps every message, each checked against the published schema. */
class Socket {
  readonly messages: ServerMessage[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.messages.push(serverMessageSchema.parse(JSON.parse(data.toString()))));
  }
  static async open(url: string): Promise<Socket> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws/bidding`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new Socket(socket);
  }
  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }
  async waitFor<T extends ServerMessage['type']>(type: T, count = 1): Promise<Extract<ServerMessage, { type: T }>[]> {
    await expect.poll(() => this.messages.filter((message) => message.type === type).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    return this.messages.filter((message): message is Extract<ServerMessage, { type: T }> => message.type === type);
  }
  close(): void {
    this.socket.close(1000);
  }
}

describe.each(API_BACKENDS)('watchlist, notices and their mail (%s)', (backend) => {
  let api: TestApi;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    api = await startTestApi(backend, { services: { mail: { smtpUrl: smtp.url, from: 'Provenance <no-reply@provenance.test>', pollMs: 200 }, lifecycle: { pollMs: 200 } } });
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  const bid = (token: string, auctionId: string, amount: number, maxAmount?: number) =>
    api.call('POST', '/api/bids', { token, body: { auctionId, amount, ...(maxAmount ? { maxAmount } : {}) } });
  const notices = async (token: string) => (await api.call('GET', '/api/v1/users/me/notifications', { token })).body;
  const settled = async (auctionId: string) => {
    await caughtUpWith(api, auctionStreamId(auctionId));
    await api.deps.notifier!.caughtUp();
  };

  describe('the watchlist', () => {
    it('follows a listing on the server: PUT and DELETE are idempotent, an unknown listing is 404, anonymous is 401', async () => {
      const lot = await createMarketplaceListing(api, { title: 'Watched jersey' });
      const { tokens } = await api.signUp();
      const token = tokens.accessToken;
      expect((await api.call('GET', '/api/v1/users/me/watchlist')).status).toBe(401);
      expect((await api.call('PUT', `/api/v1/users/me/watchlist/${lot.listingId}`, { token })).status).toBe(204);
      expect((await api.call('PUT', `/api/v1/users/me/watchlist/${lot.listingId}`, { token })).status).toBe(204);
      expect((await api.call('PUT', '/api/v1/users/me/watchlist/no-such-listing', { token })).status).toBe(404);
      const list = await api.call('GET', '/api/v1/users/me/watchlist', { token });
      expect(list.status).toBe(200);
      expect(list.body.content).toHaveLength(1);
      expect(list.body.content[0]).toMatchObject({ listingId: lot.listingId, slug: lot.slug, title: 'Watched jersey', auctionStatus: 'ACTIVE', currentPrice: '50.00', listingStatus: 'LIVE' });
      expect(list.body.content[0].imageUrl).toContain(lot.mediaIds[0]);
      expect((await api.call('DELETE', `/api/v1/users/me/watchlist/${lot.listingId}`, { token })).status).toBe(204);
      expect((await api.call('DELETE', `/api/v1/users/me/watchlist/${lot.listingId}`, { token })).status).toBe(204);
      expect((await api.call('DELETE', '/api/v1/users/me/watchlist/no-such-listing', { token })).status).toBe(404);
      expect((await api.call('GET', '/api/v1/users/me/watchlist', { token })).body.content).toEqual([]);
    });
  });

  describe('OUTBID', () => {
    it('tells the bidder whose lead was taken, in the app, live on their signed-in socket, and by mail with a link to the lot', async () => {
      const lot = await createMarketplaceListing(api, { title: 'Outbid cap' });
      const first = await api.signUp();
      const second = await api.signUp();
      const socket = await Socket.open(api.url);
      const visitor = await Socket.open(api.url);
      socket.send({ action: 'authenticate', token: first.tokens.accessToken });
      expect((await socket.waitFor('authenticated'))[0]).toEqual({ type: 'authenticated', userId: first.user.id, unreadCount: 0 });

      expect((await bid(first.tokens.accessToken, lot.auctionId!, 51)).status).toBe(201);
      expect((await bid(second.tokens.accessToken, lot.auctionId!, 60)).status).toBe(201);
      await settled(lot.auctionId!);

      const [live] = await socket.waitFor('notification');
      expect(live!.unreadCount).toBe(1);
      expect(live!.notification).toMatchObject({ kind: 'OUTBID', listingId: lot.listingId, auctionId: lot.auctionId, title: 'You have been outbid on Outbid cap', link: `/marketplace/${lot.slug}`, readAt: null });
      expect(live!.notification.body).toContain('US $60.00');

      const mine = await notices(first.tokens.accessToken);
      expect(mine.unreadCount).toBe(1);
      expect(mine.content.map((notice: { kind: string }) => notice.kind)).toEqual(['OUTBID']);
      expect((await notices(second.tokens.accessToken)).content).toEqual([]);

      const mail = await smtp.waitFor(first.user.email, /You have been outbid on Outbid cap/);
      expect(mail.links).toContain(`${api.url}/marketplace/${lot.slug}`);
      expect(mail.html).toContain('Go to the lot');

      // Read on one device: the others hear the new count.
      const read = await api.call('POST', '/api/v1/users/me/notifications/read', { token: first.tokens.accessToken, body: { all: true } });
      expect(read.body).toEqual({ unreadCount: 0 });
      expect((await socket.waitFor('unread_count')).at(-1)).toEqual({ type: 'unread_count', unreadCount: 0 });
      expect(visitor.messages.filter((message) => message.type !== 'subscribed')).toEqual([]);
      socket.close();
      visitor.close();
    });

    it('counts a lead taken past a proxy maximum, and not a bid that a proxy answered at once', async () => {
      const lot = await createMarketplaceListing(api, { title: 'Proxy bat' });
      const leader = await api.signUp();
      const challenger = await api.signUp();
      await bid(leader.tokens.accessToken, lot.auctionId!, 51, 70);
      // The leader's maximum answers at once: the challenger never led, the leader never lost the lead.
      await bid(challenger.tokens.accessToken, lot.auctionId!, 52);
      await settled(lot.auctionId!);
      expect((await notices(leader.tokens.accessToken)).content).toEqual([]);
      expect((await notices(challenger.tokens.accessToken)).content).toEqual([]);
      // Past the maximum the lead changes hands: the proxy bid up to 70 for the leader and lost.
      await bid(challenger.tokens.accessToken, lot.auctionId!, 80);
      await bid(leader.tokens.accessToken, lot.auctionId!, 90);
      await bid(challenger.tokens.accessToken, lot.auctionId!, 100);
      await settled(lot.auctionId!);
      expect((await notices(leader.tokens.accessToken)).content.map((notice: { kind: string }) => notice.kind)).toEqual(['OUTBID', 'OUTBID']);
      expect((await notices(challenger.tokens.accessToken)).content.map((notice: { kind: string }) => notice.kind)).toEqual(['OUTBID']);
      // A bidding war is not a stream of mail: one outbid mail per lot and person per ten minutes.
      await smtp.waitFor(leader.user.email, /outbid on Proxy bat/);
      await api.deps.mailSender.runOnce();
      expect(smtp.to(leader.user.email).filter((mail) => /outbid on Proxy bat/.test(mail.subject))).toHaveLength(1);
    });

    it('an opt-out stops the mail, never the notice', async () => {
      const lot = await createMarketplaceListing(api, { title: 'Quiet gloves' });
      const quiet = await api.signUp();
      const other = await api.signUp();
      await api.call('PUT', `/api/v1/users/${quiet.user.id}/profile`, { token: quiet.tokens.accessToken, body: { firstName: 'Q', lastName: 'Uiet', transactionalOptOut: true } });
      await bid(quiet.tokens.accessToken, lot.auctionId!, 51);
      await bid(other.tokens.accessToken, lot.auctionId!, 52);
      await settled(lot.auctionId!);
      expect((await notices(quiet.tokens.accessToken)).content.map((notice: { kind: string }) => notice.kind)).toEqual(['OUTBID']);
      await api.deps.mailSender.runOnce();
      const queued = await api.deps.db.selectFrom('mail_outbox').select('subject').where('recipient', '=', quiet.user.email).execute();
      expect(queued.map((row) => row.subject)).not.toContain('You have been outbid on Quiet gloves');
    });
  });

  describe('WON and LOST', () => {
    it('when a lot closes, tells the winner WON and every other bidder LOST, by mail too', async () => {
      const endsAt = new Date(Date.now() + 2500);
      const lot = await createMarketplaceListing(api, { title: 'Final whistle shirt', endsAt });
      const winner = await api.signUp();
      const loser = await api.signUp();
      await bid(loser.tokens.accessToken, lot.auctionId!, 51);
      await bid(winner.tokens.accessToken, lot.auctionId!, 70);
      await expect
        .poll(async () => (await notices(winner.tokens.accessToken)).content.map((notice: { kind: string }) => notice.kind), { timeout: 15_000 })
        .toEqual(['WON']);
      expect((await notices(loser.tokens.accessToken)).content.map((notice: { kind: string }) => notice.kind)).toEqual(['LOST', 'OUTBID']);
      const won = await smtp.waitFor(winner.user.email, /You won Final whistle shirt/);
      expect(won.text).toContain('US $70.00');
      await smtp.waitFor(loser.user.email, /Final whistle shirt sold to another bidder/);
    });
  });

  describe('ENDING_SOON', () => {
    it('tells those who follow or bid on a lot entering its last hour, once per lot and person', async () => {
      const lot = await createMarketplaceListing(api, { title: 'Last hour helmet', endsAt: new Date(Date.now() + 30 * 60_000) });
      const follower = await api.signUp();
      const bidder = await api.signUp();
      const stranger = await api.signUp();
      await api.call('PUT', `/api/v1/users/me/watchlist/${lot.listingId}`, { token: follower.tokens.accessToken });
      await bid(bidder.tokens.accessToken, lot.auctionId!, 51);
      await caughtUpWith(api, auctionStreamId(lot.auctionId!));
      await api.deps.notifier!.sweepEndingSoon();
      await api.deps.notifier!.sweepEndingSoon();
      for (const person of [follower, bidder]) {
        const kinds = (await notices(person.tokens.accessToken)).content.map((notice: { kind: string }) => notice.kind);
        expect(kinds).toEqual(['ENDING_SOON']);
      }
      expect((await notices(stranger.tokens.accessToken)).content).toEqual([]);
      await smtp.waitFor(follower.user.email, /Last hour helmet ends soon/);
    });
  });

  describe('exactly once', () => {
    it('a notifier restarted mid-stream, and a second API process on the same database, make each notice once', async () => {
      const lot = await createMarketplaceListing(api, { title: 'Twice told trophy' });
      const people = await Promise.all([api.signUp(), api.signUp(), api.signUp()]);
      const second = await startTestApi(backend, { sharing: api, services: { lifecycle: false } });
      try {
        let amount = 51;
        for (let round = 0; round < 4; round++) {
          for (const person of people) expect((await bid(person.tokens.accessToken, lot.auctionId!, amount++)).status).toBe(201);
          if (round === 1) {
            await api.deps.notifier!.stop();
            await api.deps.notifier!.start();
          }
        }
        await settled(lot.auctionId!);
        await second.deps.notifier!.caughtUp();
        // 12 bids, each taking the lead from the one before: 11 outbids.
        const made = await api.deps.db.selectFrom('notifications').select(['kind', 'recipient_id']).where('auction_id', '=', lot.auctionId!).execute();
        expect(made).toHaveLength(11);
        expect(new Set(made.map((row) => row.kind))).toEqual(new Set(['OUTBID']));
      } finally {
        await second.close();
      }
    });
  });

  describe('sockets', () => {
    it('refuses a bad token and keeps the socket public-only; signing out goes back to public news', async () => {
      const socket = await Socket.open(api.url);
      socket.send({ action: 'authenticate', token: 'not-a-token' });
      expect((await socket.waitFor('unauthenticated'))[0]).toEqual({ type: 'unauthenticated', reason: 'Invalid access token' });
      const { user, tokens } = await api.signUp();
      socket.send({ action: 'authenticate', token: tokens.accessToken });
      expect((await socket.waitFor('authenticated'))[0]!.userId).toBe(user.id);
      socket.send({ action: 'deauthenticate' });
      expect((await socket.waitFor('unauthenticated', 2))[1]).toEqual({ type: 'unauthenticated', reason: 'Signed out' });
      socket.close();
    });
  });
});
