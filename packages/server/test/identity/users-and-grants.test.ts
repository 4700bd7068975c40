import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, createUser, expectError, login, PASSWORD, signInAs, uniqueEmail } from './identity-helpers.js';

const USER_FIELDS = ['createdAt', 'disabled', 'email', 'hasPassword', 'id', 'role', 'updatedAt'];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.request('POST', '/api/v1/environments', {
    environment: null,
    body: { name: 'staging', extends: 'production' },
  });
});
afterAll(() => t.close());

describe('users', () => {
  it('creates a user (201) with every field, email normalised, and lists and gets it', async () => {
    const email = uniqueEmail('New');
    const created = await t.request('POST', '/api/v1/users', {
      body: { email: `  ${email.toUpperCase()} `.trim(), role: 'editor' },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(USER_FIELDS);
    expect(created.body.data).toMatchObject({
      email: email.toLowerCase(),
      role: 'editor',
      disabled: false,
      hasPassword: false,
    });
    const got = await t.request('GET', `/api/v1/users/${created.body.data.id}`);
    expect(got.body.data).toEqual(created.body.data);
    const page = await t.request('GET', '/api/v1/users?limit=100');
    expect(page.body.pagination).toMatchObject({ limit: 100, offset: 0, hasMore: false });
    expect(page.body.data.map((u: { id: string }) => u.id)).toContain(created.body.data.id);
    expect(Object.keys(page.body.data[0]).sort()).toEqual(USER_FIELDS);
  });

  it('rejects a taken email (case-insensitively), bad roles, bad emails and unknown fields', async () => {
    const { email } = await createUser(t);
    const taken = await t.request('POST', '/api/v1/users', { body: { email: email.toUpperCase(), role: 'viewer' } });
    expectError(taken, 400, 'INVALID_INPUT');
    expect(taken.body.error.details.fields).toEqual({ 'body.email': 'is already used by another user' });
    for (const body of [
      { email: uniqueEmail(), role: 'owner' },
      { email: 'not-an-email', role: 'viewer' },
      { email: uniqueEmail(), role: 'viewer', grants: [] },
      { role: 'viewer' },
    ]) {
      expectError(await t.request('POST', '/api/v1/users', { body }), 400, 'INVALID_INPUT');
    }
  });

  it('pages through users', async () => {
    for (let i = 0; i < 3; i += 1) await createUser(t);
    const first = await t.request('GET', '/api/v1/users?limit=2&offset=0');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.pagination.hasMore).toBe(true);
    expectError(await t.request('GET', '/api/v1/users?limit=0'), 400, 'INVALID_QUERY_PARAM');
    expectError(await t.request('GET', '/api/v1/users?page=2'), 400, 'INVALID_QUERY_PARAM');
  });

  it('updates role, disabled and password; rejects empty or unknown changes and unknown users', async () => {
    const user = await createUser(t);
    const updated = await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { role: 'author', disabled: true } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: user.id, role: 'author', disabled: true });
    expect(Object.keys(updated.body.data).sort()).toEqual(USER_FIELDS);
    expectError(await t.request('PATCH', `/api/v1/users/${user.id}`, { body: {} }), 400, 'INVALID_INPUT');
    expectError(
      await t.request('PATCH', `/api/v1/users/${user.id}`, { body: { email: 'x@y.z' } }),
      400,
      'INVALID_INPUT',
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await t.request('PATCH', `/api/v1/users/${unknown}`, { body: { role: 'viewer' } }), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/api/v1/users/${unknown}`), 404, 'NOT_FOUND');
    expectError(await t.request('GET', '/api/v1/users/not-a-uuid'), 400, 'INVALID_INPUT');
  });

  it('deletes a user for good, with grants and sessions, and frees the email', async () => {
    const user = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'viewer' }] });
    const deleted = await t.request('DELETE', `/api/v1/users/${user.userId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: user.userId, email: user.email });
    expect(Object.keys(deleted.body.data).sort()).toEqual(USER_FIELDS);
    expectError(await t.request('GET', `/api/v1/users/${user.userId}`), 404, 'NOT_FOUND');
    expectError(await asSession(t.url, user, 'GET', '/api/v1/me'), 401, 'UNAUTHORIZED');
    expectError(await t.request('DELETE', `/api/v1/users/${user.userId}`), 404, 'NOT_FOUND');
    expect((await t.request('POST', '/api/v1/users', { body: { email: user.email, role: 'viewer' } })).status).toBe(
      201,
    );
  });

  it('never removes the last enabled administrator', async () => {
    const fresh = await startTestServer();
    try {
      const only = await createUser(fresh, { role: 'admin' });
      for (const [method, body] of [
        ['PATCH', { role: 'editor' }],
        ['PATCH', { disabled: true }],
        ['DELETE', undefined],
      ] as const) {
        const response = await fresh.request(method, `/api/v1/users/${only.id}`, body ? { body } : {});
        expectError(response, 400, 'INVALID_INPUT');
        expect(JSON.stringify(response.body.error.details.fields)).toMatch(/last enabled administrator/);
      }
      await createUser(fresh, { role: 'admin' });
      expect((await fresh.request('PATCH', `/api/v1/users/${only.id}`, { body: { role: 'editor' } })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('needs users:manage: keys without it and non-admin users get FORBIDDEN', async () => {
    const key = await t.createKey({ scopes: SCOPES.filter((s) => s !== 'users:manage') });
    expectError(await t.request('GET', '/api/v1/users', { key }), 403, 'FORBIDDEN');
    const editor = await signInAs(t, {
      role: 'editor',
      grants: [{ project: 'default', environment: '*', role: 'admin' }],
    });
    expectError(await asSession(t.url, editor, 'GET', '/api/v1/users'), 403, 'FORBIDDEN');
    const admin = await signInAs(t, { role: 'admin' });
    expect((await asSession(t.url, admin, 'GET', '/api/v1/users')).status).toBe(200);
  });
});

describe('no escalation through user management', () => {
  it('lets only an all-powerful caller create or promote administrators, or touch one', async () => {
    const limited = await t.createKey({
      scopes: [...SCOPES],
      allowlist: [{ project: '*', environment: 'production' }],
    });
    const create = (role: string) =>
      sendRequest(t.url, limited, 'POST', '/api/v1/users', { body: { email: uniqueEmail(), role } });
    expectError(await create('admin'), 403, 'FORBIDDEN');
    const editor = await create('editor');
    expect(editor.status).toBe(201);
    const promote = await sendRequest(t.url, limited, 'PATCH', `/api/v1/users/${editor.body.data.id}`, {
      body: { role: 'admin' },
    });
    expectError(promote, 403, 'FORBIDDEN');
    const admin = await createUser(t, { role: 'admin' });
    const takeOver = await sendRequest(t.url, limited, 'PATCH', `/api/v1/users/${admin.id}`, {
      body: { password: 'my own password now' },
    });
    expectError(takeOver, 403, 'FORBIDDEN');
    expectError(await sendRequest(t.url, limited, 'DELETE', `/api/v1/users/${admin.id}`), 403, 'FORBIDDEN');
  });

  it('lets a caller give only roles it holds where it gives them, and manage only users it outranks', async () => {
    const limited = await t.createKey({
      scopes: [...SCOPES],
      allowlist: [{ project: '*', environment: 'production' }],
    });
    const user = await createUser(t);
    const put = (grants: unknown, key = limited, id = user.id) =>
      sendRequest(t.url, key, 'PUT', `/api/v1/users/${id}/grants`, { body: grants });
    expect((await put([{ project: 'default', environment: 'production', role: 'editor' }])).status).toBe(200);
    expectError(await put([{ project: 'default', environment: '*', role: 'viewer' }]), 403, 'FORBIDDEN');
    expectError(await put([{ project: 'default', environment: 'staging', role: 'viewer' }]), 403, 'FORBIDDEN');
    const wider = await createUser(t);
    await t.request('PUT', `/api/v1/users/${wider.id}/grants`, {
      body: [{ project: 'default', environment: '*', role: 'viewer' }],
    });
    expectError(await put([], limited, wider.id), 403, 'FORBIDDEN');
    const reader = await t.createKey({ scopes: ['users:manage', 'content:read'] });
    expectError(await put([{ project: 'default', environment: '*', role: 'editor' }], reader), 403, 'FORBIDDEN');
  });
});

describe('grants', () => {
  it('replaces the list and reads it back', async () => {
    const user = await createUser(t);
    const grants = [
      { project: 'default', environment: '*', role: 'author' },
      { project: 'default', environment: 'production', role: 'viewer' },
    ];
    const put = await t.request('PUT', `/api/v1/users/${user.id}/grants`, { body: grants });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(grants);
    expect((await t.request('GET', `/api/v1/users/${user.id}/grants`)).body.data).toEqual(grants);
    const replaced = await t.request('PUT', `/api/v1/users/${user.id}/grants`, {
      body: [{ project: 'default', environment: 'staging', role: 'editor' }],
    });
    expect(replaced.body.data).toEqual([{ project: 'default', environment: 'staging', role: 'editor' }]);
    expect((await t.request('PUT', `/api/v1/users/${user.id}/grants`, { body: [] })).body.data).toEqual([]);
  });

  it('rejects unknown projects, environments, roles, repeats and unknown users', async () => {
    const user = await createUser(t);
    const put = (body: unknown, id = user.id) => t.request('PUT', `/api/v1/users/${id}/grants`, { body });
    const project = await put([{ project: 'nowhere', environment: '*', role: 'viewer' }]);
    expectError(project, 400, 'INVALID_INPUT');
    expect(project.body.error.details.fields).toHaveProperty(['body.0.project']);
    const env = await put([{ project: 'default', environment: 'nowhere', role: 'viewer' }]);
    expect(env.body.error.details.fields).toHaveProperty(['body.0.environment']);
    expectError(await put([{ project: 'default', environment: '*', role: 'owner' }]), 400, 'INVALID_INPUT');
    expectError(await put([{ project: 'Default!', environment: '*', role: 'viewer' }]), 400, 'INVALID_INPUT');
    expectError(await put({ project: 'default', environment: '*', role: 'viewer' }), 400, 'INVALID_INPUT');
    const repeated = await put([
      { project: 'default', environment: '*', role: 'viewer' },
      { project: 'default', environment: '*', role: 'editor' },
    ]);
    expect(repeated.body.error.details.fields).toHaveProperty(['body.1']);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await put([], unknown), 404, 'NOT_FOUND');
    expectError(await t.request('GET', `/api/v1/users/${unknown}/grants`), 404, 'NOT_FOUND');
  });

  it('give access where granted only, the exact environment winning over "*"', async () => {
    const user = await signInAs(t, {
      grants: [
        { project: 'default', environment: '*', role: 'editor' },
        { project: 'default', environment: 'production', role: 'viewer' },
      ],
    });
    const me = async (environment: string | null) =>
      (await asSession(t.url, user, 'GET', '/api/v1/me', { environment })).body.data;
    expect(await me('production')).toMatchObject({
      role: 'viewer',
      capabilities: { 'content.write': false, 'content.read': true },
    });
    expect(await me('staging')).toMatchObject({
      role: 'editor',
      capabilities: { 'content.write': true, 'content.publish': true },
    });
    const outside = await asSession(t.url, user, 'GET', '/api/v1/me', { project: null, environment: null });
    expect(outside.body.data.capabilities).toEqual(
      Object.fromEntries(Object.keys(outside.body.data.capabilities).map((name) => [name, false])),
    );
  });

  it('take effect on the next request of an existing session', async () => {
    const user = await signInAs(t);
    expectError(await asSession(t.url, user, 'GET', '/api/v1/environments'), 403, 'FORBIDDEN');
    await t.request('PUT', `/api/v1/users/${user.userId}/grants`, {
      body: [{ project: 'default', environment: 'staging', role: 'viewer' }],
    });
    const listed = await asSession(t.url, user, 'GET', '/api/v1/environments', { environment: null });
    expect(listed.body.data.map((e: { name: string }) => e.name)).toEqual(['staging']);
  });

  it('disappear with their environment', async () => {
    await t.request('POST', '/api/v1/environments', { environment: null, body: { name: 'short-lived' } });
    const user = await createUser(t);
    await t.request('PUT', `/api/v1/users/${user.id}/grants`, {
      body: [{ project: 'default', environment: 'short-lived', role: 'viewer' }],
    });
    await t.request('DELETE', '/api/v1/environments/short-lived', { environment: null });
    expect((await t.request('GET', `/api/v1/users/${user.id}/grants`)).body.data).toEqual([]);
    expect((await login(t.url, user.email, PASSWORD)).status).toBe(200);
  });
});
