import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pruneAuditLog } from '../../src/modules/core-system/audit-retention.js';
import { createDocument, hashHeader, postFrontmatter, syncSchema, uniquePath } from '../content/fixtures.js';
import { asSession, expectError, signInAs } from '../identity/identity-helpers.js';
import { createRelease, getRelease } from '../releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The server's clock: the scheduled release fires when the test moves it. */
let now = new Date('2026-11-28T09:00:00.000Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await syncSchema(t);
});
afterAll(() => t.close());

/** A document's activity as the admin key reads it, newest first. */
async function activityOf(documentId: string, query = ''): Promise<any[]> {
  const response = await t.request('GET', `/api/v1/content/${documentId}/activity${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

async function update(documentId: string, title: string, draftRevision: number) {
  const response = await t.request('PUT', `/api/v1/content/${documentId}`, {
    headers: hashHeader(),
    body: { frontmatter: postFrontmatter({ title }), body: `${title}\n`, draftRevision },
  });
  expect(response.status, response.text).toBe(200);
}

describe("GET /content/{documentId}/activity: a document's history for the people who edit it", () => {
  it('answers an editor, who may not read the audit log, the saves with their diff and no client address', async () => {
    const editor = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'editor' }] });
    const doc = await createDocument(t, { body: 'one\n' });
    await update(doc.documentId, 'Second title', 1);

    const response = await asSession(t.url, editor, 'GET', `/api/v1/content/${doc.documentId}/activity`);
    expect(response.status, response.text).toBe(200);
    const entries = response.body.data;
    expect(entries.map((entry: any) => entry.action)).toEqual(['content.update', 'content.create']);
    expect(entries[0]).toMatchObject({
      actor: { type: 'apiKey' },
      target: { environment: 'production', type: 'post', documentId: doc.documentId },
      outcome: 'success',
      ip: null,
      changes: { frontmatter: { changed: ['title'] } },
    });
    expect(response.body.pagination).toMatchObject({ limit: 50, nextCursor: null });

    // The whole log stays for admins.
    const log = await asSession(t.url, editor, 'GET', '/api/v1/audit', { environment: null });
    expectError(log, 403, 'FORBIDDEN');
  });

  it('is refused to a key that reads only published content, and checks its id and cursor', async () => {
    const doc = await createDocument(t);
    const reader = await t.createKey({ scopes: ['content:read'] });
    const refused = await t.request('GET', `/api/v1/content/${doc.documentId}/activity`, { key: reader });
    expectError(refused, 403, 'FORBIDDEN');
    const badId = await t.request('GET', '/api/v1/content/not-an-id/activity');
    expect(badId.status, badId.text).toBe(400);
    expect(badId.body.error.details.fields).toHaveProperty(['params.documentId']);
    const badCursor = await t.request('GET', `/api/v1/content/${doc.documentId}/activity?cursor=nonsense`);
    expectError(badCursor, 400, 'INVALID_QUERY_PARAM');
    expect(badCursor.body.error.details.fields).toHaveProperty('cursor');
  });

  it('pages newest first by cursor, each entry once, and shows only this environment', async () => {
    const doc = await createDocument(t);
    for (let revision = 1; revision <= 4; revision += 1) await update(doc.documentId, `Title ${revision}`, revision);
    const seen: any[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await t.request('GET', `/api/v1/content/${doc.documentId}/activity${query}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...response.body.data);
      cursor = response.body.pagination.nextCursor;
    } while (cursor);
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(5);
    expect(seen.map((entry) => entry.action)).toEqual([...Array(4).fill('content.update'), 'content.create']);
    const times = seen.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());

    const elsewhere = await t.request('GET', `/api/v1/content/${doc.documentId}/activity`, { environment: 'staging' });
    if (elsewhere.status === 200) expect(elsewhere.body.data).toEqual([]);
    else expect(elsewhere.status).toBe(404);
  });

  it('lists a batch in the activity of every document it wrote, with what the batch did', async () => {
    const existing = await createDocument(t);
    const response = await t.request('POST', '/api/v1/content/batch', {
      headers: hashHeader(),
      body: {
        operations: [
          { op: 'create', type: 'post', path: uniquePath(), frontmatter: postFrontmatter({ title: 'A' }), body: 'a' },
          { op: 'create', type: 'post', path: uniquePath(), frontmatter: postFrontmatter({ title: 'B' }), body: 'b' },
          {
            op: 'update',
            documentId: existing.documentId,
            frontmatter: postFrontmatter({ title: 'C' }),
            body: 'c',
            draftRevision: 1,
          },
          {
            op: 'update',
            documentId: existing.documentId,
            frontmatter: postFrontmatter(),
            body: 'x',
            draftRevision: 1,
          },
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    const written = response.body.data.results.filter((r: any) => r.ok).map((r: any) => r.document.documentId);
    expect(written).toHaveLength(3);
    const requestId = response.headers.get('x-request-id');
    for (const documentId of new Set(written as string[])) {
      const [latest] = await activityOf(documentId);
      expect(latest, documentId).toMatchObject({
        action: 'content.batch',
        requestId,
        changes: { batch: { operations: 4, applied: 3, failed: 1 } },
      });
    }
  });

  it('lists a release published at once, and a scheduled one the server published, in each document', async () => {
    const first = await createDocument(t);
    const second = await createDocument(t);
    const now1 = await createRelease(t, 'Now', { [first.documentId]: 'publish', [second.documentId]: 'publish' });
    const published = await t.request('POST', `/api/v1/releases/${now1}/publish`);
    expect(published.status, published.text).toBe(200);
    for (const doc of [first, second]) {
      const [latest] = await activityOf(doc.documentId);
      expect(latest).toMatchObject({ action: 'releases.publish', actor: { type: 'apiKey' }, target: { id: now1 } });
    }

    const editor = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'editor' }] });
    await update(first.documentId, 'Scheduled title', 1);
    await update(second.documentId, 'Scheduled title', 1);
    const later = await createRelease(t, 'Later', { [first.documentId]: 'publish', [second.documentId]: 'unpublish' });
    const scheduled = await asSession(t.url, editor, 'POST', `/api/v1/releases/${later}/schedule`, {
      body: { scheduledAt: new Date(now.getTime() + 60 * 60_000).toISOString() },
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    now = new Date(now.getTime() + 60 * 60_000 + 1_000);
    await vi.waitFor(async () => expect((await getRelease(t, later)).status).toBe('published'), {
      timeout: 8_000,
      interval: 100,
    });
    for (const doc of [first, second]) {
      const [latest] = await activityOf(doc.documentId);
      expect(latest, doc.documentId).toMatchObject({
        action: 'releases.publish',
        actor: { type: 'system', id: 'release-scheduler' },
        outcome: 'success',
        target: { project: 'default', environment: 'production', id: later },
        changes: { scheduled: { email: editor.email }, status: 'published', items: 2, documents: 2 },
      });
    }
    // The entry is in the log's chain like any other.
    const verified = await t.request('GET', '/api/v1/audit/verify', { environment: null });
    expect(verified.body.data.ok).toBe(true);
  });

  it('loses the documents an entry indexed when retention removes the entry', async () => {
    const doc = await createDocument(t);
    const other = await createDocument(t);
    const id = await createRelease(t, 'Old', { [doc.documentId]: 'publish', [other.documentId]: 'publish' });
    expect((await t.request('POST', `/api/v1/releases/${id}/publish`)).status).toBe(200);
    const indexed = async () =>
      (
        await t.db.query<{ n: number }>(
          'select count(*)::int as n from audit_entry_documents where document_id = any($1::text[])',
          [[doc.documentId, other.documentId]],
        )
      ).rows[0]?.n;
    expect(await indexed()).toBe(2);
    await pruneAuditLog({ db: t.db, clock: () => new Date(now.getTime() + 401 * 86_400_000), retentionDays: 400 });
    expect(await indexed()).toBe(0);
    expect(await activityOf(doc.documentId)).toEqual([]);
  });
});
