import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { targetOf, WEBHOOK_SECRET } from './webhook-fixtures.js';

// No CMS_WEBHOOK_ALLOW_PRIVATE here: the default policy. Urls use a public documentation address
// (TEST-NET-3) as an IP literal, so no DNS is involved and nothing is ever delivered.
const PUBLIC_URL = 'https://203.0.113.10/hooks/cms';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(async () => {
  await t.close();
});

async function create(body: Record<string, unknown>) {
  return t.request('POST', '/api/v1/webhooks', {
    body: { url: PUBLIC_URL, events: ['content.published'], secret: WEBHOOK_SECRET, ...body },
  });
}

describe('webhook configuration', () => {
  it('creates a webhook (201, active by default) and never returns the secret', async () => {
    const response = await create({ events: ['content.created', 'media.uploaded'] });
    expect(response.status).toBe(201);
    const webhook = response.body.data;
    expect(webhook).toEqual({
      id: expect.any(String),
      project: 'default',
      environment: 'production',
      url: PUBLIC_URL,
      events: ['content.created', 'media.uploaded'],
      active: true,
      createdBy: expect.any(String),
      updatedBy: webhook.createdBy,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    expect(response.text).not.toContain(WEBHOOK_SECRET);

    const list = await t.request('GET', '/api/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(webhook.id);
    expect(list.text).not.toContain(WEBHOOK_SECRET);
    expect(list.text).not.toMatch(/secret/i);
  });

  it('stores the secret encrypted, not in clear', async () => {
    const { body } = await create({});
    const stored = await t.db.query<{ secret: string }>(
      'select secret_ciphertext as secret from webhooks where id = $1',
      [body.data.id],
    );
    expect(stored.rows[0]?.secret).toMatch(/^v1\./);
    expect(stored.rows[0]?.secret).not.toContain(WEBHOOK_SECRET);
  });

  it('updates some fields, keeps the others, and answers without the secret', async () => {
    const { body } = await create({ events: ['content.created'] });
    const id = body.data.id;
    const updated = await t.request('PUT', `/api/v1/webhooks/${id}`, {
      body: { events: ['content.deleted', 'content.restored', 'content.deleted'], active: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id,
      url: PUBLIC_URL,
      events: ['content.deleted', 'content.restored'],
      active: false,
    });
    expect(Date.parse(updated.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(body.data.updatedAt));

    const again = await t.request('PUT', `/api/v1/webhooks/${id}`, {
      body: { url: 'https://203.0.113.11/other', secret: 'another-secret-that-is-long-enough-123', active: true },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ url: 'https://203.0.113.11/other', active: true });
    expect(again.text).not.toContain('another-secret');
  });

  it('deletes a webhook: { deleted: true, id }, then it is gone', async () => {
    const { body } = await create({});
    const id = body.data.id;
    const deleted = await t.request('DELETE', `/api/v1/webhooks/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true, id });
    const list = await t.request('GET', '/api/v1/webhooks');
    expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(id);
    expect((await t.request('DELETE', `/api/v1/webhooks/${id}`)).body.error.code).toBe('NOT_FOUND');
    expect((await t.request('PUT', `/api/v1/webhooks/${id}`, { body: { active: true } })).status).toBe(404);
    expect((await t.request('GET', `/api/v1/webhooks/${id}/deliveries`)).status).toBe(404);
  });

  it('answers NOT_FOUND for an unknown id and INVALID_INPUT for a malformed one', async () => {
    const unknown = await t.request('PUT', `/api/v1/webhooks/${randomUUID()}`, { body: { active: false } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const malformed = await t.request('DELETE', '/api/v1/webhooks/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_INPUT');
  });

  it('keeps webhooks to their environment', async () => {
    const production = await targetOf(t.db);
    await t.db.query(
      "insert into environments (id, project_id, name, extends_id) values (gen_random_uuid(), $1, 'staging', $2)",
      [production.projectId, production.environmentId],
    );
    const { body } = await create({});
    const staging = await t.request('GET', '/api/v1/webhooks', { environment: 'staging' });
    expect(staging.status).toBe(200);
    expect(staging.body.data.map((w: { id: string }) => w.id)).not.toContain(body.data.id);
    const elsewhere = await t.request('PUT', `/api/v1/webhooks/${body.data.id}`, {
      environment: 'staging',
      body: { active: false },
    });
    expect(elsewhere.status).toBe(404);
  });
});

describe('webhook validation', () => {
  const invalid = async (response: Awaited<ReturnType<typeof create>>, field: string, message?: RegExp) => {
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(response.body.error.details.fields)).toContain(field);
    if (message) expect(response.body.error.details.fields[field]).toMatch(message);
  };

  it('refuses a non-https url, on create and on update', async () => {
    await invalid(await create({ url: 'http://203.0.113.10/hook' }), 'url', /https/);
    await invalid(await create({ url: 'not a url' }), 'url');
    const { body } = await create({});
    const update = await t.request('PUT', `/api/v1/webhooks/${body.data.id}`, {
      body: { url: 'http://203.0.113.10/' },
    });
    await invalid(update, 'url', /https/);
  });

  it('refuses secrets shorter than 32 or longer than 4096 characters, and a missing secret', async () => {
    await invalid(await create({ secret: 'x'.repeat(31) }), 'body.secret');
    await invalid(await create({ secret: 'x'.repeat(4097) }), 'body.secret');
    expect((await create({ secret: 'x'.repeat(32) })).status).toBe(201);
    expect((await create({ secret: 'x'.repeat(4096) })).status).toBe(201);
    const missing = await t.request('POST', '/api/v1/webhooks', {
      body: { url: PUBLIC_URL, events: ['content.created'] },
    });
    await invalid(missing, 'body.secret');
    const { body } = await create({});
    const update = await t.request('PUT', `/api/v1/webhooks/${body.data.id}`, { body: { secret: 'short' } });
    await invalid(update, 'body.secret');
  });

  it('refuses unknown event names, naming the known ones, and an empty list', async () => {
    await invalid(
      await create({ events: ['content.created', 'content.exploded'] }),
      'body.events.1',
      /content\.published/,
    );
    await invalid(await create({ events: [] }), 'body.events');
  });

  it('refuses urls that resolve to loopback, private, link-local or metadata addresses', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      // Site-local, Teredo and discard-only IPv6 ranges.
      'https://[fec0::1]/hook',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
      'https://[100::1]/hook',
    ]) {
      await invalid(await create({ url }), 'url', /CMS_WEBHOOK_ALLOW_PRIVATE/);
    }
  });

  it('needs webhooks:read to list and webhooks:write to change', async () => {
    const reader = await t.createKey({ scopes: ['webhooks:read'] });
    const none = await t.createKey({ scopes: ['content:read'] });
    expect((await t.request('GET', '/api/v1/webhooks', { key: reader })).status).toBe(200);
    const write = await t.request('POST', '/api/v1/webhooks', {
      key: reader,
      body: { url: PUBLIC_URL, events: ['content.created'], secret: WEBHOOK_SECRET },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
    expect((await t.request('GET', '/api/v1/webhooks', { key: none })).status).toBe(403);
    expect((await t.request('GET', '/api/v1/webhooks', { key: null })).status).toBe(401);
  });
});
