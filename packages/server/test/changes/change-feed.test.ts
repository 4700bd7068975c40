/**
 * The change feed (docs/api.md "Change feed"): what it lists to readers with and without draft scope,
 * its pages and cursors, and who may read it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addEnvironment,
  createDocument,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from '../content/fixtures.js';
import { createRelease } from '../releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { feedPage, followFeed, summary } from './change-fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await addEnvironment(t, 'staging');
  await syncSchema(t);
  await syncSchema(t, undefined, { environment: 'staging' });
});
afterAll(() => t.close());

async function saveDraft(documentId: string, draftRevision: number, title: string): Promise<void> {
  const saved = await t.request('PUT', `/api/v1/content/${documentId}`, {
    headers: hashHeader(),
    body: { frontmatter: postFrontmatter({ title }), body: 'text', draftRevision },
  });
  expect(saved.status, saved.text).toBe(200);
}

describe('what the feed lists', () => {
  it('lists changes to the published state to every reader, draft changes only with draft=true', async () => {
    const start = (await followFeed(t, undefined, { draft: true })).cursor;
    const a = await createDocument(t);
    await publishDocument(t, a.documentId);
    await saveDraft(a.documentId, 1, 'Edited');
    expect((await t.request('POST', `/api/v1/content/${a.documentId}/unpublish`)).status).toBe(200);
    const b = await createDocument(t);
    await publishDocument(t, b.documentId);
    expect((await t.request('DELETE', `/api/v1/content/${b.documentId}`)).status).toBe(200);
    const never = await createDocument(t);
    expect((await t.request('DELETE', `/api/v1/content/${never.documentId}`)).status).toBe(200);
    expect((await t.request('POST', `/api/v1/content/${b.documentId}/restore`)).status).toBe(200);
    expect((await t.request('POST', `/api/v1/content/${never.documentId}/restore`)).status).toBe(200);

    const published = await followFeed(t, start);
    expect(summary(published.entries)).toEqual([
      `${a.documentId}:published:1`,
      `${a.documentId}:unpublished:1`,
      `${b.documentId}:published:1`,
      `${b.documentId}:deleted:1`,
      // Restoring a deleted document that has a published version shows it again.
      `${b.documentId}:published:1`,
    ]);
    expect(published.entries[0]).toMatchObject({ type: 'post', locale: '__cms_default__', path: a.path });
    expect(new Date(published.entries[0]?.at ?? '').toISOString()).toBe(published.entries[0]?.at);

    const everything = await followFeed(t, start, { draft: true });
    expect(summary(everything.entries)).toEqual([
      `${a.documentId}:created:0`,
      `${a.documentId}:published:1`,
      `${a.documentId}:updated:1`,
      `${a.documentId}:unpublished:1`,
      `${b.documentId}:created:0`,
      `${b.documentId}:published:1`,
      `${b.documentId}:deleted:1`,
      `${never.documentId}:created:0`,
      `${never.documentId}:deleted:0`,
      `${b.documentId}:restored:1`,
      `${never.documentId}:restored:0`,
    ]);
    // Entries appear in the order they became visible, and so do their times.
    const times = everything.entries.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('lists each document of a release once, with the version it published', async () => {
    const start = (await followFeed(t)).cursor;
    const docs = [await createDocument(t), await createDocument(t), await createDocument(t)];
    await publishDocument(t, docs[2].documentId);
    const id = await createRelease(t, 'Three', {
      [docs[0].documentId]: 'publish',
      [docs[1].documentId]: 'publish',
      [docs[2].documentId]: 'unpublish',
    });
    expect((await t.request('POST', `/api/v1/releases/${id}/publish`)).body.data.status).toBe('published');
    const after = await followFeed(t, start);
    expect(summary(after.entries).sort()).toEqual(
      [
        `${docs[0].documentId}:published:1`,
        `${docs[1].documentId}:published:1`,
        `${docs[2].documentId}:published:1`,
        `${docs[2].documentId}:unpublished:1`,
      ].sort(),
    );
    // The single publish committed before the release: it comes first.
    expect(summary(after.entries)[0]).toBe(`${docs[2].documentId}:published:1`);
  });

  it('pages by `limit`, never listing a change twice or skipping one; the last cursor stays put', async () => {
    const start = (await followFeed(t)).cursor;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const doc = await createDocument(t);
      await publishDocument(t, doc.documentId);
      ids.push(doc.documentId);
    }
    const first = await feedPage(t, { since: start, limit: 3 });
    expect(first.pagination.hasMore).toBe(true);
    const second = await feedPage(t, { since: first.pagination.nextCursor, limit: 3 });
    expect(second.pagination.hasMore).toBe(true);
    const third = await feedPage(t, { since: second.pagination.nextCursor, limit: 3 });
    expect(third.pagination.hasMore).toBe(false);
    const listed = [...first.data, ...second.data, ...third.data].map((entry) => entry.documentId);
    expect(listed).toEqual(ids);
    const end = await feedPage(t, { since: third.pagination.nextCursor });
    expect(end).toEqual({ data: [], pagination: { nextCursor: third.pagination.nextCursor, hasMore: false } });
  });

  it('keeps each environment to itself', async () => {
    const staging = { environment: 'staging' };
    const stagingStart = (await followFeed(t, undefined, { draft: true }, staging)).cursor;
    const productionStart = (await followFeed(t, undefined, { draft: true })).cursor;
    const doc = await createDocument(t, {}, staging);
    const published = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { ...staging, body: {} });
    expect(published.status).toBe(200);
    expect(summary((await followFeed(t, stagingStart, {}, staging)).entries)).toEqual([
      `${doc.documentId}:published:1`,
    ]);
    expect((await followFeed(t, productionStart, { draft: true })).entries).toEqual([]);
  });
});

describe('cursors', () => {
  it('refuses a cursor the feed did not give, and limits out of range, naming the parameter', async () => {
    for (const since of ['nonsense', Buffer.from('12.zz', 'utf8').toString('base64url')]) {
      const refused = await t.request('GET', `/api/v1/changes?since=${since}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_QUERY_PARAM');
      expect(refused.body.error.details.fields).toHaveProperty('since');
    }
    for (const limit of ['0', '1001', 'x']) {
      const refused = await t.request('GET', `/api/v1/changes?limit=${limit}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.fields).toHaveProperty('limit');
    }
    const unknown = await t.request('GET', '/api/v1/changes?updatedSince=2020-01-01T00:00:00.000Z');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_QUERY_PARAM');
  });

  it("answers CHANGES_CURSOR_EXPIRED to another environment's cursor, with the cursor to follow there", async () => {
    const production = (await followFeed(t)).cursor;
    const refused = await t.request('GET', `/api/v1/changes?since=${production}`, { environment: 'staging' });
    expect(refused.status).toBe(410);
    expect(refused.body.error.code).toBe('CHANGES_CURSOR_EXPIRED');
    expect(refused.body.error.details.reason).toBe('other-environment');
    expect(refused.body.error.message).toMatch(/load all content again/);
    const staging = await feedPage(t, { since: refused.body.error.details.cursor }, { environment: 'staging' });
    expect(staging.data).toEqual([]);
  });
});

describe('access', () => {
  it('needs content:read, and content:read:draft for draft=true; a preview token reads none of it', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await t.request('GET', '/api/v1/changes', { key: reader })).status).toBe(200);
    const drafts = await t.request('GET', '/api/v1/changes?draft=true', { key: reader });
    expect(drafts.status).toBe(403);
    expect(drafts.body.error.code).toBe('FORBIDDEN');
    expect(drafts.body.error.details.missing).toEqual(['content:read:draft']);
    const none = await t.createKey({ scopes: ['media:read'] });
    expect((await t.request('GET', '/api/v1/changes', { key: none })).status).toBe(403);
    expect((await t.request('GET', '/api/v1/changes', { key: null })).status).toBe(401);

    const doc = await createDocument(t);
    const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
    expect(issued.status, issued.text).toBe(200);
    const preview = await t.request('GET', '/api/v1/changes?draft=true', {
      key: null,
      headers: { authorization: `Preview ${issued.body.data.token}` },
    });
    expect([401, 403]).toContain(preview.status);
  });

  it('answers a key only for the environments of its allowlist', async () => {
    const productionOnly = await t.createKey({
      scopes: ['content:read'],
      allowlist: [{ project: 'default', environment: 'production' }],
    });
    expect((await t.request('GET', '/api/v1/changes', { key: productionOnly })).status).toBe(200);
    const refused = await t.request('GET', '/api/v1/changes', { key: productionOnly, environment: 'staging' });
    expect(refused.status).toBe(403);
  });
});
