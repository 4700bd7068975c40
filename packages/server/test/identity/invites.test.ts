import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, sessionOf, uniqueEmail } from './identity-helpers.js';

const PUBLIC_URL = 'https://cms.example.test';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_PUBLIC_URL: PUBLIC_URL } });
});
afterAll(() => t.close());

async function invite(body: Record<string, unknown>) {
  const response = await t.request('POST', '/api/v1/invites', { body });
  expect(response.status, response.text).toBe(200);
  const url = new URL(response.body.data.inviteUrl);
  return { ...response.body.data, token: url.searchParams.get('token') as string, url };
}

function accept(token: string, password = PASSWORD) {
  return sendRequest(t.url, null, 'POST', '/api/v1/invites/accept', { body: { token, password } });
}

describe('creating invites', () => {
  it('answers 200 (not a create of decisions.md §2) { id, inviteUrl, expiresAt } with a single-use link under the public address, valid 7 days', async () => {
    const email = uniqueEmail('invitee');
    const before = Date.now();
    const created = await invite({ email, role: 'editor', project: 'default' });
    expect(Object.keys(created).sort()).toEqual(
      ['email', 'expiresAt', 'id', 'inviteUrl', 'project', 'role', 'token', 'url'].sort(),
    );
    expect(`${created.url.origin}${created.url.pathname}`).toBe(`${PUBLIC_URL}/studio/invite`);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ email, role: 'editor', project: 'default' });
    const lifetime = new Date(created.expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
    const stored = await t.db.query<{ h: string }>(
      `select encode(token_hash, 'base64') as h from invites where id = $1`,
      [created.id],
    );
    expect(stored.rows[0]?.h).not.toContain(created.token);
  });

  it('rejects emails of existing users, unknown projects, bad roles and unknown fields', async () => {
    const user = await createUser(t);
    const taken = await t.request('POST', '/api/v1/invites', {
      body: { email: user.email.toUpperCase(), role: 'viewer' },
    });
    expectError(taken, 400, 'INVALID_INPUT');
    expect(taken.body.error.details.fields).toHaveProperty(['body.email']);
    const project = await t.request('POST', '/api/v1/invites', {
      body: { email: uniqueEmail(), role: 'viewer', project: 'nowhere' },
    });
    expectError(project, 400, 'INVALID_INPUT');
    expect(project.body.error.details.fields).toHaveProperty(['body.project']);
    for (const body of [
      { email: uniqueEmail(), role: 'owner' },
      { email: 'nope', role: 'viewer' },
      { email: uniqueEmail(), role: 'viewer', environment: 'production' },
    ]) {
      expectError(await t.request('POST', '/api/v1/invites', { body }), 400, 'INVALID_INPUT');
    }
  });

  it('needs users:manage, and the power to give the role', async () => {
    const without = await t.createKey({ scopes: SCOPES.filter((s) => s !== 'users:manage') });
    const body = { email: uniqueEmail(), role: 'viewer' };
    expectError(await t.request('POST', '/api/v1/invites', { key: without, body }), 403, 'FORBIDDEN');
    const limited = await t.createKey({ scopes: ['users:manage', 'content:read'] });
    const admin = await t.request('POST', '/api/v1/invites', { key: limited, body: { ...body, role: 'admin' } });
    expectError(admin, 403, 'FORBIDDEN');
    const editor = await t.request('POST', '/api/v1/invites', {
      key: limited,
      body: { ...body, role: 'editor', project: 'default' },
    });
    expectError(editor, 403, 'FORBIDDEN');
  });
});

describe('accepting invites', () => {
  it('creates the user with a project grant, signs them in with cookies, and works once', async () => {
    const email = uniqueEmail('joiner');
    const created = await invite({ email, role: 'editor', project: 'default' });
    const accepted = await accept(created.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.session).toMatchObject({ email });
    const session = sessionOf(accepted);
    const cookie = session.setCookie.find((c) => c.startsWith('__Host-cms_session=')) ?? '';
    for (const flag of [/; HttpOnly(;|$)/, /; SameSite=Lax(;|$)/, /; Secure(;|$)/, /; Path=\/(;|$)/]) {
      expect(cookie).toMatch(flag);
    }

    const me = await asSession(t.url, session, 'GET', '/api/v1/me');
    expect(me.body.data).toMatchObject({ principalType: 'user', email, role: 'editor' });
    expect(me.body.data.capabilities).toMatchObject({ 'content.write': true, 'users.manage': false });
    const user = (await t.request('GET', '/api/v1/users?limit=100')).body.data.find(
      (u: { email: string }) => u.email === email,
    );
    expect(user).toMatchObject({ role: 'viewer', hasPassword: true, disabled: false });
    const grants = await t.request('GET', `/api/v1/users/${user.id}/grants`);
    expect(grants.body.data).toEqual([{ project: 'default', environment: '*', role: 'editor' }]);

    const again = await accept(created.token, 'another passphrase!');
    expectError(again, 400, 'INVALID_INPUT');
    expect(again.body.error.details.fields).toHaveProperty(['body.token']);
    expect((await login(t.url, email, PASSWORD)).status).toBe(200);
  });

  it('without a project, gives the user the invite role itself', async () => {
    const email = uniqueEmail('admin-invitee');
    const created = await invite({ email, role: 'admin' });
    const session = sessionOf(await accept(created.token));
    const me = await asSession(t.url, session, 'GET', '/api/v1/me', { project: null, environment: null });
    expect(me.body.data).toMatchObject({ role: 'admin', capabilities: { 'users.manage': true } });
  });

  it('rejects expired and unknown tokens the same way', async () => {
    const created = await invite({ email: uniqueEmail('late'), role: 'viewer' });
    await t.db.query(`update invites set expires_at = now() - interval '1 second' where id = $1`, [created.id]);
    const expired = await accept(created.token);
    const unknown = await accept('A'.repeat(43));
    const malformed = await accept('short');
    for (const response of [expired, unknown, malformed]) {
      expectError(response, 400, 'INVALID_INPUT');
      expect(response.body.error.message).toBe(expired.body.error.message);
    }
  });

  it('keeps the invite usable when the chosen password breaks the rules', async () => {
    const created = await invite({ email: uniqueEmail('retry'), role: 'viewer' });
    const weak = await accept(created.token, 'short');
    expectError(weak, 400, 'INVALID_INPUT');
    expect(weak.body.error.details.fields).toHaveProperty(['body.password']);
    expect((await accept(created.token)).status).toBe(200);
  });

  it('replaces an earlier pending invite of the same email', async () => {
    const email = uniqueEmail('twice');
    const first = await invite({ email, role: 'viewer' });
    const second = await invite({ email, role: 'author' });
    expectError(await accept(first.token), 400, 'INVALID_INPUT');
    expect((await accept(second.token)).status).toBe(200);
  });

  it('needs no credentials or CSRF, and ignores a session cookie', async () => {
    const created = await invite({ email: uniqueEmail('public'), role: 'viewer' });
    const response = await sendRequest(t.url, null, 'POST', '/api/v1/invites/accept', {
      body: { token: created.token, password: PASSWORD },
      headers: { cookie: 'cms_session=whatever' },
    });
    expect(response.status).toBe(200);
  });
});
