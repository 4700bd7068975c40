/** `POST /api/v1/me/password`: any signed-in person changes their own password; their other sessions end. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { entriesOfRequest } from '../audit/audit-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, expectError, login, PASSWORD, sessionOf, signInAs } from './identity-helpers.js';

const PATH = '/api/v1/me/password';
const NEW_PASSWORD = 'a brand new passphrase 2026';
const EDITOR = { role: 'editor', grants: [{ project: 'default', environment: '*', role: 'editor' }] };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_TRUST_PROXY: 'true' } });
});
afterAll(() => t.close());

let nextAddress = 1;
/** No routing headers, and a client address of its own for each test (the backoff counts addresses). */
function none(address = `203.0.113.${nextAddress}`) {
  return { project: null, environment: null, headers: { 'x-forwarded-for': address } };
}

describe('changing one’s own password', () => {
  beforeEach(() => {
    nextAddress += 1;
  });

  it('lets an editor change it: the new one signs in, the old one not; this session stays, the others end', async () => {
    const editor = await signInAs(t, EDITOR);
    const other = sessionOf(await login(t.url, editor.email, PASSWORD));
    const changed = await asSession(t.url, editor, 'POST', PATH, {
      ...none(),
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toEqual({ changed: true, otherSessionsEnded: 1 });

    expect((await asSession(t.url, editor, 'GET', '/api/v1/me', none())).status).toBe(200);
    expectError(await asSession(t.url, other, 'GET', '/api/v1/me', none()), 401, 'UNAUTHORIZED');
    expectError(await login(t.url, editor.email, PASSWORD), 401, 'UNAUTHORIZED');
    expect(sessionOf(await login(t.url, editor.email, NEW_PASSWORD)).userId).toBe(editor.userId);
  });

  it('writes an audit entry with no password in it', async () => {
    const author = await signInAs(t, {
      role: 'author',
      grants: [{ project: 'default', environment: '*', role: 'author' }],
    });
    const changed = await asSession(t.url, author, 'POST', PATH, {
      ...none(),
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);
    const entries = await entriesOfRequest(t, changed.headers.get('x-request-id') ?? '', { project: null });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'me.password.change', outcome: 'success' });
    expect(entries[0].actor).toMatchObject({ type: 'user', id: author.userId });
    const text = JSON.stringify(entries[0]);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(NEW_PASSWORD);
  });

  it('refuses a wrong current password on its field, and charges it to the login backoff', async () => {
    const editor = await signInAs(t, EDITOR);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await asSession(t.url, editor, 'POST', PATH, {
        ...none(),
        body: { currentPassword: `wrong password number ${i}`, password: NEW_PASSWORD },
      });
      expectError(wrong, 400, 'INVALID_INPUT');
      expect(wrong.body.error.details.fields['body.currentPassword']).toBe('is not your current password');
    }
    const limited = await asSession(t.url, editor, 'POST', PATH, {
      ...none(),
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('refuses a weak or common new password, and the current one again, on body.password', async () => {
    const editor = await signInAs(t, EDITOR);
    for (const password of ['short', 'qwertyuiop123', PASSWORD]) {
      const weak = await asSession(t.url, editor, 'POST', PATH, {
        ...none(),
        body: { currentPassword: PASSWORD, password },
      });
      expectError(weak, 400, 'INVALID_INPUT');
      expect(Object.keys(weak.body.error.details.fields)).toEqual(['body.password']);
    }
    expect((await login(t.url, editor.email, PASSWORD)).status).toBe(200);
  });

  it('answers 400, never 500, for bodies of the wrong shape', async () => {
    const editor = await signInAs(t, EDITOR);
    const bodies: unknown[] = [
      {},
      { currentPassword: PASSWORD },
      { password: NEW_PASSWORD },
      { currentPassword: 1, password: NEW_PASSWORD },
      { currentPassword: PASSWORD, password: 'x'.repeat(5000) },
      { currentPassword: PASSWORD, password: NEW_PASSWORD, role: 'admin' },
      [],
      'text',
    ];
    for (const body of bodies) {
      const response = await asSession(t.url, editor, 'POST', PATH, { ...none(), body });
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(400);
    }
    expect((await login(t.url, editor.email, PASSWORD)).status).toBe(200);
  });

  it('refuses an API key with FORBIDDEN, saying why', async () => {
    const byKey = await t.request('POST', PATH, {
      ...none(),
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expectError(byKey, 403, 'FORBIDDEN');
    expect(byKey.body.error.message).toMatch(/API key or preview token has none/);
  });

  it('refuses a session request without the CSRF header, and anonymous callers', async () => {
    const editor = await signInAs(t, EDITOR);
    const noCsrf = await asSession(t.url, editor, 'POST', PATH, {
      ...none(),
      csrf: false,
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expectError(noCsrf, 403, 'CSRF_INVALID');
    const anonymous = await t.request('POST', PATH, {
      ...none(),
      key: null,
      body: { currentPassword: PASSWORD, password: NEW_PASSWORD },
    });
    expectError(anonymous, 401, 'UNAUTHORIZED');
    expect((await login(t.url, editor.email, PASSWORD)).status).toBe(200);
  });
});
