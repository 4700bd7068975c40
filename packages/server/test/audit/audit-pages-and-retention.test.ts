import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAuditLog } from '../../src/modules/core-system/audit-retention.js';
import { uniqueSlug } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

let now = new Date('2026-01-01T00:00:00.000Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
});
afterAll(() => t.close());

async function newProject(): Promise<string> {
  const slug = uniqueSlug('pages');
  const created = await t.request('POST', '/api/v1/projects', { body: { slug }, project: null, environment: null });
  expect(created.status, created.text).toBe(201);
  return slug;
}

async function addEnvironment(project: string, name: string): Promise<void> {
  const response = await t.request('POST', '/api/v1/environments', { project, environment: null, body: { name } });
  expect(response.status, response.text).toBe(201);
}

async function page(project: string, query: Record<string, string>): Promise<any> {
  const search = new URLSearchParams(query).toString();
  const response = await t.request('GET', `/api/v1/audit?${search}`, { project, environment: null });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('audit pages', () => {
  it('walks every entry once by cursor, while new entries are written between pages', async () => {
    const project = await newProject();
    for (let index = 0; index < 7; index += 1) await addEnvironment(project, `e-${index}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const body = await page(project, { limit: '3', ...(cursor ? { cursor } : {}) });
      seen.push(...body.data.map((entry: any) => entry.changes.input.name));
      expect(body.pagination.limit).toBe(3);
      cursor = body.pagination.nextCursor;
      expect(body.pagination.hasMore).toBe(cursor !== null);
      if (seen.length === 3) await addEnvironment(project, 'late');
    } while (cursor);
    expect(seen).toEqual(['e-6', 'e-5', 'e-4', 'e-3', 'e-2', 'e-1', 'e-0']);
  });

  it('walks every entry once while writers add entries at the same time as each page is read', async () => {
    const project = await newProject();
    for (let index = 0; index < 6; index += 1) await addEnvironment(project, `s-${index}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const query: Record<string, string> = { limit: '2', ...(cursor ? { cursor } : {}) };
      const writers = [0, 1].map((writer) => addEnvironment(project, `w-${round}-${writer}`));
      const [body] = await Promise.all([page(project, query), ...writers]);
      seen.push(...body.data.map((entry: any) => entry.changes.input.name));
      cursor = body.pagination.nextCursor;
      round += 1;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((name) => name.startsWith('s-'))).toEqual(['s-5', 's-4', 's-3', 's-2', 's-1', 's-0']);
    // What the first page saw of the writers is all they had committed then: never an entry out of order.
    const order = (await auditEntries(t, {}, { project })).map((entry) => entry.changes.input.name);
    expect(seen).toEqual(order.slice(order.indexOf(seen[0] as string)));
  });

  it('filters by action, actor, outcome and time', async () => {
    const project = await newProject();
    await addEnvironment(project, 'one');
    const refused = await t.request('POST', '/api/v1/environments', {
      project,
      environment: null,
      body: { name: 'one' },
    });
    expect(refused.status).toBe(409);
    const failures = (await page(project, { outcome: 'failure' })).data;
    expect(failures.map((entry: any) => entry.requestId)).toEqual([refused.headers.get('x-request-id')]);
    const [entry] = failures;
    expect((await page(project, { actor: entry.actor.id, action: 'environments.create' })).data).toHaveLength(2);
    expect((await page(project, { actor: 'someone-else' })).data).toEqual([]);
    expect((await page(project, { from: '2030-01-01T00:00:00Z' })).data).toEqual([]);
    expect((await page(project, { to: '2030-01-01T00:00:00Z' })).data).toHaveLength(2);
  });

  it('refuses a cursor it did not give', async () => {
    const project = await newProject();
    const response = await t.request('GET', '/api/v1/audit?cursor=bm90LWEtY3Vyc29y', { project, environment: null });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
  });

  it('needs audit:read', async () => {
    const key = await t.createKey({ scopes: ['content:read'] });
    const response = await t.request('GET', '/api/v1/audit', { key, environment: null });
    expect(response.status).toBe(403);
  });
});

describe('audit retention', () => {
  it('removes entries past the retention in batches and the rest of the chain still verifies', async () => {
    const project = await newProject();
    for (let index = 0; index < 5; index += 1) await addEnvironment(project, `old-${index}`);
    now = new Date(now.getTime() + 300 * 86_400_000);
    await addEnvironment(project, 'recent');
    now = new Date(now.getTime() + 200 * 86_400_000);
    const removed = await pruneAuditLog({ db: t.db, clock: () => now, retentionDays: 400, batch: 2 });
    expect(removed).toBeGreaterThanOrEqual(5);
    const left = await auditEntries(t, {}, { project, environment: null });
    expect(left.map((entry) => entry.changes.input.name)).toEqual(['recent']);
    const verified = await t.request('GET', '/api/v1/audit/verify', { project, environment: null });
    expect(verified.body.data).toEqual({ ok: true, checked: 1, firstBrokenId: null });
  });
});
