/** Changing one's own password needs the current one, checked under the login backoff. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, sessionOf, signInAs } from './identity-helpers.js';

const NEW_PASSWORD = 'a brand new passphrase 2026';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_TRUST_PROXY: 'true' } });
});
afterAll(() => t.close());

let nextAddress = 1;
/** No routing headers, and a client address of its own for each test (the backoff counts addresses). */
function none(address = `198.51.100.${nextAddress}`) {
  return { project: null, environment: null, headers: { 'x-forwarded-for': address } };
}

describe('own password change', () => {
  beforeEach(() => {
    nextAddress += 1;
  });

  it('is refused without currentPassword, and with a wrong one, naming the field', async () => {
    const admin = await signInAs(t, { role: 'admin' });
    const missing = await asSession(t.url, admin, 'PATCH', `/api/v1/users/${admin.userId}`, {
      ...none(),
      body: { password: NEW_PASSWORD },
    });
    expectError(missing, 400, 'INVALID_INPUT');
    expect(missing.body.error.details.fields['body.currentPassword']).toMatch(/required to change your own password/);
    const wrong = await asSession(t.url, admin, 'PATCH', `/api/v1/users/${admin.userId}`, {
      ...none(),
      body: { password: NEW_PASSWORD, currentPassword: 'not my password at all' },
    });
    expectError(wrong, 400, 'INVALID_INPUT');
    expect(wrong.body.error.details.fields['body.currentPassword']).toBe('is not your current password');
    expect((await login(t.url, admin.email, PASSWORD)).status).toBe(200);
  });

  it('works with the right current password; the new one signs in', async () => {
    const admin = await signInAs(t, { role: 'admin' });
    const changed = await asSession(t.url, admin, 'PATCH', `/api/v1/users/${admin.userId}`, {
      ...none(),
      body: { password: NEW_PASSWORD, currentPassword: PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);
    expectError(await login(t.url, admin.email, PASSWORD), 401, 'UNAUTHORIZED');
    expect(sessionOf(await login(t.url, admin.email, NEW_PASSWORD)).userId).toBe(admin.userId);
  });

  it('counts wrong current passwords in the login backoff', async () => {
    const admin = await signInAs(t, { role: 'admin' });
    for (let i = 0; i < 5; i += 1) {
      const wrong = await asSession(t.url, admin, 'PATCH', `/api/v1/users/${admin.userId}`, {
        ...none(),
        body: { password: NEW_PASSWORD, currentPassword: `wrong password number ${i}` },
      });
      expectError(wrong, 400, 'INVALID_INPUT');
    }
    const limited = await asSession(t.url, admin, 'PATCH', `/api/v1/users/${admin.userId}`, {
      ...none(),
      body: { password: NEW_PASSWORD, currentPassword: PASSWORD },
    });
    expectError(limited, 429, 'RATE_LIMITED');
  });

  it("is not needed for an administrator resetting another user's password, nor for an API key", async () => {
    const admin = await signInAs(t, { role: 'admin' });
    const other = await createUser(t);
    const reset = await asSession(t.url, admin, 'PATCH', `/api/v1/users/${other.id}`, {
      ...none(),
      body: { password: NEW_PASSWORD },
    });
    expect(reset.status, reset.text).toBe(200);
    const byKey = await t.request('PATCH', `/api/v1/users/${other.id}`, { ...none(), body: { password: PASSWORD } });
    expect(byKey.status, byKey.text).toBe(200);
  });
});
