import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, publishDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

/** The totals of the two counted lists (published, and every live draft) and of a row-counted one. */
async function totals() {
  const published = await t.request('GET', '/api/v1/content?type=post');
  const drafts = await t.request('GET', '/api/v1/content?type=post&draft=true');
  const counted = await t.request('GET', '/api/v1/content?type=post&draft=true&hasUnpublishedChanges=false');
  return {
    published: published.body.pagination.total,
    live: drafts.body.pagination.total,
    publishedUnchanged: counted.body.pagination.total,
  };
}

describe('exact list totals from the per-type counters', () => {
  it('follow create, publish, unpublish, delete and restore', async () => {
    expect(await totals()).toEqual({ published: 0, live: 0, publishedUnchanged: 0 });
    const a = await createDocument(t);
    const b = await createDocument(t);
    expect(await totals()).toEqual({ published: 0, live: 2, publishedUnchanged: 0 });

    await publishDocument(t, a.documentId);
    await publishDocument(t, b.documentId);
    expect(await totals()).toEqual({ published: 2, live: 2, publishedUnchanged: 2 });

    expect((await t.request('POST', `/api/v1/content/${a.documentId}/unpublish`)).status).toBe(200);
    expect(await totals()).toEqual({ published: 1, live: 2, publishedUnchanged: 1 });

    expect((await t.request('DELETE', `/api/v1/content/${b.documentId}`)).status).toBe(200);
    expect(await totals()).toEqual({ published: 0, live: 1, publishedUnchanged: 0 });

    expect((await t.request('POST', `/api/v1/content/${b.documentId}/restore`)).status).toBe(200);
    expect(await totals()).toEqual({ published: 1, live: 2, publishedUnchanged: 1 });
  });

  it('keep no counts for a deleted environment and start a cloned one with its source’s', async () => {
    const created = await t.request('POST', '/api/v1/environments', {
      environment: null,
      body: { name: 'preview', cloneFrom: 'production' },
    });
    expect(created.status, created.text).toBe(201);
    const cloned = await t.request('GET', '/api/v1/content?type=post&draft=true', { environment: 'preview' });
    expect(cloned.body.pagination.total).toBe((await totals()).live);

    expect((await t.request('DELETE', '/api/v1/environments/preview', { environment: null })).status).toBe(200);
    const rows = await t.db.query(
      "select 1 from document_counts c join environments e on e.id = c.environment_id where e.name = 'preview'",
    );
    expect(rows.rowCount).toBe(0);
    const orphans = await t.db.query(
      'select 1 from document_counts c where not exists (select 1 from environments e where e.id = c.environment_id)',
    );
    expect(orphans.rowCount).toBe(0);
  });

  it('match a row count after concurrent creates', async () => {
    const before = (await totals()).live;
    await Promise.all(Array.from({ length: 8 }, () => createDocument(t)));
    const live = (await totals()).live;
    const rows = await t.db.query<{ n: number }>(
      "select count(*)::int as n from documents where type = 'post' and not is_deleted",
    );
    expect(live).toBe(before + 8);
    expect(live).toBe(rows.rows[0]?.n);
  });
});
