import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ACCESS_TTL_MS, AccountAccessCache, batchedAccountAccess, readAccountAccess, type AccountAccess } from '../../api/accounts/account-access';
import { endAllSessions } from '../../api/accounts/sessions';
import { changePassword, changeRoles } from '../../api/accounts/users';
import { API_BACKENDS, startTestApi, type TestApi } from '../support/api';

const ACTIVE: AccountAccess = { id: 'u1', roles: ['BUYER'], status: 'ACTIVE', session_version: 0 };
const DISABLED: AccountAccess = { ...ACTIVE, status: 'DISABLED' };

/** A cache over reads the test answers one by one, on a clock the test moves. */
function harness() {
  const reads: { userId: string; answer(access: AccountAccess | undefined): void; fail(error: Error): void }[] = [];
  let now = 0;
  const cache = new AccountAccessCache(
    (userId) =>
      new Promise((resolve, reject) => {
        reads.push({ userId, answer: resolve, fail: reject });
      }),
    () => now,
  );
  return {
    cache,
    reads,
    advance(ms: number) {
      now += ms;
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('AccountAccessCache', () => {
  it('reads an account once while it is fresh, however many requests ask at once', async () => {
    const { cache, reads, advance } = harness();
    const first = cache.lookup('u1');
    const second = cache.lookup('u1');
    expect(reads).toHaveLength(1);
    reads[0]!.answer(ACTIVE);
    expect(await first).toEqual(ACTIVE);
    expect(await second).toEqual(ACTIVE);
    advance(ACCOUNT_ACCESS_TTL_MS / 2 - 1);
    expect(await cache.lookup('u1')).toEqual(ACTIVE);
    expect(reads).toHaveLength(1);
  });

  it('reads again after forget, and never answers a later request with a read from before it', async () => {
    const { cache, reads } = harness();
    const before = cache.lookup('u1');
    cache.forget('u1'); // the change commits while the first read is in flight
    const after = cache.lookup('u1');
    expect(reads).toHaveLength(2);
    reads[0]!.answer(ACTIVE);
    reads[1]!.answer(DISABLED);
    expect(await before).toEqual(ACTIVE);
    expect(await after).toEqual(DISABLED);
    expect(await cache.lookup('u1')).toEqual(DISABLED);
    expect(reads).toHaveLength(2);
  });

  it('past half its life, answers from memory while a fresh read replaces it', async () => {
    const { cache, reads, advance } = harness();
    const first = cache.lookup('u1');
    reads[0]!.answer(ACTIVE);
    await first;
    advance(ACCOUNT_ACCESS_TTL_MS / 2);
    expect(await cache.lookup('u1')).toEqual(ACTIVE);
    expect(await cache.lookup('u1')).toEqual(ACTIVE);
    expect(reads).toHaveLength(2); // one refresh, not one per request
    reads[1]!.answer(DISABLED);
    await settled();
    expect(await cache.lookup('u1')).toEqual(DISABLED);
    // The refreshed entry lives from when its read was sent.
    advance(ACCOUNT_ACCESS_TTL_MS / 2 - 1);
    await cache.lookup('u1');
    expect(reads).toHaveLength(2);
  });

  it('refreshes every entry past half its life together, not one read per account and request', async () => {
    const { cache, reads, advance } = harness();
    const both = [cache.lookup('u1'), cache.lookup('u2')];
    reads[0]!.answer(ACTIVE);
    reads[1]!.answer({ ...ACTIVE, id: 'u2' });
    await Promise.all(both);
    advance(ACCOUNT_ACCESS_TTL_MS / 4);
    const third = cache.lookup('u3'); // read later: not due with the others
    reads[2]!.answer({ ...ACTIVE, id: 'u3' });
    await third;
    advance(ACCOUNT_ACCESS_TTL_MS / 4);
    await cache.lookup('u1');
    expect(reads.slice(3).map((read) => read.userId)).toEqual(['u1', 'u2']);
    await cache.lookup('u2');
    expect(reads).toHaveLength(5); // u2 is already being refreshed
  });

  it('drops a refresh that a forget overtook', async () => {
    const { cache, reads, advance } = harness();
    const first = cache.lookup('u1');
    reads[0]!.answer(ACTIVE);
    await first;
    advance(ACCOUNT_ACCESS_TTL_MS / 2);
    await cache.lookup('u1'); // starts a refresh
    cache.forget('u1');
    const after = cache.lookup('u1');
    reads[2]!.answer(DISABLED);
    reads[1]!.answer(ACTIVE); // the refresh, read before the change, lands last
    await settled();
    expect(await after).toEqual(DISABLED);
    expect(await cache.lookup('u1')).toEqual(DISABLED);
  });

  it('waits for a fresh read once an entry has expired', async () => {
    const { cache, reads, advance } = harness();
    const first = cache.lookup('u1');
    reads[0]!.answer(ACTIVE);
    await first;
    advance(ACCOUNT_ACCESS_TTL_MS);
    const expired = cache.lookup('u1');
    expect(reads).toHaveLength(2);
    reads[1]!.answer(DISABLED);
    expect(await expired).toEqual(DISABLED);
  });

  it('keeps no failed read: the next request reads again', async () => {
    const { cache, reads } = harness();
    const failing = cache.lookup('u1');
    reads[0]!.fail(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    const retried = cache.lookup('u1');
    expect(reads).toHaveLength(2);
    reads[1]!.answer(ACTIVE);
    expect(await retried).toEqual(ACTIVE);
  });
});

describe.each(API_BACKENDS)('AccountAccessCache on %s', (backend) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(backend);
  });
  afterAll(async () => api.close());

  it("is told by the account functions of each change they commit, without waiting for the notification", async () => {
    const { user } = await api.signUp('ADMIN');
    // Not listening, on a clock that stands still: only the account functions can make it read again.
    const cache = new AccountAccessCache((userId) => readAccountAccess(api.deps.db, userId), () => 0);
    const sessionVersion = async () => (await cache.lookup(user.id))?.session_version;
    expect(await sessionVersion()).toBe(0);
    await changePassword(api.deps.db, cache, { userId: user.id, newPassword: 'N3w!Passw0rd', actorId: user.id });
    expect(await sessionVersion()).toBe(1);
    await endAllSessions(api.deps.db, cache, user.id);
    expect(await sessionVersion()).toBe(2);
    await changeRoles(api.deps.db, cache, { userId: user.id, roles: ['AUDITOR'], actorId: user.id });
    expect((await cache.lookup(user.id))?.roles).toEqual(['AUDITOR']);
  });

  it('reads the accounts asked for at once together, each answered with its own (none for an unknown id)', async () => {
    const users = await Promise.all([api.signUp('BUYER'), api.signUp('ADMIN'), api.signUp('BUYER')]);
    const read = batchedAccountAccess(api.deps.db);
    const ids = [...users.map(({ user }) => user.id), users[0]!.user.id, '00000000-0000-4000-8000-000000000000'];
    const answers = await Promise.all(ids.map(read));
    const expected = await Promise.all(ids.map((id) => readAccountAccess(api.deps.db, id)));
    expect(answers).toEqual(expected);
    expect(answers.at(-1)).toBeUndefined();
    expect(answers[1]).toMatchObject({ id: users[1]!.user.id, roles: expect.arrayContaining(['ADMIN']), status: 'ACTIVE' });
  });

  it("forgets accounts when the users table announces a change, before any entry's time is up", async () => {
    const { user } = await api.signUp('BUYER');
    let reads = 0;
    // The clock stands still: only the notification can make the cache read again.
    const cache = new AccountAccessCache((userId) => {
      reads++;
      return readAccountAccess(api.deps.db, userId);
    }, () => 0);
    await cache.listen(api.deps.sql);
    try {
      expect(await cache.lookup(user.id)).toMatchObject({ status: 'ACTIVE' });
      await api.deps.db.updateTable('users').set({ status: 'DISABLED' }).where('id', '=', user.id).execute();
      await expect.poll(async () => (await cache.lookup(user.id))?.status).toBe('DISABLED');
      expect(reads).toBe(2);
    } finally {
      await cache.close();
    }
  });
});
