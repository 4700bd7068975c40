import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerOn } from '../support/server-on-database.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, expectError, signInAs } from './identity-helpers.js';

const KEY_FIELDS = [
  'contextAllowlist',
  'createdAt',
  'createdBy',
  'expiresAt',
  'id',
  'kind',
  'label',
  'lastUsedAt',
  'prefix',
  'revokedAt',
  'scopes',
];
const EVERYWHERE = [{ project: '*', environment: '*' }];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function createKey(body: Record<string, unknown>, key = t.adminKey) {
  return sendRequest(t.url, key, 'POST', '/api/v1/api-keys', { body });
}

describe('creating keys', () => {
  it('answers 201 with every field and the key, which works at once and is shown only here', async () => {
    const created = await createKey({
      label: 'site build',
      scopes: ['content:read', 'schema:read'],
      contextAllowlist: [{ project: 'default', environment: 'production' }],
    });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(Object.keys(data).sort()).toEqual([...KEY_FIELDS, 'apiKey'].sort());
    expect(data).toMatchObject({
      kind: 'live',
      label: 'site build',
      scopes: ['content:read', 'schema:read'],
      contextAllowlist: [{ project: 'default', environment: 'production' }],
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(data.apiKey).toMatch(/^cms_key_live_[A-Za-z0-9_-]{43}$/);
    expect(data.apiKey.startsWith(data.prefix)).toBe(true);
    expect(data.prefix.length).toBeLessThan(data.apiKey.length - 30);

    const me = await t.request('GET', '/api/v1/me', { key: data.apiKey });
    expect(me.body.data).toMatchObject({ principalType: 'apiKey', principalId: data.id, label: 'site build' });
    expect(me.body.data.capabilities).toMatchObject({ 'content.read': true, 'content.write': false });

    const listed = await t.request('GET', '/api/v1/api-keys');
    const entry = listed.body.data.find((k: { id: string }) => k.id === data.id);
    expect(Object.keys(entry).sort()).toEqual(KEY_FIELDS);
    expect(listed.text).not.toContain(data.apiKey);
  });

  it('makes preview keys, and never cli keys (those come from the device flow)', async () => {
    const preview = await createKey({
      label: 'preview',
      scopes: ['content:read:draft'],
      contextAllowlist: EVERYWHERE,
      kind: 'preview',
    });
    expect(preview.body.data.apiKey).toMatch(/^cms_key_preview_/);
    expect(preview.body.data.kind).toBe('preview');
    const cli = await createKey({ label: 'cli', scopes: ['content:read'], contextAllowlist: EVERYWHERE, kind: 'cli' });
    expectError(cli, 400, 'INVALID_INPUT');
  });

  it('expires keys at expiresAt and rejects an expiry in the past', async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const created = await createKey({
      label: 'temp',
      scopes: ['content:read'],
      contextAllowlist: EVERYWHERE,
      expiresAt: soon,
    });
    expect(created.body.data.expiresAt).toBe(soon);
    await t.db.query(`update api_keys set expires_at = now() - interval '1 second' where id = $1`, [
      created.body.data.id,
    ]);
    expectError(await t.request('GET', '/api/v1/me', { key: created.body.data.apiKey }), 401, 'UNAUTHORIZED');
    const past = await createKey({
      label: 'old',
      scopes: ['content:read'],
      contextAllowlist: EVERYWHERE,
      expiresAt: '2000-01-01T00:00:00.000Z',
    });
    expectError(past, 400, 'INVALID_INPUT');
    expect(past.body.error.details.fields).toEqual({ 'body.expiresAt': 'must be in the future' });
  });

  it('validates scopes, allowlist entries and the body', async () => {
    const base = { label: 'x', scopes: ['content:read'], contextAllowlist: EVERYWHERE };
    for (const body of [
      { ...base, scopes: ['content:everything'] },
      { ...base, scopes: [] },
      { ...base, scopes: ['content:read', 'content:read'] },
      { ...base, contextAllowlist: [] },
      { ...base, contextAllowlist: [{ project: 'Not A Slug', environment: '*' }] },
      { ...base, contextAllowlist: [{ project: 'default', environment: 'prod/uction' }] },
      { ...base, contextAllowlist: [{ project: 'default' }] },
      { ...base, label: '' },
      { ...base, expiresAt: 'tomorrow' },
      { ...base, owner: 'me' },
      { scopes: ['content:read'], contextAllowlist: EVERYWHERE },
    ]) {
      expectError(await createKey(body), 400, 'INVALID_INPUT');
    }
  });
});

describe('a creator cannot grant more than it holds', () => {
  it('limits a key-made key to the creating key’s scopes and allowlist', async () => {
    const creator = (
      await createKey({
        label: 'ci',
        scopes: ['settings:manage', 'content:read'],
        contextAllowlist: [{ project: '*', environment: 'production' }],
      })
    ).body.data;
    const make = (scopes: string[], contextAllowlist: unknown) =>
      createKey({ label: 'child', scopes, contextAllowlist }, creator.apiKey);
    const wider = await make(['content:write'], [{ project: 'default', environment: 'production' }]);
    expectError(wider, 403, 'FORBIDDEN');
    expect(wider.body.error.details.excess.scopes).toEqual(['content:write']);
    expectError(await make(['content:read'], EVERYWHERE), 403, 'FORBIDDEN');
    expectError(await make(['content:read'], [{ project: 'default', environment: 'staging' }]), 403, 'FORBIDDEN');
    expect((await make(['content:read'], [{ project: 'default', environment: 'production' }])).status).toBe(201);
    expect(
      (await make(['content:read', 'settings:manage'], [{ project: '*', environment: 'production' }])).status,
    ).toBe(201);
  });

  it('shows and revokes only keys within the caller’s reach', async () => {
    const creator = (
      await createKey({
        label: 'narrow',
        scopes: ['settings:manage'],
        contextAllowlist: [{ project: '*', environment: 'production' }],
      })
    ).body.data;
    const listed = await t.request('GET', '/api/v1/api-keys', { key: creator.apiKey });
    const ids = listed.body.data.map((k: { id: string }) => k.id);
    expect(ids).toContain(creator.id);
    const all = await t.request('GET', '/api/v1/api-keys');
    const adminKeyId = all.body.data.find((k: { scopes: string[] }) => k.scopes.length === SCOPES.length)?.id;
    expect(ids).not.toContain(adminKeyId);
    expectError(await t.request('DELETE', `/api/v1/api-keys/${adminKeyId}`, { key: creator.apiKey }), 404, 'NOT_FOUND');
  });

  it('gives a key limited to named projects no say over keys (instance level)', async () => {
    const tenant = await t.createKey({ scopes: [...SCOPES], allowlist: [{ project: 'default', environment: '*' }] });
    const body = { label: 'x', scopes: ['content:read'], contextAllowlist: [{ project: 'default', environment: '*' }] };
    expectError(await createKey(body, tenant), 403, 'FORBIDDEN');
    expectError(await t.request('GET', '/api/v1/api-keys', { key: tenant }), 403, 'FORBIDDEN');
  });

  it('needs settings:manage; an admin user may create any key', async () => {
    const key = await t.createKey({ scopes: SCOPES.filter((s) => s !== 'settings:manage') });
    const body = { label: 'x', scopes: ['content:read'], contextAllowlist: EVERYWHERE };
    expectError(await createKey(body, key), 403, 'FORBIDDEN');
    const viewer = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'admin' }] });
    expectError(await asSession(t.url, viewer, 'POST', '/api/v1/api-keys', { body }), 403, 'FORBIDDEN');
    const admin = await signInAs(t, { role: 'admin' });
    const made = await asSession(t.url, admin, 'POST', '/api/v1/api-keys', { body: { ...body, scopes: [...SCOPES] } });
    expect(made.status).toBe(201);
    expect(made.body.data.createdBy).toBe(admin.userId);
  });
});

describe('revoking keys', () => {
  it('answers { revoked: true, id }, the key stops working at once, and listing shows revokedAt', async () => {
    const created = (await createKey({ label: 'doomed', scopes: ['content:read'], contextAllowlist: EVERYWHERE })).body
      .data;
    expect((await t.request('GET', '/api/v1/me', { key: created.apiKey })).status).toBe(200);
    const revoked = await t.request('DELETE', `/api/v1/api-keys/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ revoked: true, id: created.id });
    const refused = await t.request('GET', '/api/v1/me', { key: created.apiKey });
    expectError(refused, 401, 'UNAUTHORIZED');
    expect(refused.body.error.message).toMatch(/revoked/);
    const entry = (await t.request('GET', '/api/v1/api-keys')).body.data.find(
      (k: { id: string }) => k.id === created.id,
    );
    expect(new Date(entry.revokedAt).toISOString()).toBe(entry.revokedAt);
    expect((await t.request('DELETE', `/api/v1/api-keys/${created.id}`)).body.data).toEqual({
      revoked: true,
      id: created.id,
    });
  });

  it('answers NOT_FOUND for unknown keys and INVALID_INPUT for malformed ids', async () => {
    expectError(await t.request('DELETE', '/api/v1/api-keys/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await t.request('DELETE', '/api/v1/api-keys/abc'), 400, 'INVALID_INPUT');
  });

  it('stops the key at once in another server process that had it cached', async () => {
    const other = await startServerOn(t.database, { key: null, ownConnection: true });
    try {
      const created = (await createKey({ label: 'shared', scopes: ['content:read'], contextAllowlist: EVERYWHERE }))
        .body.data;
      expect((await other.request('GET', '/api/v1/me', { key: created.apiKey })).status).toBe(200);
      expect((await t.request('DELETE', `/api/v1/api-keys/${created.id}`)).status).toBe(200);
      // The invalidation travels through the database's notifications: allow it a moment to arrive.
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 401; attempt += 1) {
        status = (await other.request('GET', '/api/v1/me', { key: created.apiKey })).status;
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('a key revoking itself', () => {
  it('revokes the key presenting it, needing no scope; the other keys keep working', async () => {
    const leaving = await t.createKey({
      scopes: ['content:read'],
      allowlist: [{ project: 'default', environment: '*' }],
    });
    const staying = await t.createKey({ scopes: ['content:read'] });
    const me = (await t.request('GET', '/api/v1/me', { key: leaving })).body.data;
    const revoked = await t.request('DELETE', '/api/v1/api-keys/current', { key: leaving });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ revoked: true, id: me.principalId });
    const refused = await t.request('GET', '/api/v1/me', { key: leaving });
    expectError(refused, 401, 'UNAUTHORIZED');
    expect(refused.body.error.message).toMatch(/revoked/);
    expectError(await t.request('DELETE', '/api/v1/api-keys/current', { key: leaving }), 401, 'UNAUTHORIZED');
    expect((await t.request('GET', '/api/v1/me', { key: staying })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/me')).status).toBe(200);
    const entry = (await t.request('GET', '/api/v1/api-keys')).body.data.find(
      (k: { id: string }) => k.id === me.principalId,
    );
    expect(entry.revokedAt).not.toBeNull();
  });

  it('refuses a session (FORBIDDEN, naming the sign-out route) and an anonymous caller (UNAUTHORIZED)', async () => {
    const admin = await signInAs(t, { role: 'admin' });
    const refused = await asSession(t.url, admin, 'DELETE', '/api/v1/api-keys/current');
    expectError(refused, 403, 'FORBIDDEN');
    expect(refused.body.error.message).toContain('/api/v1/auth/logout');
    expectError(await sendRequest(t.url, null, 'DELETE', '/api/v1/api-keys/current'), 401, 'UNAUTHORIZED');
  });
});
