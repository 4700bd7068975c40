import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, sessionOf } from './identity-helpers.js';
import { codeAt, firstStep, loginMfa, newAddress, testClock } from './mfa-helpers.js';

const clock = testClock();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_TRUST_PROXY: 'true', CMS_REQUIRE_MFA: 'admins' }, clock: clock.now });
});
afterAll(() => t.close());

async function signedIn(role: string) {
  const from = newAddress();
  const user = await createUser(t, { role });
  return { ...user, from, session: sessionOf(await login(t.url, user.email, PASSWORD, from)) };
}

describe('CMS_REQUIRE_MFA=admins', () => {
  it('lets an administrator without a second factor do nothing but enrol, then everything', async () => {
    const admin = await signedIn('admin');
    const blocked = await asSession(t.url, admin.session, 'GET', '/api/v1/users');
    expectError(blocked, 403, 'MFA_ENROLMENT_REQUIRED');
    expect(blocked.body.error.message).toMatch(/\/api\/v1\/me\/mfa\/enrol/);
    expectError(
      await asSession(t.url, admin.session, 'GET', '/api/v1/studio/bootstrap'),
      403,
      'MFA_ENROLMENT_REQUIRED',
    );
    expectError(
      await asSession(t.url, admin.session, 'POST', '/api/v1/api-keys', { body: { label: 'x', scopes: [] } }),
      403,
      'MFA_ENROLMENT_REQUIRED',
    );
    // Nor approve a command-line sign-in: the device flow inherits the session's factor.
    const approve = await asSession(t.url, admin.session, 'POST', '/api/v1/auth/cli/authorize', {
      body: { challengeId: '00000000-0000-4000-8000-000000000000' },
    });
    expectError(approve, 403, 'MFA_ENROLMENT_REQUIRED');
    const me = await asSession(t.url, admin.session, 'GET', '/api/v1/me');
    expect(me.status, me.text).toBe(200);
    const status = await asSession(t.url, admin.session, 'GET', '/api/v1/me/mfa');
    expect(status.body.data).toMatchObject({ enabled: false, required: true });

    const enrolment = await asSession(t.url, admin.session, 'POST', '/api/v1/me/mfa/enrol', { headers: admin.from });
    const { secret } = enrolment.body.data;
    const confirmed = await asSession(t.url, admin.session, 'POST', '/api/v1/me/mfa/confirm', {
      headers: admin.from,
      body: { code: codeAt(secret, clock.now()) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    // The same session goes on, now with the factor.
    expect((await asSession(t.url, admin.session, 'GET', '/api/v1/users')).status).toBe(200);
    clock.advance(30_000);
    const token = await firstStep(t, admin.email, admin.from);
    const next = sessionOf(await loginMfa(t, token, codeAt(secret, clock.now()), admin.from));
    expect((await asSession(t.url, next, 'GET', '/api/v1/users')).status).toBe(200);
  });

  it('lets the administrator sign out and list sessions while blocked', async () => {
    const admin = await signedIn('admin');
    expect((await asSession(t.url, admin.session, 'GET', '/api/v1/auth/sessions')).status).toBe(200);
    expect((await asSession(t.url, admin.session, 'POST', '/api/v1/auth/logout')).status).toBe(200);
  });

  it('asks nothing of other roles, nor of API keys', async () => {
    const editor = await signedIn('editor');
    const grants = [{ project: 'default', environment: '*', role: 'editor' }];
    expect((await t.request('PUT', `/api/v1/users/${editor.id}/grants`, { body: grants })).status).toBe(200);
    const status = await asSession(t.url, editor.session, 'GET', '/api/v1/me/mfa');
    expect(status.body.data).toMatchObject({ required: false });
    expect((await asSession(t.url, editor.session, 'GET', '/api/v1/studio/bootstrap')).status).toBe(200);
    expect((await t.request('GET', '/api/v1/users')).status).toBe(200);
  });

  it('asks nothing of an administrator without a password (single sign-on only)', async () => {
    const admin = await signedIn('admin');
    await t.db.query('update users set password_hash = null where id = $1', [admin.id]);
    expect((await asSession(t.url, admin.session, 'GET', '/api/v1/users')).status).toBe(200);
  });

  it('blocks again an administrator who turns the factor off', async () => {
    const admin = await signedIn('admin');
    const enrolment = await asSession(t.url, admin.session, 'POST', '/api/v1/me/mfa/enrol', { headers: admin.from });
    await asSession(t.url, admin.session, 'POST', '/api/v1/me/mfa/confirm', {
      headers: admin.from,
      body: { code: codeAt(enrolment.body.data.secret, clock.now()) },
    });
    expect((await asSession(t.url, admin.session, 'GET', '/api/v1/users')).status).toBe(200);
    const off = await asSession(t.url, admin.session, 'POST', '/api/v1/me/mfa/disable', {
      headers: admin.from,
      body: { currentPassword: PASSWORD },
    });
    expect(off.body.data, off.text).toMatchObject({ enabled: false, required: true });
    expectError(await asSession(t.url, admin.session, 'GET', '/api/v1/users'), 403, 'MFA_ENROLMENT_REQUIRED');
  });
});
