import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addEnvironment,
  createAuthor,
  createDocument,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
  uniquePath,
} from '../content/fixtures.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { createRelease } from './release-fixtures.js';

let t: TestServer;
/** Posts of this file share a path prefix, so a list filtered by it sees only them. */
const ids = { changed: '', fresh: '', withdrawn: '', untouched: '', draftOnly: '' };
let releaseId = '';

async function retitle(documentId: string, title: string, extra: Record<string, unknown> = {}) {
  const current = await t.request('GET', `/api/v1/content/${documentId}?draft=true`);
  const response = await t.request('PUT', `/api/v1/content/${documentId}`, {
    headers: hashHeader(),
    body: {
      frontmatter: { ...current.body.data.frontmatter, title, ...extra },
      body: '',
      draftRevision: current.body.data.draftRevision,
    },
  });
  expect(response.status, response.text).toBe(200);
}

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  const liveAuthor = await createAuthor(t, 'Live author');
  await publishDocument(t, liveAuthor);
  const newAuthor = await createAuthor(t, 'New author');
  const goneAuthor = await createAuthor(t, 'Gone author');
  await publishDocument(t, goneAuthor);
  const post = (title: string, author: string) =>
    createDocument(t, {
      path: uniquePath('posts/rel'),
      frontmatter: postFrontmatter({ title, slug: title.replace(' ', '-'), author }),
    });
  ids.changed = (await post('changed', liveAuthor)).documentId;
  await publishDocument(t, ids.changed);
  await retitle(ids.changed, 'changed in release', { author: newAuthor });
  ids.fresh = (await post('fresh', goneAuthor)).documentId;
  ids.withdrawn = (await post('withdrawn', liveAuthor)).documentId;
  await publishDocument(t, ids.withdrawn);
  ids.untouched = (await post('untouched', goneAuthor)).documentId;
  await publishDocument(t, ids.untouched);
  ids.draftOnly = (await post('draft only', liveAuthor)).documentId;
  releaseId = await createRelease(t, 'Lists', {
    [ids.changed]: 'publish',
    [ids.fresh]: 'publish',
    [ids.withdrawn]: 'unpublish',
    [newAuthor]: 'publish',
    [goneAuthor]: 'unpublish',
  });
});
afterAll(() => t.close());

const titles = (response: { body: any }) =>
  (response.body.data as Array<{ frontmatter: { title: string } }>).map((d) => d.frontmatter.title).sort();

describe('release preview of lists (`GET /content?type=...&release=<id>`)', () => {
  it('lists what the site would list once the release is out: drafts of its items, without what it unpublishes', async () => {
    const response = await t.request('GET', `/api/v1/content?type=post&release=${releaseId}&limit=100`);
    expect(response.status, response.text).toBe(200);
    expect(titles(response)).toEqual(['changed in release', 'fresh', 'untouched']);
    expect(response.body.pagination.total).toBe(3);
    expect(response.headers.get('cache-control')).toContain('private');
    // The published list is unchanged: the preview writes nothing.
    const live = await t.request('GET', '/api/v1/content?type=post&limit=100');
    expect(titles(live)).toEqual(['changed', 'untouched', 'withdrawn']);
  });

  it('filters on the content the release shows (slug of a draft in the release)', async () => {
    const bySlug = await t.request('GET', `/api/v1/content?type=post&release=${releaseId}&slug=fresh`);
    expect(bySlug.status, bySlug.text).toBe(200);
    expect(titles(bySlug)).toEqual(['fresh']);
    const gone = await t.request('GET', `/api/v1/content?type=post&release=${releaseId}&slug=withdrawn`);
    expect(gone.body.data).toEqual([]);
  });

  it('resolves references as the release leaves their targets, on lists and on single reads', async () => {
    const list = await t.request('GET', `/api/v1/content?type=post&release=${releaseId}&resolve=author&limit=100`);
    expect(list.status, list.text).toBe(200);
    const byTitle = new Map((list.body.data as any[]).map((d) => [d.frontmatter.title, d]));
    // The release publishes the new author: its draft resolves although it was never published.
    expect(byTitle.get('changed in release').frontmatter.author).toMatchObject({ frontmatter: { name: 'New author' } });
    // The release unpublishes the other author: absent, reported as such.
    const fresh = byTitle.get('fresh');
    expect(fresh.frontmatter.author).toBeNull();
    expect(fresh.resolveErrors['frontmatter.author']).toMatchObject({ code: 'REFERENCE_FORBIDDEN' });
    expect(fresh.resolveErrors['frontmatter.author'].message).toContain('release');

    const one = await t.request('GET', `/api/v1/content/${ids.changed}?release=${releaseId}&resolve=author`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.frontmatter).toMatchObject({
      title: 'changed in release',
      author: { frontmatter: { name: 'New author' } },
    });
    // Without the release, the live post still names the live author.
    const live = await t.request('GET', `/api/v1/content/${ids.changed}?resolve=author`);
    expect(live.body.data.frontmatter).toMatchObject({
      title: 'changed',
      author: { frontmatter: { name: 'Live author' } },
    });
  });

  it('answers a document the release leaves unpublished as NOT_FOUND naming the release', async () => {
    const response = await t.request('GET', `/api/v1/content/${ids.draftOnly}?release=${releaseId}`);
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', details: { release: releaseId } });
  });

  it('refuses an unknown release, one of another environment, draft=true with it, and readers without draft access', async () => {
    const unknown = await t.request('GET', '/api/v1/content?type=post&release=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect(unknown.body.error.message).toContain('Release');

    await addEnvironment(t, 'staging');
    const elsewhere = await t.request('GET', `/api/v1/content/${ids.untouched}?release=${releaseId}`, {
      environment: 'staging',
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.message).toContain('Release');
    const elsewhereList = await t.request('GET', `/api/v1/content?type=post&release=${releaseId}`, {
      environment: 'staging',
    });
    expect(elsewhereList.status).toBe(404);

    const both = await t.request('GET', `/api/v1/content?type=post&release=${releaseId}&draft=true`);
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('INVALID_QUERY_PARAM');

    const malformed = await t.request('GET', '/api/v1/content?type=post&release=not-a-uuid');
    expect(malformed.status).toBe(400);

    const reader = await t.createKey({ scopes: ['content:read'] });
    const refused = await sendRequest(t.url, reader, 'GET', `/api/v1/content?type=post&release=${releaseId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toMatchObject({ missing: ['content:read:draft'] });
  });
});
