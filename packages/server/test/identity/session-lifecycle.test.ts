import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, type Session, sessionOf } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function newSession(role = 'admin'): Promise<Session & { email: string }> {
  const user = await createUser(t, { role });
  return { ...sessionOf(await login(t.url, user.email, PASSWORD)), email: user.email };
}

function cookieLine(session: Session, name: string): string {
  const line = session.setCookie.find((cookie) => cookie.startsWith(`${name}=`));
  expect(line, `Set-Cookie ${name}`).toBeDefined();
  return line as string;
}

async function lastSeenOf(sessionId: string): Promise<Date> {
  const result = await t.db.query<{ lastSeenAt: Date }>(
    'select last_seen_at as "lastSeenAt" from sessions where id = $1',
    [sessionId],
  );
  return result.rows[0]?.lastSeenAt as Date;
}

describe('sign-in', () => {
  it('answers { session } with every field and sets both cookies', async () => {
    const user = await createUser(t, { role: 'editor' });
    const response = await login(t.url, user.email, PASSWORD);
    expect(response.status).toBe(200);
    const { session } = response.body.data;
    expect(Object.keys(session).sort()).toEqual(
      ['current', 'email', 'expiresAt', 'id', 'ipAddress', 'issuedAt', 'lastSeenAt', 'userAgent', 'userId'].sort(),
    );
    expect(session).toMatchObject({ userId: user.id, email: user.email, current: true, ipAddress: '127.0.0.1' });
    expect(new Date(session.expiresAt).getTime() - new Date(session.issuedAt).getTime()).toBe(12 * 3600 * 1000);
    const cookies = sessionOf(response);
    expect(cookies.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookies.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookies.csrf).not.toBe(cookies.token);
  });

  it('marks cms_session HttpOnly and cms_csrf readable, both SameSite=Lax on Path=/ without Secure over http', async () => {
    const session = await newSession();
    const token = cookieLine(session, 'cms_session');
    const csrf = cookieLine(session, 'cms_csrf');
    for (const line of [token, csrf]) {
      expect(line).toMatch(/; Path=\/(;|$)/);
      expect(line).toMatch(/; SameSite=Lax(;|$)/);
      expect(line).toMatch(/; Max-Age=604800(;|$)/);
      expect(line).not.toMatch(/; Secure/);
    }
    expect(token).toMatch(/; HttpOnly(;|$)/);
    expect(csrf).not.toMatch(/HttpOnly/);
  });

  it('names both cookies __Host- and marks them Secure when CMS_PUBLIC_URL is https, reading both names', async () => {
    const secure = await startTestServer({ env: { CMS_PUBLIC_URL: 'https://cms.example.test' } });
    try {
      const user = await createUser(secure, { role: 'admin' });
      const session = sessionOf(await login(secure.url, user.email, PASSWORD));
      for (const name of ['__Host-cms_session', '__Host-cms_csrf']) {
        const line = cookieLine(session, name);
        // The prefix's conditions (RFC 6265bis): Secure, Path=/, no Domain.
        expect(line).toMatch(/; Secure(;|$)/);
        expect(line).toMatch(/; Path=\/(;|$)/);
        expect(line).not.toMatch(/Domain=/i);
      }
      expect(session.setCookie.some((c) => c.startsWith('cms_session='))).toBe(false);
      const me = (cookie: string) =>
        sendRequest(secure.url, null, 'GET', '/api/v1/me', { headers: { cookie }, project: null, environment: null });
      expect((await me(`__Host-cms_session=${session.token}`)).status).toBe(200);
      // The interface's plain name keeps working (sessions begun before a move to https).
      expect((await me(`cms_session=${session.token}`)).status).toBe(200);
      const out = await sendRequest(secure.url, null, 'POST', '/api/v1/auth/logout', {
        headers: { cookie: `__Host-cms_session=${session.token}`, 'x-cms-csrf-token': session.csrf },
        project: null,
        environment: null,
      });
      expect(out.status, out.text).toBe(200);
      const cleared = out.headers.getSetCookie().map((c) => c.split('=')[0]);
      expect(cleared.sort()).toEqual(['__Host-cms_csrf', '__Host-cms_session', 'cms_csrf', 'cms_session']);
    } finally {
      await secure.close();
    }
  });

  it('rejects wrong passwords, unknown emails and malformed bodies', async () => {
    const user = await createUser(t);
    expectError(await login(t.url, user.email, 'not the password'), 401, 'UNAUTHORIZED');
    expectError(await login(t.url, 'nobody@example.test', PASSWORD), 401, 'UNAUTHORIZED');
    const extra = await sendRequest(t.url, null, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: PASSWORD, remember: true },
    });
    expectError(extra, 400, 'INVALID_INPUT');
    expectError(
      await sendRequest(t.url, null, 'POST', '/api/v1/auth/login', { body: { email: user.email } }),
      400,
      'INVALID_INPUT',
    );
  });

  it('signs in with the routing headers too, and ignores a stale cookie', async () => {
    const user = await createUser(t);
    const response = await sendRequest(t.url, null, 'POST', '/api/v1/auth/login', {
      body: { email: user.email.toUpperCase(), password: PASSWORD },
      headers: { cookie: 'cms_session=stale' },
    });
    expect(response.status).toBe(200);
  });

  it('refuses a user who has no password yet', async () => {
    const user = await createUser(t, { password: null });
    expectError(await login(t.url, user.email, PASSWORD), 401, 'UNAUTHORIZED');
  });
});

describe('session authentication', () => {
  it('authenticates the cookie as the user, with CSRF needed only for mutations', async () => {
    const session = await newSession('admin');
    const me = await asSession(t.url, session, 'GET', '/api/v1/me', { csrf: false });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ principalType: 'user', principalId: session.userId, role: 'admin' });
    expectError(
      await asSession(t.url, session, 'POST', '/api/v1/projects', { csrf: false, body: { slug: 'nope-csrf' } }),
      403,
      'CSRF_INVALID',
    );
    const created = await asSession(t.url, session, 'POST', '/api/v1/projects', { body: { slug: 'yes-csrf' } });
    expect(created.status).toBe(201);
  });

  it('answers UNAUTHORIZED to an unknown, tampered or malformed cookie', async () => {
    const session = await newSession();
    const tampered = `${session.token.slice(0, -1)}${session.token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [tampered, 'short', `${session.token}x`]) {
      expectError(await asSession(t.url, { token, csrf: session.csrf }, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
    }
  });

  it('judges a request by its API key when it carries both a key and a cookie', async () => {
    const session = await newSession('viewer');
    const response = await sendRequest(t.url, t.adminKey, 'GET', '/api/v1/me', {
      headers: { cookie: `cms_session=${session.token}` },
    });
    expect(response.body.data.principalType).toBe('apiKey');
  });
});

describe('session expiry', () => {
  it('ends a session idle for 12 hours', async () => {
    const session = await newSession();
    await t.db.query(`update sessions set last_seen_at = now() - interval '11 hours 58 minutes' where id = $1`, [
      session.sessionId,
    ]);
    expect((await asSession(t.url, session, 'GET', '/api/v1/me')).status).toBe(200);
    await t.db.query(`update sessions set last_seen_at = now() - interval '12 hours 1 second' where id = $1`, [
      session.sessionId,
    ]);
    const expired = await asSession(t.url, session, 'GET', '/api/v1/me');
    expectError(expired, 401, 'UNAUTHORIZED');
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('ends a session 7 days after sign-in however active it is', async () => {
    const session = await newSession();
    await t.db.query(
      `update sessions set created_at = now() - interval '7 days', absolute_expires_at = now() - interval '1 second',
         last_seen_at = now() where id = $1`,
      [session.sessionId],
    );
    expectError(await asSession(t.url, session, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
  });

  it('keeps an active session alive, writing last-seen at most once a minute', async () => {
    const session = await newSession();
    const issued = await lastSeenOf(session.sessionId);
    await asSession(t.url, session, 'GET', '/api/v1/me');
    await asSession(t.url, session, 'GET', '/api/v1/me');
    expect((await lastSeenOf(session.sessionId)).getTime()).toBe(issued.getTime());
    await t.db.query(`update sessions set last_seen_at = now() - interval '2 minutes' where id = $1`, [
      session.sessionId,
    ]);
    const before = Date.now();
    await asSession(t.url, session, 'GET', '/api/v1/me');
    expect((await lastSeenOf(session.sessionId)).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('deletes expired sessions in the background sweep', async () => {
    const { createSessionAuthenticator } = await import('../../src/modules/core-system/session-authenticator.js');
    const session = await newSession();
    await t.db.query(`update sessions set last_seen_at = now() - interval '13 hours' where id = $1`, [
      session.sessionId,
    ]);
    await createSessionAuthenticator({
      db: t.db,
      secret: t.config.secret,
      clock: () => new Date(),
      requireMfa: 'off',
    }).prune();
    const left = await t.db.query('select 1 from sessions where id = $1', [session.sessionId]);
    expect(left.rowCount).toBe(0);
  });
});

describe('logout and own sessions', () => {
  it('logs out with CSRF, clears both cookies, and the cookie stops working', async () => {
    const session = await newSession();
    expectError(await asSession(t.url, session, 'POST', '/api/v1/auth/logout', { csrf: false }), 403, 'CSRF_INVALID');
    const response = await asSession(t.url, session, 'POST', '/api/v1/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ success: true });
    const cleared = response.headers.getSetCookie();
    expect(cleared.find((c) => c.startsWith('cms_session='))).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(cleared.find((c) => c.startsWith('cms_csrf='))).toBeDefined();
    expectError(await asSession(t.url, session, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
  });

  it('answers logout with an API key as { success: false }', async () => {
    const response = await t.request('POST', '/api/v1/auth/logout');
    expect(response.body.data).toEqual({ success: false });
    expectError(await t.request('POST', '/api/v1/auth/logout', { key: null }), 401, 'UNAUTHORIZED');
  });

  it('lists own sessions only, marks the current one, and ends another one', async () => {
    const user = await createUser(t);
    const first = sessionOf(await login(t.url, user.email, PASSWORD, { 'user-agent': 'laptop' }));
    const second = sessionOf(await login(t.url, user.email, PASSWORD, { 'user-agent': 'phone' }));
    await newSession();
    const listed = await asSession(t.url, second, 'GET', '/api/v1/auth/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((s: { id: string }) => s.id).sort()).toEqual(
      [first.sessionId, second.sessionId].sort(),
    );
    const current = listed.body.data.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ id: second.sessionId, userAgent: 'phone', userId: user.id, email: user.email });

    const ended = await asSession(t.url, second, 'DELETE', `/api/v1/auth/sessions/${first.sessionId}`);
    expect(ended.body.data).toEqual({ deleted: true, id: first.sessionId, current: false });
    expectError(await asSession(t.url, first, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
    const stillIn = await asSession(t.url, second, 'GET', '/api/v1/me', { project: null, environment: null });
    expect(stillIn.status).toBe(200);
  });

  it('cannot end someone else’s session, or a session that does not exist', async () => {
    const mine = await newSession();
    const theirs = await newSession();
    const other = await asSession(t.url, mine, 'DELETE', `/api/v1/auth/sessions/${theirs.sessionId}`);
    expectError(other, 404, 'NOT_FOUND');
    expect((await asSession(t.url, theirs, 'GET', '/api/v1/me')).status).toBe(200);
    const unknown = await asSession(
      t.url,
      mine,
      'DELETE',
      '/api/v1/auth/sessions/00000000-0000-4000-8000-000000000000',
    );
    expectError(unknown, 404, 'NOT_FOUND');
    expectError(await asSession(t.url, mine, 'DELETE', '/api/v1/auth/sessions/not-a-uuid'), 400, 'INVALID_INPUT');
  });

  it('ending the current session clears its cookies', async () => {
    const session = await newSession();
    const response = await asSession(t.url, session, 'DELETE', `/api/v1/auth/sessions/${session.sessionId}`);
    expect(response.body.data.current).toBe(true);
    expect(response.headers.getSetCookie().some((c) => c.startsWith('cms_session=;'))).toBe(true);
  });

  it('lists no sessions for an API key', async () => {
    const response = await t.request('GET', '/api/v1/auth/sessions');
    expect(response.body.data).toEqual([]);
  });
});

describe('ending every session of a user at once', () => {
  it('on disabling the user; a disabled user cannot sign in', async () => {
    const user = await createUser(t);
    const a = sessionOf(await login(t.url, user.email, PASSWORD));
    const b = sessionOf(await login(t.url, user.email, PASSWORD));
    expect((await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { disabled: true } })).status).toBe(200);
    for (const session of [a, b])
      expectError(await asSession(t.url, session, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
    const refused = await login(t.url, user.email, PASSWORD);
    expectError(refused, 401, 'UNAUTHORIZED');
    expect(refused.body.error.message).toMatch(/disabled/);
    await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { disabled: false } });
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
  });

  it('on a password change; the new password works, the old one does not', async () => {
    const user = await createUser(t);
    const session = sessionOf(await login(t.url, user.email, PASSWORD));
    const next = 'another long passphrase';
    expect((await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { password: next } })).status).toBe(200);
    expectError(await asSession(t.url, session, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
    expectError(await login(t.url, user.email, PASSWORD), 401, 'UNAUTHORIZED');
    expect((await login(t.url, user.email, next)).status).toBe(200);
  });

  it('but not on a role change, which applies from the next request', async () => {
    const user = await createUser(t, { role: 'admin' });
    await createUser(t, { role: 'admin' });
    const session = sessionOf(await login(t.url, user.email, PASSWORD));
    await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { role: 'viewer' } });
    const me = await asSession(t.url, session, 'GET', '/api/v1/me', { project: null, environment: null });
    expect(me.body.data.role).toBe('viewer');
    expect(me.body.data.capabilities['settings.manage']).toBe(false);
  });
});
