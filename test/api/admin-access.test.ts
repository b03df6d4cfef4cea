import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

/** Every admin call the product defines (under /api/admin on the main host and the admin host), as served here. */
const SPEC_ADMIN_ROUTES = [
  'POST /api/admin/auth/logout',
  'GET /api/admin/listings',
  'POST /api/admin/listings',
  'GET /api/admin/listings/{id}',
  'PUT /api/admin/listings/{id}/status',
  'POST /api/admin/listings/media/upload',
  'POST /api/admin/listings/{id}/media',
  'POST /api/admin/jerseys',
  'GET /api/admin/analytics',
  'POST /api/admin/bulk-import',
  'GET /api/admin/bulk-import/template',
  'POST /api/admin/media/upload/presigned-url',
  'POST /api/admin/media/upload/confirm',
  'GET /api/admin/media/upload/status/{id}',
  'GET /api/admin/nfc/tags/available',
  'GET /api/admin/nfc/tags',
  'GET /api/admin/nfc/tags/{uid}',
  'POST /api/admin/listings/{id}/bind',
  'POST /api/admin/listings/{id}/publish',
  'POST /api/admin/listings/{id}/nfc/qr',
  'POST /api/admin/nfc/tags/provision',
];

/** A well-formed value for each path parameter, so that only the missing sign-in can refuse the call. */
const PARAMETER_VALUES: Record<string, string> = {
  id: '7d3f0c1e-0000-4000-8000-000000000000',
  uid: '04:A1:B2:C3:D4:E5:F6',
};

describe.each(API_BACKENDS)('admin access on %s', (backend) => {
  let api: TestApi;
  let buyer: string;
  let adminRoutes: string[];

  beforeAll(async () => {
    api = await startTestApi(backend);
    buyer = (await api.signUp('BUYER')).tokens.accessToken;
    const document = api.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    adminRoutes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin/') && path !== '/api/admin/auth/login')
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
  });
  afterAll(async () => api.close());

  /** The route's status for a body it would refuse: the sign-in and role checks must answer first. */
  async function callWithBadBody(route: string, token?: string): Promise<number> {
    const [method, template] = route.split(' ') as [string, string];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(PARAMETER_VALUES[name] ?? 'x'));
    const body = method === 'GET' ? undefined : { unexpected: true };
    return (await api.call(method, path, { body, ...(token === undefined ? {} : { token }) })).status;
  }

  it('serves every admin call the admin screens make', () => {
    expect(adminRoutes).toEqual(expect.arrayContaining(SPEC_ADMIN_ROUTES));
  });

  it('answers 401 to an anonymous caller and 403 to a buyer on every admin route, before reading the body', async () => {
    const answers: Record<string, [number, number]> = {};
    for (const route of adminRoutes) answers[route] = [await callWithBadBody(route), await callWithBadBody(route, buyer)];
    expect(Object.values(answers).length).toBeGreaterThanOrEqual(SPEC_ADMIN_ROUTES.length);
    expect(answers).toEqual(Object.fromEntries(adminRoutes.map((route) => [route, [401, 403]])));
  });

  it('answers 403 to an auditor on every admin route but sign-out: auditors read the log, nothing else', async () => {
    const auditor = (await api.signUp('AUDITOR')).tokens.accessToken;
    const routes = adminRoutes.filter((route) => route !== 'POST /api/admin/auth/logout');
    const answers: Record<string, number> = {};
    for (const route of routes) answers[route] = await callWithBadBody(route, auditor);
    expect(answers).toEqual(Object.fromEntries(routes.map((route) => [route, 403])));
  });

  it('refuses a forged token (wrong key) and an expired session with 401', async () => {
    const forged = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4Iiwicm9sZXMiOlsiQURNSU4iXSwic3YiOjB9.c2lnbmF0dXJl';
    expect((await api.call('GET', '/api/admin/analytics', { token: forged })).status).toBe(401);
    const { tokens } = await api.signUp('ADMIN');
    expect((await api.call('GET', '/api/admin/analytics', { token: tokens.accessToken })).status).toBe(200);
    expect((await api.call('POST', '/api/admin/auth/logout', { token: tokens.accessToken })).status).toBe(204);
    expect((await api.call('GET', '/api/admin/analytics', { token: tokens.accessToken })).status).toBe(401);
  });
});
