import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, expectError, login, PASSWORD, sessionOf } from './identity-helpers.js';
import { codeAt, enrolledUser, firstStep, loginMfa, newAddress, testClock } from './mfa-helpers.js';

const clock = testClock();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_TRUST_PROXY: 'true' }, clock: clock.now });
});
afterAll(() => t.close());

describe('sign-in with a second factor', () => {
  it('answers { mfa } without cookies to a right password, and a session to the code', async () => {
    const user = await enrolledUser(t, clock);
    const token = await firstStep(t, user.email, user.from);
    const first = await login(t.url, user.email, PASSWORD, user.from);
    expect(first.body.data.mfa.expiresAt).toBe(new Date(clock.now().getTime() + 5 * 60_000).toISOString());
    const signedIn = await loginMfa(t, token, codeAt(user.secret, clock.now()), user.from);
    const session = sessionOf(signedIn);
    expect(signedIn.body.data.session).toMatchObject({ userId: user.id, email: user.email });
    const status = await asSession(t.url, session, 'GET', '/api/v1/me/mfa');
    expect(status.body.data, status.text).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 });
  });

  it('takes a code typed with spaces and one step of clock drift', async () => {
    const user = await enrolledUser(t, clock);
    clock.advance(30_000);
    const previous = codeAt(user.secret, new Date(clock.now().getTime() - 30_000));
    const token = await firstStep(t, user.email, user.from);
    const spaced = `${previous.slice(0, 3)} ${previous.slice(3)}`;
    expect((await loginMfa(t, token, spaced, user.from)).status).toBe(200);
  });

  it('refuses a wrong password before any second step', async () => {
    const user = await enrolledUser(t, clock);
    expectError(await login(t.url, user.email, 'not the password at all', user.from), 401, 'UNAUTHORIZED');
  });

  it('refuses the replay of an accepted code, even in a new sign-in', async () => {
    const user = await enrolledUser(t, clock);
    const code = codeAt(user.secret, clock.now());
    expect((await loginMfa(t, await firstStep(t, user.email, user.from), code, user.from)).status).toBe(200);
    const again = await loginMfa(t, await firstStep(t, user.email, user.from), code, user.from);
    expectError(again, 401, 'UNAUTHORIZED');
    // An earlier step than the last accepted one is a replay too.
    const earlier = codeAt(user.secret, new Date(clock.now().getTime() - 30_000));
    expectError(await loginMfa(t, await firstStep(t, user.email, user.from), earlier, user.from), 401, 'UNAUTHORIZED');
  });

  it('signs in once per challenge: a used challenge token is refused', async () => {
    const user = await enrolledUser(t, clock);
    const token = await firstStep(t, user.email, user.from);
    expect((await loginMfa(t, token, codeAt(user.secret, clock.now()), user.from)).status).toBe(200);
    clock.advance(30_000);
    const reused = await loginMfa(t, token, codeAt(user.secret, clock.now()), user.from);
    expectError(reused, 401, 'UNAUTHORIZED');
    expect(reused.body.error.message).toMatch(/sign in again/);
  });

  it('refuses an expired or unknown challenge token', async () => {
    const user = await enrolledUser(t, clock);
    const token = await firstStep(t, user.email, user.from);
    clock.advance(5 * 60_000 + 1);
    expectError(await loginMfa(t, token, codeAt(user.secret, clock.now()), user.from), 401, 'UNAUTHORIZED');
    expectError(await loginMfa(t, 'no-such-token', '123456', user.from), 401, 'UNAUTHORIZED');
  });

  it('takes each recovery code once, whatever its case and dashes', async () => {
    const user = await enrolledUser(t, clock);
    expect(user.recoveryCodes).toHaveLength(10);
    for (const code of user.recoveryCodes) expect(code).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){5}$/);
    expect(new Set(user.recoveryCodes).size).toBe(10);
    const [code = ''] = user.recoveryCodes;
    const typed = code.toLowerCase().replace(/-/g, ' ');
    expect((await loginMfa(t, await firstStep(t, user.email, user.from), typed, user.from)).status).toBe(200);
    const twice = await loginMfa(t, await firstStep(t, user.email, user.from), code, user.from);
    expectError(twice, 401, 'UNAUTHORIZED');
    const status = await asSession(t.url, user.session, 'GET', '/api/v1/me/mfa');
    expect(status.body.data.recoveryCodesLeft).toBe(9);
  });

  it('charges wrong codes to the login backoff: a right password cannot reset it, nor can a right code pass', async () => {
    const user = await enrolledUser(t, clock);
    // Guesses from one address (from many, they would only be slowed: login-lockout-elsewhere.test.ts).
    const from = newAddress();
    for (let guess = 0; guess < 5; guess += 1) {
      expectError(await loginMfa(t, await firstStep(t, user.email, from), '000000', from), 401, 'UNAUTHORIZED');
    }
    const limited = await login(t.url, user.email, PASSWORD, from);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(31_000);
    const token = await firstStep(t, user.email, from);
    expectError(await loginMfa(t, token, '111111', from), 401, 'UNAUTHORIZED');
    // In backoff again after that failure: even the right code waits.
    expectError(await loginMfa(t, token, codeAt(user.secret, clock.now()), from), 429, 'RATE_LIMITED');
    clock.advance(61_000);
    expect((await loginMfa(t, token, codeAt(user.secret, clock.now()), from)).status).toBe(200);
    // The right code cleared the email's counter.
    expect((await login(t.url, user.email, PASSWORD, newAddress())).status).toBe(200);
  });

  it('ends a challenge after five wrong codes', async () => {
    const user = await enrolledUser(t, clock);
    const from = newAddress();
    const token = await firstStep(t, user.email, from);
    for (let guess = 0; guess < 5; guess += 1) {
      expectError(await loginMfa(t, token, `00000${guess}`, from), 401, 'UNAUTHORIZED');
    }
    const left = await t.db.query('select 1 from mfa_challenges where user_id = $1', [user.id]);
    expect(left.rowCount).toBe(0);
    // Once the backoff is over, the right code on that challenge still needs the password again.
    clock.advance(31_000);
    const late = await loginMfa(t, token, codeAt(user.secret, clock.now()), from);
    expectError(late, 401, 'UNAUTHORIZED');
    expect(late.body.error.message).toMatch(/sign in again/);
  });

  it('answers INVALID_INPUT in the envelope to malformed second steps', async () => {
    const from = newAddress();
    expectError(await loginMfa(t, 'x', '12', from), 400, 'INVALID_INPUT');
    const extra = await loginMfa(t, 'x'.repeat(201), '123456', from);
    expectError(extra, 400, 'INVALID_INPUT');
    expect(Object.keys(extra.body.error.details.fields)).toContain('body.challengeToken');
  });
});
