/**
 * Sign-ins the login backoff throttles (429) write one audit entry per counter and backoff window, not one
 * each (docs/audit.md "Sign-in events"): a flood of refused attempts cannot fill the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login, uniqueEmail } from '../identity/identity-helpers.js';
import { testClock } from '../identity/mfa-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

const clock = testClock();
let next = 0;
/** A fresh client address, as a trusted proxy reports it. */
function address(): string {
  next += 1;
  return `198.18.7.${next}`;
}
const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** The instance log's `auth.login` entries of one client address, oldest first. */
async function loginEntries(t: TestServer, ip: string): Promise<any[]> {
  return (await auditEntries(t, { action: 'auth.login' }, { project: null, environment: null }))
    .filter((entry) => entry.ip === ip)
    .reverse();
}

describe('throttled sign-ins in the login backoff', () => {
  let t: TestServer;
  beforeAll(async () => {
    // A clock the test moves: the waits the entries name do not depend on how long the requests took.
    t = await startTestServer({ env: { CMS_TRUST_PROXY: 'true' }, clock: clock.now });
  });
  afterAll(() => t.close());

  it('write one entry per counter and backoff window, the next window naming how many the last had', async () => {
    const ip = address();
    const email = uniqueEmail('target');
    for (let i = 0; i < 5; i += 1)
      expectError(await login(t.url, email, 'wrong password!', from(ip)), 401, 'UNAUTHORIZED');
    for (let i = 0; i < 6; i += 1)
      expectError(await login(t.url, email, 'wrong password!', from(ip)), 429, 'RATE_LIMITED');
    let entries = await loginEntries(t, ip);
    expect(entries.map((entry) => entry.changes.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(entries[5]).toMatchObject({
      outcome: 'failure',
      actor: { type: 'anonymous', label: email },
      changes: { throttle: { counter: 'address', retryAfterSeconds: 30 }, status: 429 },
    });

    // The wait passes, one more failure opens the next window: its first refusal is written, with the count.
    clock.advance(31_000);
    expectError(await login(t.url, email, 'wrong password!', from(ip)), 401, 'UNAUTHORIZED');
    for (let i = 0; i < 3; i += 1)
      expectError(await login(t.url, email, 'wrong password!', from(ip)), 429, 'RATE_LIMITED');
    entries = await loginEntries(t, ip);
    expect(entries.map((entry) => entry.changes.status)).toEqual([401, 401, 401, 401, 401, 429, 401, 429]);
    expect(entries[7].changes.throttle).toEqual({
      counter: 'address',
      retryAfterSeconds: 60,
      refusedInWindowBefore: 6,
    });
  });

  it('write exactly one entry for many parallel refusals of one window, round after round', async () => {
    for (let round = 0; round < 3; round += 1) {
      const ip = address();
      const email = uniqueEmail('parallel');
      for (let i = 0; i < 5; i += 1) await login(t.url, email, 'wrong password!', from(ip));
      const refused = await Promise.all(
        Array.from({ length: 20 }, () => login(t.url, uniqueEmail('spray'), 'wrong password!', from(ip))),
      );
      expect(refused.map((response) => response.status)).toEqual(Array(20).fill(429));
      const throttled = (await loginEntries(t, ip)).filter((entry) => entry.changes.status === 429);
      expect(throttled).toHaveLength(1);
    }
  });
});
