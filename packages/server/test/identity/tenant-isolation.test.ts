import { randomBytes, randomUUID } from 'node:crypto';
import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RequestOptions,
  sendRequest,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../support/test-server.js';
import { asSession, createUser, expectError, type Session, signInAs, uniqueSlug } from './identity-helpers.js';

/**
 * A key or user of project B can neither read, write nor learn the existence of anything in
 * project A: every answer about A is the answer about a project that does not exist.
 */
interface CatalogAction {
  id: string;
  method: string;
  path: string;
  target: string;
  auth: string;
  requestSchema?: { properties?: { params?: { properties?: Record<string, { type?: string; format?: string }> } } };
}

let t: TestServer;
let projectA: string;
let projectB: string;
let ghost: string;
let keyB: string;
let editorB: Session;
let projectAdminB: Session;
let scopedActions: CatalogAction[];

type Caller = { name: string; send(method: string, path: string, options?: RequestOptions): Promise<TestResponse> };
let callers: Caller[];

function fill(action: CatalogAction): string {
  const params = action.requestSchema?.properties?.params?.properties ?? {};
  return action.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) =>
    params[name]?.format === 'uuid' ? randomUUID() : params[name]?.type === 'integer' ? '1' : 'staging',
  );
}

/** Two answers are indistinguishable: same status, code and message. */
function expectSameAnswer(about: TestResponse, aboutNothing: TestResponse, what: string): void {
  expect(about.status, `${what}: ${about.text}`).toBe(aboutNothing.status);
  expect(about.body?.error?.code, what).toBe(aboutNothing.body?.error?.code);
  expect(about.body?.error?.message, what).toBe(aboutNothing.body?.error?.message);
}

beforeAll(async () => {
  t = await startTestServer();
  projectA = uniqueSlug('a');
  projectB = uniqueSlug('b');
  ghost = uniqueSlug('ghost');
  for (const slug of [projectA, projectB]) {
    expect((await t.request('POST', '/api/v1/projects', { body: { slug } })).status).toBe(201);
    const env = await t.request('POST', '/api/v1/environments', {
      project: slug,
      environment: null,
      body: { name: 'staging', extends: 'production' },
    });
    expect(env.status).toBe(201);
  }
  keyB = await t.createKey({ scopes: [...SCOPES], allowlist: [{ project: projectB, environment: '*' }] });
  editorB = await signInAs(t, { grants: [{ project: projectB, environment: '*', role: 'editor' }] });
  projectAdminB = await signInAs(t, { grants: [{ project: projectB, environment: '*', role: 'admin' }] });
  // Something of A's: a user with a grant there and a key allowed there.
  await signInAs(t, { grants: [{ project: projectA, environment: '*', role: 'editor' }] });
  await t.createKey({ allowlist: [{ project: projectA, environment: '*' }] });

  const catalog = await t.request('GET', '/api/v1/actions');
  scopedActions = (catalog.body.data as CatalogAction[]).filter(
    (action) => action.target === 'environment' || action.target === 'project' || action.target === 'optional',
  );
  callers = [
    { name: 'key of B', send: (method, path, options = {}) => sendRequest(t.url, keyB, method, path, options) },
    { name: 'editor of B', send: (method, path, options = {}) => asSession(t.url, editorB, method, path, options) },
    {
      name: 'project admin of B',
      send: (method, path, options = {}) => asSession(t.url, projectAdminB, method, path, options),
    },
  ];
});
afterAll(() => t.close());

describe('tenant isolation between projects', () => {
  it('B sees its own project and works in it', async () => {
    for (const caller of callers) {
      const own = await caller.send('GET', '/api/v1/environments', { project: projectB, environment: null });
      expect(own.status, caller.name).toBe(200);
      expect(own.body.data.map((e: { name: string }) => e.name)).toEqual(['production', 'staging']);
    }
  });

  it('answers every project-scoped action about A exactly as about a project that does not exist', async () => {
    for (const caller of callers) {
      for (const action of scopedActions) {
        const path = fill(action);
        const body = ['POST', 'PUT', 'PATCH'].includes(action.method) ? { body: {} } : {};
        for (const environment of ['production', 'staging']) {
          const about = await caller.send(action.method, path, { ...body, project: projectA, environment });
          const aboutNothing = await caller.send(action.method, path, { ...body, project: ghost, environment });
          const what = `${caller.name} ${action.id} in ${environment}`;
          expectError(about, 403, 'FORBIDDEN');
          expectSameAnswer(about, aboutNothing, what);
        }
      }
    }
  });

  it('lists only project B to B', async () => {
    for (const caller of callers) {
      const projects = await caller.send('GET', '/api/v1/projects', { project: null, environment: null });
      expect(projects.status).toBe(200);
      expect(
        projects.body.data.map((p: { slug: string }) => p.slug),
        caller.name,
      ).toEqual([projectB]);
      const bootstrap = await caller.send('GET', '/api/v1/studio/bootstrap', { project: null, environment: null });
      expect(
        bootstrap.body.data.projects.map((p: { slug: string }) => p.slug),
        caller.name,
      ).toEqual([projectB]);
    }
  });

  it('gives B no instance-level power: no users, keys, invites or projects', async () => {
    for (const caller of callers) {
      const none = { project: null, environment: null };
      expectError(await caller.send('GET', '/api/v1/users', none), 403, 'FORBIDDEN');
      expectError(await caller.send('GET', '/api/v1/api-keys', none), 403, 'FORBIDDEN');
      for (const slug of [projectA, ghost]) {
        expectError(await caller.send('POST', '/api/v1/projects', { ...none, body: { slug } }), 403, 'FORBIDDEN');
        const key = await caller.send('POST', '/api/v1/api-keys', {
          ...none,
          body: { label: 'x', scopes: ['content:read'], contextAllowlist: [{ project: slug, environment: '*' }] },
        });
        expectError(key, 403, 'FORBIDDEN');
        const invite = await caller.send('POST', '/api/v1/invites', {
          ...none,
          body: { email: 'someone@example.test', role: 'viewer', project: slug },
        });
        expectError(invite, 403, 'FORBIDDEN');
      }
    }
  });

  it('hides A from the catalog and from /me', async () => {
    for (const caller of callers) {
      for (const path of ['/api/v1/actions', '/api/v1/me', '/api/v1/studio/bootstrap']) {
        const about = await caller.send('GET', path, { project: projectA, environment: 'production' });
        const aboutNothing = await caller.send('GET', path, { project: ghost, environment: 'production' });
        expectError(about, 403, 'FORBIDDEN');
        expectSameAnswer(about, aboutNothing, `${caller.name} ${path}`);
      }
    }
  });

  it('does not let a users:manage key limited to B grant or invite into A', async () => {
    const manager = await t.createKey({
      scopes: [...SCOPES],
      allowlist: [{ project: projectB, environment: '*' }],
    });
    const target = await createUser(t);
    for (const slug of [projectA, ghost]) {
      const grant = await sendRequest(t.url, manager, 'PUT', `/api/v1/users/${target.id}/grants`, {
        body: [{ project: slug, environment: '*', role: 'viewer' }],
      });
      expectError(grant, 403, 'FORBIDDEN');
    }
  });

  it('keeps B out of A even with an environment header naming a shared environment name', async () => {
    const read = await sendRequest(t.url, keyB, 'GET', '/api/v1/environments', {
      project: projectA,
      environment: 'staging',
    });
    expectError(read, 403, 'FORBIDDEN');
    const remove = await sendRequest(t.url, keyB, 'DELETE', '/api/v1/environments/staging', { project: projectA });
    expectError(remove, 403, 'FORBIDDEN');
    const still = await t.request('GET', '/api/v1/environments', { project: projectA, environment: null });
    expect(still.body.data.map((e: { name: string }) => e.name)).toContain('staging');
  });

  it('lets a key limited to one environment of B use only that one', async () => {
    const stagingOnly = await t.createKey({ allowlist: [{ project: projectB, environment: 'staging' }] });
    const listed = await sendRequest(t.url, stagingOnly, 'GET', '/api/v1/environments', {
      project: projectB,
      environment: null,
    });
    expect(listed.body.data.map((e: { name: string }) => e.name)).toEqual(['staging']);
    const me = await sendRequest(t.url, stagingOnly, 'GET', '/api/v1/me', {
      project: projectB,
      environment: 'production',
    });
    expectError(me, 403, 'FORBIDDEN');
    const wrong = `x${randomBytes(3).toString('hex')}`;
    const unknown = await sendRequest(t.url, stagingOnly, 'GET', '/api/v1/me', {
      project: projectB,
      environment: wrong,
    });
    expectSameAnswer(me, unknown, 'unknown environment of B');
  });
});
