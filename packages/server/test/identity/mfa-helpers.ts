import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { sendRequest, type TestResponse, type TestServer } from '../support/test-server.js';
import { asSession, createUser, login, PASSWORD, type Session, sessionOf } from './identity-helpers.js';

/** A clock the test moves: TOTP codes depend on the time step. */
export function testClock(): { now: () => Date; advance: (ms: number) => void } {
  let at = Date.UTC(2026, 0, 1, 12, 0, 0);
  return { now: () => new Date(at), advance: (ms) => (at += ms) };
}

/** The code an authenticator app shows for this secret at this time. */
export function codeAt(secret: string, at: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
}

let nextAddress = 1;

/** A fresh client address per scenario (the server trusts X-Forwarded-For in these tests). */
export function newAddress(): Record<string, string> {
  nextAddress += 1;
  return { 'x-forwarded-for': `203.0.113.${nextAddress}` };
}

/** A signed-in user who enrolled and confirmed a second factor. */
export interface EnrolledUser {
  id: string;
  email: string;
  session: Session;
  secret: string;
  recoveryCodes: string[];
  from: Record<string, string>;
}

/** Creates a user, signs in, enrols and confirms a second factor with the code of `clock.now()`. */
export async function enrolledUser(
  t: TestServer,
  clock: { now: () => Date; advance: (ms: number) => void },
  role = 'editor',
): Promise<EnrolledUser> {
  const from = newAddress();
  const user = await createUser(t, { role });
  const session = sessionOf(await login(t.url, user.email, PASSWORD, from));
  const enrolment = await asSession(t.url, session, 'POST', '/api/v1/me/mfa/enrol', { headers: from });
  expect(enrolment.status, enrolment.text).toBe(200);
  const { secret } = enrolment.body.data;
  const confirmed = await asSession(t.url, session, 'POST', '/api/v1/me/mfa/confirm', {
    headers: from,
    body: { code: codeAt(secret, clock.now()) },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  // The confirming code's step is spent: the next sign-in code comes from the next step.
  clock.advance(30_000);
  return { id: user.id, email: user.email, session, secret, recoveryCodes: confirmed.body.data.recoveryCodes, from };
}

/** The second sign-in step. */
export function loginMfa(
  t: TestServer,
  challengeToken: string,
  code: string,
  headers: Record<string, string>,
): Promise<TestResponse> {
  return sendRequest(t.url, null, 'POST', '/api/v1/auth/login/mfa', { body: { challengeToken, code }, headers });
}

/** The first step of a user with a second factor: its challenge token. */
export async function firstStep(t: TestServer, email: string, headers: Record<string, string>): Promise<string> {
  const response = await login(t.url, email, PASSWORD, headers);
  expect(response.status, response.text).toBe(200);
  expect(response.body.data.session).toBeUndefined();
  expect(response.headers.getSetCookie()).toEqual([]);
  return response.body.data.mfa.challengeToken;
}
