import { CAPABILITY_SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, expectError, signInAs } from './identity-helpers.js';

const CAPABILITIES = Object.keys(CAPABILITY_SCOPES).sort();
const NO_HEADERS = { project: null, environment: null };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.request('POST', '/api/v1/environments', { environment: null, body: { name: 'staging' } });
});
afterAll(() => t.close());

function all(value: boolean) {
  return Object.fromEntries(CAPABILITIES.map((name) => [name, value]));
}

describe('GET /api/v1/me', () => {
  it('describes an API key: principalType, principalId, label and every capability', async () => {
    const response = await t.request('GET', '/api/v1/me');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data).sort()).toEqual(['capabilities', 'label', 'principalId', 'principalType']);
    expect(response.body.data).toMatchObject({ principalType: 'apiKey', label: 'test key' });
    expect(response.body.data.capabilities).toEqual(all(true));
  });

  it('reports a key’s capabilities from its scopes, in the active project and environment', async () => {
    const key = await t.createKey({
      scopes: ['schema:read', 'content:read', 'content:read:draft'],
      allowlist: [{ project: 'default', environment: 'production' }],
    });
    const here = await t.request('GET', '/api/v1/me', { key });
    expect(here.body.data.capabilities).toEqual({
      ...all(false),
      'schema.read': true,
      'content.read': true,
      'content.readDraft': true,
    });
    const outside = await t.request('GET', '/api/v1/me', { key, ...NO_HEADERS });
    expect(outside.body.data.capabilities).toEqual(all(false));
  });

  it('describes a user: principalType, principalId, email, role and capabilities', async () => {
    const admin = await signInAs(t, { role: 'admin' });
    const response = await asSession(t.url, admin, 'GET', '/api/v1/me', NO_HEADERS);
    expect(Object.keys(response.body.data).sort()).toEqual([
      'capabilities',
      'email',
      'principalId',
      'principalType',
      'role',
    ]);
    expect(response.body.data).toMatchObject({
      principalType: 'user',
      principalId: admin.userId,
      email: admin.email,
      role: 'admin',
    });
    expect(response.body.data.capabilities).toEqual(all(true));
  });

  it('gives a granted user the role’s capabilities in the project and nothing outside', async () => {
    const author = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'author' }] });
    const inProject = await asSession(t.url, author, 'GET', '/api/v1/me');
    expect(inProject.body.data.role).toBe('author');
    expect(inProject.body.data.capabilities).toEqual({
      ...all(false),
      'schema.read': true,
      'content.read': true,
      'content.readDraft': true,
      'content.write': true,
    });
    const outside = await asSession(t.url, author, 'GET', '/api/v1/me', NO_HEADERS);
    expect(outside.body.data).toMatchObject({ role: 'viewer', capabilities: all(false) });
  });

  it('follows decisions.md §4 for every role', async () => {
    const expected: Record<string, string[]> = {
      viewer: ['schema.read', 'content.read', 'content.readDraft'],
      author: ['schema.read', 'content.read', 'content.readDraft', 'content.write'],
      editor: [
        'schema.read',
        'content.read',
        'content.readDraft',
        'content.write',
        'content.publish',
        'content.delete',
      ],
      admin: CAPABILITIES,
    };
    for (const [role, granted] of Object.entries(expected)) {
      const user = await signInAs(t, { grants: [{ project: 'default', environment: '*', role }] });
      const me = await asSession(t.url, user, 'GET', '/api/v1/me');
      const capabilities = me.body.data.capabilities as Record<string, boolean>;
      expect(
        Object.keys(capabilities)
          .filter((name) => capabilities[name])
          .sort(),
        role,
      ).toEqual([...granted].sort());
    }
  });

  it('needs credentials', async () => {
    expectError(await t.request('GET', '/api/v1/me', { key: null }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /api/v1/studio/bootstrap', () => {
  it('answers { me, projects, environments, modules, extensions, publicUrl }', async () => {
    const response = await t.request('GET', '/api/v1/studio/bootstrap', NO_HEADERS);
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(Object.keys(data).sort()).toEqual(['environments', 'extensions', 'me', 'modules', 'projects', 'publicUrl']);
    // No CMS_PUBLIC_URL: the server names itself by HOST and PORT, which the Studio must not write into bodies.
    expect(data.publicUrl).toBeNull();
    expect(data.me).toMatchObject({ principalType: 'apiKey', capabilities: all(true) });
    expect(data.projects.map((p: { slug: string }) => p.slug)).toContain('default');
    expect(data.environments).toEqual([]);
    expect(data.extensions.map((e: { kind: string }) => e.kind)).toContain('routes');
    expect(data.modules.map((m: { id: string }) => m.id)).toEqual(['core.system', 'domain.content']);
    expect(data.modules[0]).toMatchObject({ id: 'core.system', version: '1.0.0', apiVersion: '1', kind: 'core' });
  });

  it('names the configured public address (CMS_PUBLIC_URL), which media addresses use', async () => {
    const configured = await startTestServer({ env: { CMS_PUBLIC_URL: 'https://cms.example.test/' } });
    try {
      const response = await configured.request('GET', '/api/v1/studio/bootstrap', NO_HEADERS);
      expect(response.body.data.publicUrl).toBe('https://cms.example.test');
    } finally {
      await configured.close();
    }
  });

  it('lists the active project’s environments when the project header is sent', async () => {
    const response = await t.request('GET', '/api/v1/studio/bootstrap', { environment: null });
    expect(response.body.data.environments.map((e: { name: string }) => e.name)).toEqual(['production', 'staging']);
    expect(Object.keys(response.body.data.environments[0]).sort()).toEqual([
      'createdAt',
      'extends',
      'isDefault',
      'name',
    ]);
  });

  it('shows a user only what the user may see', async () => {
    const member = await signInAs(t, { grants: [{ project: 'default', environment: 'staging', role: 'editor' }] });
    const response = await asSession(t.url, member, 'GET', '/api/v1/studio/bootstrap', { environment: null });
    expect(response.body.data.environments.map((e: { name: string }) => e.name)).toEqual(['staging']);
    expect(response.body.data.me.role).toBe('viewer');
  });
});

describe('the action catalog per caller', () => {
  async function catalogIds(request: Promise<{ body: { data: Array<{ id: string }> } }>): Promise<string[]> {
    return (await request).body.data.map((action) => action.id);
  }

  it('declares target and auth of each action', async () => {
    const response = await t.request('GET', '/api/v1/actions', NO_HEADERS);
    const login = response.body.data.find((a: { id: string }) => a.id === 'auth.login');
    expect(login).toMatchObject({ target: 'none', auth: 'public', permissions: [] });
    const create = response.body.data.find((a: { id: string }) => a.id === 'environments.create');
    expect(create).toMatchObject({ target: 'project', auth: 'required', permissions: ['settings:manage'] });
  });

  it('shows user and key management to an admin user only', async () => {
    const admin = await signInAs(t, { role: 'admin' });
    const editor = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'editor' }] });
    const adminIds = await catalogIds(asSession(t.url, admin, 'GET', '/api/v1/actions', NO_HEADERS));
    expect(adminIds).toEqual(
      expect.arrayContaining(['users.list', 'users.create', 'api-keys.create', 'invites.create']),
    );
    const editorIds = await catalogIds(asSession(t.url, editor, 'GET', '/api/v1/actions'));
    for (const id of ['users.list', 'users.create', 'api-keys.create', 'invites.create', 'environments.create']) {
      expect(editorIds).not.toContain(id);
    }
    expect(editorIds).toEqual(expect.arrayContaining(['me.get', 'environments.list', 'auth.logout']));
  });

  it('shows a key only the management actions its scopes allow', async () => {
    const key = await t.createKey({ scopes: ['settings:manage'] });
    const ids = await catalogIds(t.request('GET', '/api/v1/actions', { key, ...NO_HEADERS }));
    expect(ids).toEqual(expect.arrayContaining(['api-keys.create', 'api-keys.list', 'projects.create']));
    expect(ids).not.toContain('users.list');
    expectError(await t.request('GET', '/api/v1/actions/users.list', { key, ...NO_HEADERS }), 404, 'NOT_FOUND');
  });

  it('shows callers without credentials only what they can call without them', async () => {
    const ids = await catalogIds(t.request('GET', '/api/v1/actions', { key: null, ...NO_HEADERS }));
    expect(ids).toEqual(expect.arrayContaining(['auth.login', 'invites.accept', 'setup.complete', 'health.live']));
    for (const id of ['me.get', 'projects.list', 'auth.logout', 'auth.sessions.list']) expect(ids).not.toContain(id);
  });
});
