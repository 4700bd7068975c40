/**
 * Nobody locks an owner out from elsewhere (docs/access-control.md "Login backoff"): failures count per
 * (email, address) and per address; a known device (a cookie signed at an earlier sign-in) counts alone;
 * an email's failures from everywhere only slow its attempts. The same holds for a wrong current
 * password and for wrong second-factor codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSlowdownAfter } from '../../src/modules/core-system/login-throttle.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, sessionOf } from './identity-helpers.js';
import { codeAt, enrolledUser, firstStep, loginMfa, testClock } from './mfa-helpers.js';

const NEW_PASSWORD = 'a brand new passphrase 2026';

const lines: Array<Record<string, any>> = [];
const clock = testClock();
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    env: { CMS_TRUST_PROXY: 'true', LOG_LEVEL: 'info' },
    clock: clock.now,
    logStream: { write: (line) => lines.push(JSON.parse(line)) },
  });
});
afterAll(() => t.close());

let next = 0;
/** A fresh client address, as a trusted proxy reports it. */
function address(): string {
  next += 1;
  return `192.0.2.${next}`;
}
const from = (ip: string, cookie?: string) => ({
  'x-forwarded-for': ip,
  ...(cookie ? { cookie } : {}),
});

/** The device cookie a sign-in set, as a browser sends it back. */
function deviceCookieOf(response: TestResponse): string {
  const set = response.headers.getSetCookie().find((line) => line.startsWith('cms_device='));
  expect(set, response.headers.getSetCookie().join('\n')).toBeDefined();
  return (set as string).split(';')[0] as string;
}

/** The slowdowns logged since `mark`, by the email's failure count they were for. */
function slowdownsSince(mark: number): Array<{ delayMs: number; emailFailures: number }> {
  return lines
    .slice(mark)
    .filter((line) => line.msg === 'sign-in attempt slowed: its email had many failures from elsewhere')
    .map((line) => ({ delayMs: line.delayMs, emailFailures: line.emailFailures }));
}

async function failFromFiveAddresses(email: string): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    expectError(await login(t.url, email, 'wrong password!', from(address())), 401, 'UNAUTHORIZED');
  }
}

describe('failures of an email from many addresses', () => {
  it('never refuse its right password from another address: they slow it, a second, doubling', async () => {
    const { email } = await createUser(t);
    await failFromFiveAddresses(email);
    const mark = lines.length;
    const started = performance.now();
    const signedIn = await login(t.url, email, PASSWORD, from(address()));
    const elapsed = performance.now() - started;
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(slowdownsSince(mark)).toEqual([{ delayMs: 1000, emailFailures: 6 }]);
    // A lower bound only: the wait happened (a loaded machine only makes it longer).
    expect(elapsed).toBeGreaterThanOrEqual(990);

    // A success cleared the email's count: five more failures, and the next attempt starts over at a second.
    await failFromFiveAddresses(email);
    const again = lines.length;
    expect((await login(t.url, email, PASSWORD, from(address()))).status).toBe(200);
    expect(slowdownsSince(again)).toEqual([{ delayMs: 1000, emailFailures: 6 }]);
  });

  it('count emails case-insensitively, and slow further failures longer, up to 5 seconds', async () => {
    const { email } = await createUser(t);
    await failFromFiveAddresses(email.toUpperCase());
    const mark = lines.length;
    for (let i = 0; i < 3; i += 1) {
      expectError(await login(t.url, email, 'wrong password!', from(address())), 401, 'UNAUTHORIZED');
    }
    expect(slowdownsSince(mark).map((slow) => slow.delayMs)).toEqual([1000, 2000, 4000]);
    expect([6, 7, 8, 9, 30].map(emailSlowdownAfter)).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(emailSlowdownAfter(5)).toBe(0);
  });

  it('never lock a right current password out after wrong ones from elsewhere', async () => {
    const owner = await createUser(t);
    const session = sessionOf(await login(t.url, owner.email, PASSWORD, from(address())));
    for (let i = 0; i < 5; i += 1) {
      const wrong = await asSession(t.url, session, 'POST', '/api/v1/me/password', {
        headers: from(address()),
        body: { currentPassword: `not the password ${i}`, password: NEW_PASSWORD },
      });
      expectError(wrong, 400, 'INVALID_INPUT');
    }
    const changed = await asSession(t.url, session, 'POST', '/api/v1/me/password', {
      headers: from(address()),
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);
  });

  it('never lock a right second-factor code out after wrong ones from elsewhere', async () => {
    const owner = await enrolledUser(t, clock);
    for (let i = 0; i < 5; i += 1) {
      const ip = from(address());
      expectError(await loginMfa(t, await firstStep(t, owner.email, ip), '000000', ip), 401, 'UNAUTHORIZED');
    }
    const ip = from(address());
    const signedIn = await loginMfa(t, await firstStep(t, owner.email, ip), codeAt(owner.secret, clock.now()), ip);
    expect(signedIn.status, signedIn.text).toBe(200);
  });
});

describe('a known device', () => {
  it('signs in from an address that others locked, with the cookie of its earlier sign-in', async () => {
    const { email } = await createUser(t);
    const office = address();
    const first = await login(t.url, email, PASSWORD, from(office));
    expect(first.status).toBe(200);
    const device = deviceCookieOf(first);
    const attributes = first.headers.getSetCookie().find((line) => line.startsWith('cms_device=')) as string;
    expect(attributes).toMatch(/HttpOnly/i);
    expect(attributes).toMatch(/SameSite=Strict/i);
    expect(attributes).toMatch(/Path=\//);
    expect(attributes).toMatch(/Max-Age=31536000/);

    // Someone behind the same address fails five times against the same email (and a sixth is refused).
    for (let i = 0; i < 5; i += 1) {
      expectError(await login(t.url, email, 'wrong password!', from(office)), 401, 'UNAUTHORIZED');
    }
    expectError(await login(t.url, email, PASSWORD, from(office)), 429, 'RATE_LIMITED');
    // The owner's browser is not slowed either: the email's signal is for unknown clients.
    const mark = lines.length;
    const known = await login(t.url, email, PASSWORD, from(office, device));
    expect(known.status, known.text).toBe(200);
    expect(slowdownsSince(mark)).toEqual([]);
    // Signed in again, the same device keeps its id.
    expect(deviceCookieOf(known).split('.')[1]).toBe(device.split('.')[1]);
  });

  it('counts its own failures alone: five lock that device, not the address', async () => {
    const { email } = await createUser(t);
    const ip = address();
    const device = deviceCookieOf(await login(t.url, email, PASSWORD, from(ip)));
    for (let i = 0; i < 5; i += 1) {
      expectError(await login(t.url, email, 'wrong password!', from(ip, device)), 401, 'UNAUTHORIZED');
    }
    expectError(await login(t.url, email, PASSWORD, from(ip, device)), 429, 'RATE_LIMITED');
    expect((await login(t.url, email, PASSWORD, from(ip))).status).toBe(200);
  });

  it('is only a device of the email it signed in as, and only with its signature', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const ip = address();
    const device = deviceCookieOf(await login(t.url, other.email, PASSWORD, from(address())));
    const [name, value] = device.split('=') as [string, string];
    const [version, id] = value.split('.');
    const forged = `${name}=${version}.${id}.${'A'.repeat(43)}`;
    for (let i = 0; i < 5; i += 1) {
      expectError(await login(t.url, owner.email, 'wrong password!', from(ip)), 401, 'UNAUTHORIZED');
    }
    for (const cookie of [device, forged, `${name}=garbage`]) {
      expectError(await login(t.url, owner.email, PASSWORD, from(ip, cookie)), 429, 'RATE_LIMITED');
    }
  });
});
