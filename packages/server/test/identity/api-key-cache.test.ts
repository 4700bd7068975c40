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
});
