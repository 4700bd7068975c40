import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, sessionOf } from './identity-helpers.js';
import { codeAt, enrolledUser, firstStep, loginMfa, newAddress, testClock } from './mfa-helpers.js';

const clock = testClock();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_TRUST_PROXY: 'true' }, clock: clock.now });
});
afterAll(() => t.close());

async function signedIn(role = 'editor') {
  const from = newAddress();
  const user = await createUser(t, { role });
  return { ...user, from, session: sessionOf(await login(t.url, user.email, PASSWORD, from)) };
}

describe('enrolling a second factor', () => {
  it('starts pending with a secret and its otpauth URI, and turns on with a first code', async () => {
    const user = await signedIn();
    const before = await asSession(t.url, user.session, 'GET', '/api/v1/me/mfa');
    expect(before.body.data).toEqual({
      enabled: false,
      pending: false,
      required: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    const enrolment = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/enrol', { headers: user.from });
    expect(enrolment.status, enrolment.text).toBe(200);
    const { secret, otpauthUri } = enrolment.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    const pending = await asSession(t.url, user.session, 'GET', '/api/v1/me/mfa');
    expect(pending.body.data).toMatchObject({ enabled: false, pending: true });
    // Pending is not on: the password alone still signs in.
    expect(sessionOf(await login(t.url, user.email, PASSWORD, user.from)).token).not.toBe('');

    const wrong = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/confirm', {
      headers: user.from,
      body: { code: '000000' === codeAt(secret, clock.now()) ? '111111' : '000000' },
    });
    expectError(wrong, 400, 'INVALID_INPUT');
    expect(Object.keys(wrong.body.error.details.fields)).toEqual(['body.code']);

    const confirmed = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/confirm', {
      headers: user.from,
      body: { code: codeAt(secret, clock.now()) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data.status).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    expect(confirmed.body.data.recoveryCodes).toHaveLength(10);
    // Shown once: the status never carries them again.
    const after = await asSession(t.url, user.session, 'GET', '/api/v1/me/mfa');
    expect(after.text).not.toContain(confirmed.body.data.recoveryCodes[0]);
  });

  it('stores the secret sealed and the recovery codes hashed', async () => {
    const user = await enrolledUser(t, clock);
    const stored = await t.db.query<{ secret: string }>(
      'select totp_secret as secret from user_mfa where user_id = $1',
      [user.id],
    );
    expect(stored.rows[0]?.secret).toMatch(/^v1\./);
    expect(stored.rows[0]?.secret).not.toContain(user.secret);
    const codes = await t.db.query<{ hash: Buffer }>(
      'select code_hash as hash from user_mfa_recovery_codes where user_id = $1',
      [user.id],
    );
    expect(codes.rowCount).toBe(10);
    const normalized = (user.recoveryCodes[0] ?? '').replace(/-/g, '');
    for (const row of codes.rows) expect(Buffer.from(row.hash).toString('latin1')).not.toContain(normalized);
  });

  it('refuses a second enrolment while one is on, and API keys altogether', async () => {
    const user = await enrolledUser(t, clock);
    const again = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/enrol');
    expectError(again, 400, 'INVALID_INPUT');
    expectError(await t.request('GET', '/api/v1/me/mfa'), 403, 'FORBIDDEN');
    expectError(await t.request('POST', '/api/v1/me/mfa/enrol'), 403, 'FORBIDDEN');
  });

  it('refuses a confirmation without a pending enrolment', async () => {
    const user = await signedIn();
    const response = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/confirm', {
      headers: user.from,
      body: { code: '123456' },
    });
    expectError(response, 400, 'INVALID_INPUT');
  });

  it('answers malformed bodies with INVALID_INPUT, unsigned requests with UNAUTHORIZED', async () => {
    const user = await signedIn();
    const tooShort = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/confirm', { body: { code: '12' } });
    expectError(tooShort, 400, 'INVALID_INPUT');
    const empty = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', { body: {} });
    expectError(empty, 400, 'INVALID_INPUT');
    const extra = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
      body: { currentPassword: PASSWORD, other: 1 },
    });
    expectError(extra, 400, 'INVALID_INPUT');
    const withoutCsrf = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/enrol', { csrf: false });
    expectError(withoutCsrf, 403, 'CSRF_INVALID');
    const anonymous = await fetch(`${t.url}/api/v1/me/mfa`);
    expect(anonymous.status).toBe(401);
  });
});

describe('recovery codes and turning the factor off', () => {
  it('replaces the recovery codes when proven by a code; the old ones stop working', async () => {
    const user = await enrolledUser(t, clock);
    const renewed = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/recovery-codes', {
      headers: user.from,
      body: { code: codeAt(user.secret, clock.now()) },
    });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body.data.recoveryCodes).toHaveLength(10);
    const old = await loginMfa(t, await firstStep(t, user.email, user.from), user.recoveryCodes[0] ?? '', user.from);
    expectError(old, 401, 'UNAUTHORIZED');
    const fresh = renewed.body.data.recoveryCodes[0];
    expect((await loginMfa(t, await firstStep(t, user.email, user.from), fresh, user.from)).status).toBe(200);
  });

  it('turns off with the current password, not with a wrong one', async () => {
    const user = await enrolledUser(t, clock);
    const wrong = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
      headers: user.from,
      body: { currentPassword: 'not my password at all' },
    });
    expectError(wrong, 400, 'INVALID_INPUT');
    expect(Object.keys(wrong.body.error.details.fields)).toEqual(['body.currentPassword']);
    const off = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
      headers: user.from,
      body: { currentPassword: PASSWORD },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false, pending: false, recoveryCodesLeft: 0 });
    const signIn = await login(t.url, user.email, PASSWORD, user.from);
    expect(signIn.body.data.session?.email).toBe(user.email);
    const left = await t.db.query('select 1 from user_mfa_recovery_codes where user_id = $1', [user.id]);
    expect(left.rowCount).toBe(0);
  });

  it('turns off with a code or a recovery code, not with a wrong code', async () => {
    const user = await enrolledUser(t, clock);
    const wrong = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
      headers: user.from,
      body: { code: 'AAAA-AAAA-AAAA-AAAA-AAAA-AAAA' },
    });
    expectError(wrong, 400, 'INVALID_INPUT');
    const off = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
      headers: user.from,
      body: { code: user.recoveryCodes[3] },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.data.enabled).toBe(false);
  });

  it('charges wrong codes of a signed-in user to the backoff', async () => {
    const user = await enrolledUser(t, clock);
    const from = newAddress();
    for (let guess = 0; guess < 5; guess += 1) {
      const response = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
        headers: from,
        body: { code: '999999' },
      });
      expectError(response, 400, 'INVALID_INPUT');
    }
    const limited = await asSession(t.url, user.session, 'POST', '/api/v1/me/mfa/disable', {
      headers: from,
      body: { code: codeAt(user.secret, clock.now()) },
    });
    expectError(limited, 429, 'RATE_LIMITED');
  });

  it("lets an administrator remove another user's factor (lost device), never their own this way", async () => {
    const user = await enrolledUser(t, clock);
    const reset = await t.request('DELETE', `/api/v1/users/${user.id}/mfa`, { project: null, environment: null });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.data.id).toBe(user.id);
    expect((await login(t.url, user.email, PASSWORD, user.from)).body.data.session?.email).toBe(user.email);
    const admin = await signedIn('admin');
    const own = await asSession(t.url, admin.session, 'DELETE', `/api/v1/users/${admin.id}/mfa`, {
      project: null,
      environment: null,
    });
    expectError(own, 400, 'INVALID_INPUT');
    const editor = await signedIn('editor');
    const refused = await asSession(t.url, editor.session, 'DELETE', `/api/v1/users/${user.id}/mfa`, {
      project: null,
      environment: null,
    });
    expectError(refused, 403, 'FORBIDDEN');
  });
});
