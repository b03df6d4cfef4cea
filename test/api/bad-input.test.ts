import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

/** Input the database itself refuses must come back as 400, never 500. */
describe.each(API_BACKENDS)('text the database cannot store, on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  it('is refused with 400 when it reaches a query', async () => {
    const { tokens, user } = await api.signUp('BUYER');
    const response = await api.call('PUT', `/api/v1/users/${user.id}/profile`, {
      token: tokens.accessToken,
      body: { firstName: 'Nul\u0000Byte', lastName: 'Buyer', phone: null },
    });
    expect(response.status).toBe(400);
  });

  it('is refused with 400 at registration', async () => {
    const response = await api.call('POST', '/api/auth/register', {
      body: { firstName: 'A\u0000', lastName: 'B', email: 'nul@example.com', password: 'Str0ng!Passw0rd', role: 'BUYER' },
    });
    expect(response.status).toBe(400);
  });
});
