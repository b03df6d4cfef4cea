import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';
import { createMarketplaceListing } from '../support/marketplace';

type Account = Awaited<ReturnType<TestApi['signUp']>>;

describe.each(API_BACKENDS)('PUT /api/admin/users/{id}/roles on %s', (backend) => {
  let api: TestApi;
  let admin: Account;

  beforeAll(async () => {
    api = await startTestApi(backend);
    admin = await api.signUp('ADMIN');
  });
  afterAll(async () => api.close());

  const setRoles = (userId: string, body: unknown, token = admin.tokens.accessToken) => api.call('PUT', `/api/admin/users/${userId}/roles`, { token, body });
  const securityLog = (userId: string) =>
    api.deps.db.selectFrom('security_log').select(['kind', 'actor_id', 'details']).where('user_id', '=', userId).where('kind', '=', 'ROLES_CHANGED').execute();

  it('grants AUDITOR and ADMIN (the whole set), logs who did it, and the roles apply from the next refresh', async () => {
    const person = await api.signUp('BUYER');
    const granted = await setRoles(person.user.id, { roles: ['AUDITOR'] });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ id: person.user.id, roles: ['AUDITOR'] });
    expect(await securityLog(person.user.id)).toEqual([{ kind: 'ROLES_CHANGED', actor_id: admin.user.id, details: { from: ['BUYER'], to: ['AUDITOR'] } }]);

    // The access token in hand keeps its roles; a refresh brings the new ones.
    const refreshed = await api.call('POST', '/api/auth/refresh', { body: { refreshToken: person.tokens.refreshToken } });
    expect(refreshed.status).toBe(200);
    const claims = JSON.parse(Buffer.from(refreshed.body.accessToken.split('.')[1], 'base64url').toString());
    expect(claims.roles).toEqual(['AUDITOR']);

    // Setting the same set again changes and logs nothing.
    expect((await setRoles(person.user.id, { roles: ['AUDITOR'] })).status).toBe(200);
    expect(await securityLog(person.user.id)).toHaveLength(1);
    const promoted = await setRoles(person.user.id, { roles: ['ADMIN', 'AUDITOR', 'BUYER'] });
    expect(promoted.body.roles).toEqual(['ADMIN', 'AUDITOR', 'BUYER']);
  });

  it('an auditor cannot bid (the engine asks for BUYER) nor use the admin API', async () => {
    const person = await api.signUp('BUYER');
    await setRoles(person.user.id, { roles: ['AUDITOR'] });
    const session = (await api.call('POST', '/api/auth/refresh', { body: { refreshToken: person.tokens.refreshToken } })).body;
    const { auctionId } = await createMarketplaceListing(api, { price: 50 });
    const bid = await api.call('POST', '/api/bids', { token: session.accessToken, body: { auctionId, amount: 51 } });
    expect(bid.status).toBe(403);
    expect((await api.call('GET', '/api/admin/listings', { token: session.accessToken })).status).toBe(403);
  });

  it("refuses an admin dropping their own ADMIN (409), roles outside the three or none (400), an unknown user (404), buyers (403)", async () => {
    const own = await setRoles(admin.user.id, { roles: ['BUYER'] });
    expect(own.status).toBe(409);
    expect(own.body.message).toBe('You cannot remove your own admin role');
    expect((await setRoles(admin.user.id, { roles: ['ADMIN', 'AUDITOR'] })).status).toBe(200);

    const person = await api.signUp('BUYER');
    expect((await setRoles(person.user.id, { roles: ['SYSTEM'] })).status).toBe(400);
    expect((await setRoles(person.user.id, { roles: ['OWNER'] })).status).toBe(400);
    const none = await setRoles(person.user.id, { roles: [] });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('A user needs at least one role');
    expect((await setRoles(crypto.randomUUID(), { roles: ['BUYER'] })).status).toBe(404);
    expect((await setRoles(person.user.id, { roles: ['ADMIN'] }, person.tokens.accessToken)).status).toBe(403);
    expect(await securityLog(person.user.id)).toEqual([]);
  });
});
