import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock } from '../sign-in/cli-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectError } from './identity-helpers.js';

const time = movableClock();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: time.clock });
});
afterAll(() => t.close());

const me = (key: string) => t.request('GET', '/api/v1/me', { key });

describe('the API key cache on the server clock', () => {
  it('serves a found key for 60 s, so a change nobody announced takes effect within that', async () => {
    const key = await t.createKey();
    expect((await me(key)).status).toBe(200);
    // Revoked behind the server's back: no invalidation reaches the cache, only its lifetime ends it.
    await t.db.query('update api_keys set revoked_at = now() where starts_with($1, prefix)', [key]);
    time.advance(59_000);
    expect((await me(key)).status).toBe(200);
    time.advance(2_000);
    expectError(await me(key), 401, 'UNAUTHORIZED');
  });

  it('judges expiry by the server clock, even for a key it holds', async () => {
    const key = await t.createKey({ expiresAt: new Date(time.clock().getTime() + 30_000) });
    expect((await me(key)).status).toBe(200);
    time.advance(31_000);
    const expired = await me(key);
    expectError(expired, 401, 'UNAUTHORIZED');
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('stamps lastUsedAt with the server clock, not the wall clock', async () => {
    // An hour ahead of the wall clock: a stamp from `new Date()` would be an hour early.
    time.advance(3_600_000);
    const key = await t.createKey();
    expect((await me(key)).status).toBe(200);
    const usedAt = time.clock().getTime();
    await t.server.close(); // flushes the pending stamps
    const row = await t.db.query<{ lastUsedAt: Date | null }>(
      'select last_used_at as "lastUsedAt" from api_keys where starts_with($1, prefix)',
      [key],
    );
    const stamp = row.rows[0]?.lastUsedAt?.getTime() ?? 0;
    expect(stamp).toBeGreaterThanOrEqual(usedAt);
    expect(stamp - usedAt).toBeLessThan(60_000);
  });
});
