import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { expectError, PASSWORD, uniqueEmail } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function invite(body: Record<string, unknown>) {
  const response = await t.request('POST', '/api/v1/invites', { body });
  expect(response.status, response.text).toBe(200);
  return {
    ...response.body.data,
    token: new URL(response.body.data.inviteUrl).searchParams.get('token') as string,
  };
}

const accept = (token: string) =>
  sendRequest(t.url, null, 'POST', '/api/v1/invites/accept', { body: { token, password: PASSWORD } });

const pending = async (key?: string) => {
  const response = await t.request('GET', '/api/v1/invites', { project: null, environment: null, key });
  expect(response.status, response.text).toBe(200);
  return response.body.data as Array<Record<string, unknown>>;
};

describe('GET /api/v1/invites', () => {
  it('lists pending invites newest first, without their links, and drops accepted and expired ones', async () => {
    const first = await invite({ email: uniqueEmail('first'), role: 'editor', project: 'default' });
    const second = await invite({ email: uniqueEmail('second'), role: 'viewer' });
    const accepted = await invite({ email: uniqueEmail('accepted'), role: 'viewer' });
    const expired = await invite({ email: uniqueEmail('expired'), role: 'viewer' });
    expect((await accept(accepted.token)).status).toBe(200);
    await t.db.query(`update invites set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);

    const list = await pending();
    const ids = list.map((item) => item.id);
    expect(ids).toContain(first.id);
    expect(ids).toContain(second.id);
    expect(ids).not.toContain(accepted.id);
    expect(ids).not.toContain(expired.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const item = list.find((entry) => entry.id === first.id);
    expect(Object.keys(item ?? {}).sort()).toEqual(
      ['createdAt', 'createdBy', 'email', 'expiresAt', 'id', 'project', 'role'].sort(),
    );
    expect(item).toMatchObject({ email: first.email, role: 'editor', project: 'default', expiresAt: first.expiresAt });
    expect(list.find((entry) => entry.id === second.id)?.project).toBeNull();
    expect(JSON.stringify(list)).not.toContain(first.token);
  });

  it('needs users:manage, and shows only the invites the caller could have sent', async () => {
    const without = await t.createKey({ scopes: SCOPES.filter((s) => s !== 'users:manage') });
    expectError(
      await t.request('GET', '/api/v1/invites', { project: null, environment: null, key: without }),
      403,
      'FORBIDDEN',
    );
    const adminInvite = await invite({ email: uniqueEmail('admin'), role: 'admin' });
    const viewerInvite = await invite({ email: uniqueEmail('viewer'), role: 'viewer' });
    const limited = await t.createKey({ scopes: ['users:manage', 'content:read'] });
    const seen = (await pending(limited)).map((item) => item.id);
    expect(seen).toContain(viewerInvite.id);
    expect(seen).not.toContain(adminInvite.id);
  });
});

describe('DELETE /api/v1/invites/{id}', () => {
  it('withdraws a pending invite: its link stops working, and a second withdrawal is NOT_FOUND', async () => {
    const created = await invite({ email: uniqueEmail('withdrawn'), role: 'viewer' });
    const withdrawn = await t.request('DELETE', `/api/v1/invites/${created.id}`, { project: null, environment: null });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.body.data).toEqual({ withdrawn: true, id: created.id });
    expect((await pending()).map((item) => item.id)).not.toContain(created.id);
    expectError(await accept(created.token), 400, 'INVALID_INPUT');
    expectError(
      await t.request('DELETE', `/api/v1/invites/${created.id}`, { project: null, environment: null }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses accepted invites, ones beyond the caller, and malformed ids', async () => {
    const accepted = await invite({ email: uniqueEmail('taken'), role: 'viewer' });
    expect((await accept(accepted.token)).status).toBe(200);
    expectError(
      await t.request('DELETE', `/api/v1/invites/${accepted.id}`, { project: null, environment: null }),
      404,
      'NOT_FOUND',
    );
    const adminInvite = await invite({ email: uniqueEmail('admin'), role: 'admin' });
    const limited = await t.createKey({ scopes: ['users:manage', 'content:read'] });
    expectError(
      await t.request('DELETE', `/api/v1/invites/${adminInvite.id}`, {
        project: null,
        environment: null,
        key: limited,
      }),
      404,
      'NOT_FOUND',
    );
    expect((await pending()).map((item) => item.id)).toContain(adminInvite.id);
    expectError(
      await t.request('DELETE', '/api/v1/invites/not-a-uuid', { project: null, environment: null }),
      400,
      'INVALID_INPUT',
    );
  });
});
