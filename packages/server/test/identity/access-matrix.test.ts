import { randomBytes, randomUUID } from 'node:crypto';
import { SCOPES, type Scope } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RequestOptions,
  sendRequest,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../support/test-server.js';
import { asSession, createUser, login, PASSWORD, type Session, sessionOf, uniqueEmail } from './identity-helpers.js';

/**
 * Every mounted action that needs credentials and a project/environment is checked against every
 * kind of caller. The list is read from the live catalog, so actions added later are covered too.
 */
interface CatalogAction {
  id: string;
  method: string;
  path: string;
  permissions: Scope[];
  anyPermissions?: Scope[];
  target: string;
  auth: string;
  requestSchema?: { properties?: { params?: { properties?: Record<string, { type?: string; format?: string }> } } };
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let t: TestServer;
let actions: CatalogAction[];
let session: Session;
let revokedKey: string;
let expiredKey: string;
let outsideKey: string;
const keysWithout = new Map<string, string>();

/** Every scope the action names: all of `permissions` and the alternatives of `anyPermissions`. */
function neededScopes(action: CatalogAction): Scope[] {
  return [...new Set([...action.permissions, ...(action.anyPermissions ?? [])])].sort();
}

/** A path with its parameters filled by random values of the declared type. */
function concretePath(action: CatalogAction): string {
  const params = action.requestSchema?.properties?.params?.properties ?? {};
  return action.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const schema = params[name] ?? {};
    if (schema.format === 'uuid') return randomUUID();
    if (schema.type === 'integer' || schema.type === 'number') return '1';
    return `x${randomBytes(4).toString('hex')}`;
  });
}

function call(action: CatalogAction, options: RequestOptions): Promise<TestResponse> {
  return sendRequest(t.url, null, action.method, concretePath(action), {
    ...(MUTATING.has(action.method) && action.method !== 'DELETE' ? { body: {} } : {}),
    ...options,
  });
}

function describeCall(action: CatalogAction, response: TestResponse): string {
  return `${action.id} (${action.method} ${action.path}) answered ${response.status} ${response.text.slice(0, 300)}`;
}

async function expectEach(
  check: (action: CatalogAction) => Promise<TestResponse | null>,
  status: number,
  code: string,
): Promise<void> {
  for (const action of actions) {
    const response = await check(action);
    if (!response) continue;
    expect(response.status, describeCall(action, response)).toBe(status);
    expect(response.body?.error?.code, describeCall(action, response)).toBe(code);
  }
}

beforeAll(async () => {
  t = await startTestServer();
  const catalog = await t.request('GET', '/api/v1/actions');
  expect(catalog.status).toBe(200);
  actions = (catalog.body.data as CatalogAction[]).filter(
    (action) => action.auth === 'required' && (action.target === 'environment' || action.target === 'project'),
  );

  const email = uniqueEmail('admin');
  await createUser(t, { email, role: 'admin' });
  session = sessionOf(await login(t.url, email, PASSWORD));

  const created = await t.request('POST', '/api/v1/api-keys', {
    body: { label: 'to revoke', scopes: [...SCOPES], contextAllowlist: [{ project: '*', environment: '*' }] },
  });
  revokedKey = created.body.data.apiKey;
  expect((await t.request('DELETE', `/api/v1/api-keys/${created.body.data.id}`)).status).toBe(200);
  expiredKey = await t.createKey({ expiresAt: new Date(Date.now() - 60_000) });
  outsideKey = await t.createKey({ allowlist: [{ project: 'elsewhere', environment: '*' }] });
  for (const action of actions) {
    const needed = neededScopes(action);
    const id = needed.join(',');
    if (needed.length === 0 || keysWithout.has(id)) continue;
    keysWithout.set(id, await t.createKey({ scopes: SCOPES.filter((scope) => !needed.includes(scope)) }));
  }
});
afterAll(() => t.close());

describe('access matrix over every scoped action', () => {
  it('covers the identity routes and whatever else is mounted', () => {
    const ids = actions.map((action) => action.id);
    expect(ids).toEqual(expect.arrayContaining(['environments.list', 'environments.create', 'environments.delete']));
  });

  it('answers 401 UNAUTHORIZED without credentials', async () => {
    await expectEach((action) => call(action, { key: null }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a malformed key and to an unknown key', async () => {
    await expectEach((action) => call(action, { key: 'cms_key_live_nope' }), 401, 'UNAUTHORIZED');
    const unknown = `cms_key_live_${randomBytes(32).toString('base64url')}`;
    await expectEach((action) => call(action, { key: unknown }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to a revoked key', async () => {
    await expectEach((action) => call(action, { key: revokedKey }), 401, 'UNAUTHORIZED');
  });

  it('answers 401 UNAUTHORIZED to an expired key', async () => {
    await expectEach((action) => call(action, { key: expiredKey }), 401, 'UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN to a key without the required scope', async () => {
    await expectEach(
      async (action) => {
        const key = keysWithout.get(neededScopes(action).join(','));
        return key ? call(action, { key }) : null;
      },
      403,
      'FORBIDDEN',
    );
  });

  it('answers 403 FORBIDDEN to a key whose allowlist excludes the project', async () => {
    await expectEach((action) => call(action, { key: outsideKey }), 403, 'FORBIDDEN');
  });

  it('answers 403 CSRF_INVALID to a session mutation without the CSRF header', async () => {
    await expectEach(
      async (action) => (MUTATING.has(action.method) ? asSessionCall(action, { csrf: false }) : null),
      403,
      'CSRF_INVALID',
    );
  });

  it('answers 403 CSRF_INVALID to a session mutation with a wrong CSRF header', async () => {
    await expectEach(
      async (action) =>
        MUTATING.has(action.method)
          ? asSessionCall(action, { csrf: false, headers: { 'x-cms-csrf-token': 'not-the-token' } })
          : null,
      403,
      'CSRF_INVALID',
    );
  });

  it('lets a session through (neither 401 nor 403) with the CSRF header, and reads without it', async () => {
    for (const action of actions) {
      const response = await asSessionCall(action, { csrf: MUTATING.has(action.method) });
      expect([401, 403], describeCall(action, response)).not.toContain(response.status);
    }
  });

  it('lets the admin key through (neither 401 nor 403)', async () => {
    for (const action of actions) {
      const response = await call(action, { key: t.adminKey });
      expect([401, 403], describeCall(action, response)).not.toContain(response.status);
    }
  });
});

function asSessionCall(action: CatalogAction, options: RequestOptions & { csrf: boolean }): Promise<TestResponse> {
  return asSession(t.url, session, action.method, concretePath(action), {
    ...(MUTATING.has(action.method) && action.method !== 'DELETE' ? { body: {} } : {}),
    ...options,
  });
}
