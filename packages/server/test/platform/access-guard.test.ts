import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await t.db.query(
    `insert into environments (id, project_id, name, is_default)
     select gen_random_uuid(), id, 'staging', false from projects where slug = 'default'`,
  );
});
afterAll(() => t.close());

describe('routing guard and target resolution', () => {
  it('answers TARGET_REQUIRED before authentication when the project header is missing', async () => {
    const response = await t.request('GET', '/api/v1/environments', { key: null, project: null });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('TARGET_REQUIRED');
    expect(response.body.error.details.missing).toEqual(['X-CMS-Project']);
  });

  it('lists environments with only the project header', async () => {
    const response = await t.request('GET', '/api/v1/environments', { environment: null });
    expect(response.status).toBe(200);
    expect(response.body.data.map((e: { name: string }) => e.name)).toEqual(['production', 'staging']);
    expect(response.body.data[0]).toMatchObject({ name: 'production', extends: null, isDefault: true });
    expect(new Date(response.body.data[0].createdAt).toISOString()).toBe(response.body.data[0].createdAt);
  });

  it('accepts the listing with both headers too', async () => {
    const response = await t.request('GET', '/api/v1/environments');
    expect(response.status).toBe(200);
  });

  it('answers PROJECT_NOT_FOUND to a caller who could see it, FORBIDDEN to one who could not', async () => {
    const all = await t.request('GET', '/api/v1/environments', { project: 'ghost' });
    expect(all.status).toBe(404);
    expect(all.body.error.code).toBe('PROJECT_NOT_FOUND');
    const restricted = await t.createKey({ allowlist: [{ project: 'default', environment: '*' }] });
    const hidden = await t.request('GET', '/api/v1/environments', { project: 'ghost', key: restricted });
    expect(hidden.status).toBe(403);
    expect(hidden.body.error.code).toBe('FORBIDDEN');
  });

  it('lists only the environments an allowlisted key may use', async () => {
    const key = await t.createKey({ allowlist: [{ project: 'default', environment: 'staging' }] });
    const response = await t.request('GET', '/api/v1/environments', { key, environment: null });
    expect(response.body.data.map((e: { name: string }) => e.name)).toEqual(['staging']);
  });
});

describe('API key authentication', () => {
  it('answers UNAUTHORIZED without credentials, with a malformed key and with an unknown key', async () => {
    for (const key of [null, 'not-a-key', `cms_key_live_${'A'.repeat(43)}`]) {
      const response = await t.request('GET', '/api/v1/environments', { key });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('answers UNAUTHORIZED with an expired key', async () => {
    const key = await t.createKey({ expiresAt: new Date(Date.now() - 1000) });
    const response = await t.request('GET', '/api/v1/environments', { key });
    expect(response.status).toBe(401);
    expect(response.body.error.message).toMatch(/expired/);
  });

  it('records lastUsedAt without a write per request (flushed at shutdown)', async () => {
    const other = await startTestServer();
    await other.request('GET', '/api/v1/environments');
    const before = await other.db.query<{ lastUsedAt: Date | null }>(
      'select last_used_at as "lastUsedAt" from api_keys',
    );
    expect(before.rows[0]?.lastUsedAt).toBeNull();
    await other.server.close();
    const after = await other.db.query<{ lastUsedAt: Date | null }>(
      'select last_used_at as "lastUsedAt" from api_keys',
    );
    expect(after.rows[0]?.lastUsedAt).toBeInstanceOf(Date);
    await other.close();
  });
});
