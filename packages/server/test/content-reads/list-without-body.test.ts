/**
 * `GET /content?includeBody=false` (docs/api.md "GET /content"): the documents of a list without their
 * text, for lists that show titles and fields (the Studio's dashboard and lists). Every other field, the
 * filters, totals and resolved references are those of the same list with bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthor,
  createDocument,
  postFrontmatter,
  publishDocument,
  syncSchema,
  uniquePath,
} from '../content/fixtures.js';
import { createRelease } from '../releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
const prefix = uniquePath('posts/summaries');
const body = 'A paragraph of the body.\n'.repeat(400);
const ids = { published: '', draft: '', author: '' };

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  ids.author = await createAuthor(t, 'Ada');
  await publishDocument(t, ids.author);
  const source = `---\ntitle: Published one # kept\nslug: published-one\nauthor: ${ids.author}\n---\n${body}`;
  ids.published = (
    await createDocument(t, {
      path: `${prefix}/published`,
      frontmatter: postFrontmatter({ title: 'Published one', slug: 'published-one', author: ids.author }),
      body,
      source,
    })
  ).documentId;
  await publishDocument(t, ids.published);
  ids.draft = (
    await createDocument(t, {
      path: `${prefix}/draft`,
      frontmatter: postFrontmatter({ title: 'Draft one', slug: 'draft-one' }),
      body,
    })
  ).documentId;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function list(query: string) {
  const response = await t.request('GET', `/api/v1/content?type=post&sort=path&${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: Record<string, unknown>[]; pagination: { total: number } };
}

/** A document without the keys a summary leaves out. */
function withoutText(doc: Record<string, unknown>): Record<string, unknown> {
  const { body: _body, source: _source, ...rest } = doc;
  return rest;
}

describe('content lists without bodies', () => {
  it('answers drafts without body and source, and everything else as the full list does', async () => {
    const full = await list('draft=true&includeBody=true');
    const summaries = await list('draft=true&includeBody=false');
    const mine = (page: typeof full) => page.data.filter((doc) => String(doc.path).startsWith(prefix));
    expect(mine(full)).toHaveLength(2);
    expect(mine(full).every((doc) => doc.body === body)).toBe(true);
    expect(mine(full).some((doc) => typeof doc.source === 'string')).toBe(true);
    for (const doc of summaries.data) {
      expect(doc).not.toHaveProperty('body');
      expect(doc).not.toHaveProperty('source');
    }
    expect(mine(summaries)).toEqual(mine(full).map(withoutText));
    expect(summaries.pagination.total).toBe(full.pagination.total);
    // What it is for: the page is a small fraction of the one with bodies.
    expect(JSON.stringify(mine(summaries)).length * 10).toBeLessThan(JSON.stringify(mine(full)).length);
  });

  it('keeps the filters and resolved references of published reads', async () => {
    const query = `path=${encodeURIComponent(`${prefix}/published`)}&resolve=author`;
    const full = await list(query);
    const summaries = await list(`${query}&includeBody=false`);
    expect(summaries.data).toHaveLength(1);
    expect(summaries.data[0]).toEqual(withoutText(full.data[0] as Record<string, unknown>));
    expect(summaries.data[0]?.frontmatter).toMatchObject({ author: { documentId: ids.author } });
  });

  it('answers a release preview list without bodies too', async () => {
    const release = await createRelease(t, 'Summaries', { [ids.draft]: 'publish' });
    const summaries = await list(`release=${release}&includeBody=false`);
    const listed = summaries.data.filter((doc) => String(doc.path).startsWith(prefix));
    expect(listed.map((doc) => doc.documentId).sort()).toEqual([ids.published, ids.draft].sort());
    for (const doc of listed) expect(doc).not.toHaveProperty('body');
  });

  it('refuses a value that is not a boolean', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post&includeBody=no');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(Object.keys(response.body.error.details.fields)).toEqual(['includeBody']);
  });
});
