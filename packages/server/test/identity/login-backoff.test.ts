import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffAfter, clientKeyOf } from '../../src/modules/core-system/login-throttle.js';
import { startServerOn } from '../support/server-on-database.js';
import type { TestResponse, TestServer } from '../support/test-server.js';
import { startTestServer } from '../support/test-server.js';
import { createUser, expectError, login, PASSWORD, uniqueEmail } from './identity-helpers.js';

let t: TestServer;
let nextAddress = 1;
const TRUST_PROXY = { CMS_TRUST_PROXY: 'true' };

/** A fresh client address for each scenario (the server trusts X-Forwarded-For here). */
function newAddress(): string {
  nextAddress += 1;
  return `198.51.100.${nextAddress}`;
}

function from(address: string): Record<string, string> {
  return { 'x-forwarded-for': address };
}

async function failTimes(url: string, email: string, times: number, address: () => string): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    expectError(await login(url, email, 'wrong password!', from(address())), 401, 'UNAUTHORIZED');
  }
}

function expectRateLimited(response: TestResponse, maxSeconds = 30): number {
  expectError(response, 429, 'RATE_LIMITED');
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  expect(response.body.error.details.retryAfterSeconds).toBe(retryAfter);
  return retryAfter;
}

beforeAll(async () => {
  t = await startTestServer({ env: TRUST_PROXY });
});
afterAll(() => t.close());

// Failures of one email from many addresses only slow its attempts: login-lockout-elsewhere.test.ts.
describe('login backoff per email and address', () => {
  it('answers RATE_LIMITED with Retry-After after 5 failures from one address, even to the right password', async () => {
    const { email } = await createUser(t);
    const address = newAddress();
    await failTimes(t.url, email, 5, () => address);
    expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
  });

  it('counts unknown emails like known ones, with the same answer', async () => {
    const unknown = uniqueEmail('nobody');
    const { email } = await createUser(t);
    const address = newAddress();
    const a = await login(t.url, unknown, 'wrong password!', from(address));
    const b = await login(t.url, email, 'wrong password!', from(newAddress()));
    expect(a.body.error.message).toBe(b.body.error.message);
    await failTimes(t.url, unknown, 4, () => address);
    expectRateLimited(await login(t.url, unknown, 'wrong password!', from(address)));
  });

  it('waits exponentially longer with every further failure', async () => {
    const { email } = await createUser(t);
    const address = newAddress();
    await failTimes(t.url, email, 5, () => address);
    const first = expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
    expect(first).toBe(30);
    // Let the first wait pass, fail once more: the wait doubles.
    await t.db.query(`update login_throttle set last_failure_at = last_failure_at - interval '31 seconds'`);
    expectError(await login(t.url, email, 'wrong password!', from(address)), 401, 'UNAUTHORIZED');
    const second = expectRateLimited(await login(t.url, email, PASSWORD, from(address)), 60);
    expect(second).toBeGreaterThan(30);
    expect([backoffAfter(5), backoffAfter(6), backoffAfter(7), backoffAfter(20)]).toEqual([
      30_000, 60_000, 120_000, 900_000,
    ]);
  });

  it('lets the user in once the wait has passed, and a success clears the email counter', async () => {
    const { email } = await createUser(t);
    const address = newAddress();
    await failTimes(t.url, email, 5, () => address);
    await t.db.query(`update login_throttle set last_failure_at = last_failure_at - interval '31 seconds'`);
    expect((await login(t.url, email, PASSWORD, from(address))).status).toBe(200);
    await failTimes(t.url, email, 4, newAddress);
    expect((await login(t.url, email, PASSWORD, from(newAddress()))).status).toBe(200);
  });

  it('forgets failures older than 15 minutes', async () => {
    const { email } = await createUser(t);
    const address = newAddress();
    await failTimes(t.url, email, 4, () => address);
    await t.db.query(`update login_throttle set last_failure_at = last_failure_at - interval '16 minutes'`);
    await failTimes(t.url, email, 4, () => address);
    expect((await login(t.url, email, PASSWORD, from(address))).status).toBe(200);
  });
});

describe('login backoff under parallel attempts', () => {
  it('checks at most 5 of 40 simultaneous wrong passwords from one address, then refuses the right one there', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { email } = await createUser(t);
      const address = newAddress();
      const attempts = Array.from({ length: 40 }, () => login(t.url, email, 'wrong password!', from(address)));
      const statuses = (await Promise.all(attempts)).map((response) => response.status);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
    }
  });

  it('checks at most 5 of 40 simultaneous attempts from one address across emails', async () => {
    const address = newAddress();
    const attempts = Array.from({ length: 40 }, () =>
      login(t.url, uniqueEmail('parallel'), 'wrong password!', from(address)),
    );
    const statuses = (await Promise.all(attempts)).map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    const { email } = await createUser(t);
    expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
  });
});

describe('login backoff per client address', () => {
  it('blocks an address after 5 failures across different emails, and only that address', async () => {
    const address = newAddress();
    for (let i = 0; i < 5; i += 1) {
      expectError(await login(t.url, uniqueEmail('spray'), 'wrong password!', from(address)), 401, 'UNAUTHORIZED');
    }
    const { email } = await createUser(t);
    expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
    expect((await login(t.url, email, PASSWORD, from(newAddress()))).status).toBe(200);
  });

  it('does not clear the address counter on a success (no reset by signing in to an own account)', async () => {
    const address = newAddress();
    const { email: own } = await createUser(t);
    for (let i = 0; i < 4; i += 1) await login(t.url, uniqueEmail('victim'), 'wrong password!', from(address));
    expect((await login(t.url, own, PASSWORD, from(address))).status).toBe(200);
    await login(t.url, uniqueEmail('victim'), 'wrong password!', from(address));
    expectRateLimited(await login(t.url, own, PASSWORD, from(address)));
  });

  it('lets an address that waited out its backoff sign in again and again (a success re-arms nothing)', async () => {
    const address = newAddress();
    const { email } = await createUser(t);
    await failTimes(t.url, uniqueEmail('spray'), 5, () => address);
    expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
    await t.db.query(`update login_throttle set last_failure_at = last_failure_at - interval '31 seconds'`);
    for (let i = 0; i < 3; i += 1) expect((await login(t.url, email, PASSWORD, from(address))).status).toBe(200);
  });

  it('groups IPv6 clients by their /64', () => {
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKeyOf('192.0.2.7')).toBe('192.0.2.7');
  });

  it('ignores X-Forwarded-For unless CMS_TRUST_PROXY is set', async () => {
    const plain = await startTestServer();
    try {
      for (let i = 0; i < 5; i += 1) {
        const response = await login(plain.url, uniqueEmail('spoof'), 'wrong password!', from(`203.0.113.${i}`));
        expectError(response, 401, 'UNAUTHORIZED');
      }
      // All five came from 127.0.0.1 whatever the header said: that address is now blocked.
      const { email } = await createUser(plain);
      expectRateLimited(await login(plain.url, email, PASSWORD, from('203.0.113.99')));
    } finally {
      await plain.close();
    }
  });
});

describe('backoff state lives in the database', () => {
  it('survives a server restart on the same database', async () => {
    const first = await startTestServer({ env: TRUST_PROXY });
    const { email } = await createUser(first);
    const address = newAddress();
    await failTimes(first.url, email, 5, () => address);
    expectRateLimited(await login(first.url, email, PASSWORD, from(address)));
    await first.server.close();
    const restarted = await startServerOn(first.database, { key: null, env: TRUST_PROXY, ownConnection: true });
    try {
      expectRateLimited(await login(restarted.url, email, PASSWORD, from(address)));
    } finally {
      await restarted.close();
      await first.close();
    }
  });

  it('is shared by two server processes on one database', async () => {
    const other = await startServerOn(t.database, { key: null, env: TRUST_PROXY, ownConnection: true });
    try {
      const { email } = await createUser(t);
      const address = newAddress();
      await failTimes(t.url, email, 3, () => address);
      await failTimes(other.url, email, 2, () => address);
      expectRateLimited(await login(t.url, email, PASSWORD, from(address)));
      expectRateLimited(await login(other.url, email, PASSWORD, from(address)));
    } finally {
      await other.close();
    }
  });

  it('stores hashes of emails and addresses, never the submitted text', async () => {
    const email = uniqueEmail('stored');
    await login(t.url, email, 'wrong password!', from('192.0.2.200'));
    const rows = await t.db.query<{ key: string }>(`select encode(key_hash, 'escape') as key from login_throttle`);
    for (const row of rows.rows) {
      expect(row.key).not.toContain(email);
      expect(row.key).not.toContain('192.0.2.200');
    }
  });
});
