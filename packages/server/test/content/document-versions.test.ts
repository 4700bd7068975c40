import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createDocument, hashHeader, outboxEvents, postFrontmatter, publishDocument, syncSchema } from './fixtures.js';

let t: TestServer;
let doc: { documentId: string };
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  // Versions 1..3 with bodies v1..v3.
  doc = await createDocument(t, { body: 'v1', frontmatter: postFrontmatter({ title: 'Title 1' }) });
  await publishDocument(t, doc.documentId, 'one');
  for (const n of [2, 3]) {
    const put = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: `Title ${n}` }), body: `v${n}`, draftRevision: n - 1 },
    });
    expect(put.status).toBe(200);
    await publishDocument(t, doc.documentId, n === 2 ? 'two' : undefined);
  }
});
afterAll(() => t.close());

describe('GET /content/{documentId}/versions', () => {
  it('lists version entries newest first with pagination', async () => {
    const response = await t.request('GET', `/api/v1/content/${doc.documentId}/versions`);
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    expect(response.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(response.body.data[1]).toEqual({
      version: 2,
      publishedAt: expect.any(String),
      publishedBy: expect.any(String),
      changeSummary: 'two',
    });
    expect(response.body.data[0].changeSummary).toBeNull();
  });

  it('pages with limit and offset', async () => {
    const page = await t.request('GET', `/api/v1/content/${doc.documentId}/versions?limit=2&offset=1`);
    expect(page.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    const first = await t.request('GET', `/api/v1/content/${doc.documentId}/versions?limit=1`);
    expect(first.body.pagination.hasMore).toBe(true);
  });

  it('orders by version number: desc by default, asc on request, with pagination', async () => {
    const versionsOf = async (query: string) => {
      const response = await t.request('GET', `/api/v1/content/${doc.documentId}/versions?${query}`);
      expect(response.status, response.text).toBe(200);
      return response.body.data.map((v: { version: number }) => v.version);
    };
    expect(await versionsOf('order=desc')).toEqual([3, 2, 1]);
    expect(await versionsOf('order=asc')).toEqual([1, 2, 3]);
    expect(await versionsOf('order=asc&limit=2&offset=1')).toEqual([2, 3]);
    expect(await versionsOf('order=desc&limit=2&offset=1')).toEqual([2, 1]);
  });

  it('accepts the largest offset and answers an empty page', async () => {
    const response = await t.request('GET', `/api/v1/content/${doc.documentId}/versions?offset=2147483647`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      data: [],
      pagination: { total: 3, limit: 20, offset: 2147483647, hasMore: false },
    });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=2147483648', 'offset'],
    ['offset=10000000000000000000', 'offset'],
    ['limit=abc', 'limit'],
    ['sort=path', 'sort'],
    ['order=up', 'order'],
    ['order=ASC', 'order'],
    ['limit=1&limit=2', 'limit'],
    ['order=asc&order=desc', 'order'],
  ])('answers INVALID_QUERY_PARAM for %s', async (query, field) => {
    const response = await t.request('GET', `/api/v1/content/${doc.documentId}/versions?${query}`);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty(field);
  });

  it('accepts limit=100 and lists nothing for a never-published document', async () => {
    const fresh = await createDocument(t);
    const response = await t.request('GET', `/api/v1/content/${fresh.documentId}/versions?limit=100`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], pagination: { total: 0, limit: 100, offset: 0, hasMore: false } });
  });

  it('answers NOT_FOUND for an unknown document', async () => {
    const response = await t.request('GET', '/api/v1/content/00000000-0000-4000-8000-000000000000/versions');
    expect(response.status).toBe(404);
  });
});

describe('GET /content/{documentId}/versions/{version}', () => {
  it('returns the immutable snapshot of one version', async () => {
    const response = await t.request('GET', `/api/v1/content/${doc.documentId}/versions/2`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      documentId: doc.documentId,
      version: 2,
      publishedAt: expect.any(String),
      publishedBy: expect.any(String),
      changeSummary: 'two',
      frontmatter: postFrontmatter({ title: 'Title 2', tags: [], status: 'draft' }),
      body: 'v2',
    });
  });

  it('answers NOT_FOUND for a version that does not exist, INVALID_INPUT for a malformed one', async () => {
    const missing = await t.request('GET', `/api/v1/content/${doc.documentId}/versions/9`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const malformed = await t.request('GET', `/api/v1/content/${doc.documentId}/versions/first`);
    expect(malformed.status).toBe(400);
    // Numbers no version can reach (past PostgreSQL's integer, or past any number) are malformed too.
    for (const huge of ['2147483648', '1e309', '99999999999999999999']) {
      const answer = await t.request('GET', `/api/v1/content/${doc.documentId}/versions/${huge}`);
      expect(answer.status, huge).toBe(400);
      expect(answer.body.error.code, huge).toBe('INVALID_INPUT');
    }
  });
});

describe('POST /content/{documentId}/versions/{version}/restore', () => {
  it('puts the version into the draft; version and publishedVersion stay', async () => {
    const before = await t.db.query<{ rev: number }>('select draft_revision as rev from documents where id = $1', [
      doc.documentId,
    ]);
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/versions/1/restore`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      documentId: doc.documentId,
      version: 3,
      publishedVersion: 3,
      draftRevision: (before.rows[0]?.rev ?? 0) + 1,
      hasUnpublishedChanges: true,
      restoredFromVersion: 1,
    });
    const row = await t.db.query<{ body: string; title: string; publishedBody: string }>(
      `select draft_body as body, draft_frontmatter->>'title' as title, published_body as "publishedBody"
       from documents where id = $1`,
      [doc.documentId],
    );
    expect(row.rows[0]).toEqual({ body: 'v1', title: 'Title 1', publishedBody: 'v3' });
    const history = await t.request('GET', `/api/v1/content/${doc.documentId}/versions`);
    expect(history.body.pagination.total).toBe(3);
  });

  it('records content.updated: the draft changed', async () => {
    const events = await outboxEvents(t, { documentId: doc.documentId });
    const last = events.at(-1);
    expect(last?.type).toBe('content.updated');
    expect(last?.payload.document.version).toBe(3);
  });

  it('answers NOT_FOUND for an unknown version or document', async () => {
    const version = await t.request('POST', `/api/v1/content/${doc.documentId}/versions/42/restore`);
    expect(version.status).toBe(404);
    const document = await t.request('POST', '/api/v1/content/00000000-0000-4000-8000-000000000000/versions/1/restore');
    expect(document.status).toBe(404);
  });
});
