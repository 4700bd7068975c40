/**
 * `GET /content?updatedSince=`: only documents changed after an instant, the way an incremental site
 * build asks what changed since its last run; the newest document it already has is not listed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, publishDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

async function listed(query: string): Promise<{ ids: string[]; total: number }> {
  const response = await t.request('GET', `/api/v1/content?type=post&${query}`);
  expect(response.status, response.text).toBe(200);
  return {
    ids: response.body.data.map((doc: { documentId: string }) => doc.documentId),
    total: response.body.pagination.total,
  };
}

describe('GET /content?updatedSince=', () => {
  it('lists only the documents updated after the instant, published and draft reads alike', async () => {
    const first = await createDocument(t);
    const second = await createDocument(t);
    await publishDocument(t, first.documentId);
    await publishDocument(t, second.documentId);
    const newest = await t.request('GET', '/api/v1/content?type=post&sort=updatedAt&order=desc');
    expect(newest.body.data).toHaveLength(2);
    const watermark: string = newest.body.data[0].updatedAt;

    expect(await listed(`updatedSince=${encodeURIComponent(watermark)}`)).toEqual({ ids: [], total: 0 });

    const update = await t.request('PUT', `/api/v1/content/${first.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: { title: 'Changed', slug: 'hello-world' }, body: 'new', draftRevision: 2 },
    });
    expect(update.status, update.text).toBe(200);
    // A draft edit shows on draft reads at once.
    expect((await listed(`draft=true&updatedSince=${encodeURIComponent(watermark)}`)).ids).toEqual([first.documentId]);
    await publishDocument(t, first.documentId);
    expect(await listed(`updatedSince=${encodeURIComponent(watermark)}`)).toEqual({
      ids: [first.documentId],
      total: 1,
    });
    expect((await listed('updatedSince=2000-01-01T00:00:00Z')).ids.sort()).toEqual(
      [first.documentId, second.documentId].sort(),
    );
  });

  it('refuses a value that is not a date-time with INVALID_QUERY_PARAM naming it', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post&updatedSince=yesterday');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(JSON.stringify(response.body.error.details)).toContain('updatedSince');
  });
});
