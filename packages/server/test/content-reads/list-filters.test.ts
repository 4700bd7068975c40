import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  const group = randomUUID();
  const [live, changed, draftOnly, unpublished, deleted, fr, other] = await seedDocuments(t.db, [
    {
      type: 'post',
      path: 'posts/live',
      locale: 'en',
      translationGroupId: group,
      published: { frontmatter: { title: 'Live', slug: 'live' }, body: 'live body' },
    },
    {
      type: 'post',
      path: 'posts/changed',
      locale: 'en',
      frontmatter: { title: 'Changed (draft)', slug: 'changed-draft' },
      published: { frontmatter: { title: 'Changed', slug: 'changed' } },
      hasUnpublishedChanges: true,
    },
    { type: 'post', path: 'posts/draft', locale: 'en', frontmatter: { title: 'Draft', slug: 'draft' } },
    { type: 'post', path: 'posts/withdrawn', locale: 'en', frontmatter: { title: 'Withdrawn' }, unpublished: true },
    {
      type: 'post',
      path: 'posts/deleted',
      locale: 'en',
      published: { frontmatter: { title: 'Deleted', slug: 'deleted' } },
      isDeleted: true,
    },
    {
      type: 'post',
      path: 'posts/live',
      locale: 'fr',
      translationGroupId: group,
      published: { frontmatter: { title: 'En direct', slug: 'live' } },
    },
    { type: 'author', path: 'authors/ada', published: { frontmatter: { name: 'Ada', slug: 'ada' } } },
  ]);
  Object.assign(ids, { live, changed, draftOnly, unpublished, deleted, fr, other });
});
afterAll(() => t.close());

async function list(query: string, options: Parameters<TestServer['request']>[2] = {}) {
  const response = await t.request('GET', `/api/v1/content?${query}`, options);
  return response;
}

async function listIds(query: string, options: Parameters<TestServer['request']>[2] = {}): Promise<string[]> {
  const response = await list(query, options);
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((doc: { documentId: string }) => doc.documentId).sort();
}

const sorted = (...keys: string[]) => keys.map((key) => ids[key] as string).sort();

describe('GET /content: published and draft lists', () => {
  it('lists only live published documents of the type, with their published content', async () => {
    const response = await list('type=post');
    expect(response.status).toBe(200);
    expect(response.body.data.map((d: { documentId: string }) => d.documentId).sort()).toEqual(
      sorted('live', 'changed', 'fr'),
    );
    const changed = response.body.data.find((d: { documentId: string }) => d.documentId === ids.changed);
    expect(changed.frontmatter).toEqual({ title: 'Changed', slug: 'changed' });
    expect(response.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
  });

  it('lists every live document with its draft with draft=true', async () => {
    const response = await list('type=post&draft=true');
    expect(response.body.data.map((d: { documentId: string }) => d.documentId).sort()).toEqual(
      sorted('live', 'changed', 'draftOnly', 'unpublished', 'fr'),
    );
    const changed = response.body.data.find((d: { documentId: string }) => d.documentId === ids.changed);
    expect(changed.frontmatter.title).toBe('Changed (draft)');
  });

  it('needs content:read:draft for draft=true', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await list('type=post', { key: reader })).status).toBe(200);
    const response = await list('type=post&draft=true', { key: reader });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });
});

describe('GET /content: filters', () => {
  it('requires type, and answers SCHEMA_NOT_FOUND for a type the schema does not have', async () => {
    const missing = await list('');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(missing.body.error.details.fields).toHaveProperty('type');
    const unknown = await list('type=recipe');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('SCHEMA_NOT_FOUND');
  });

  it('filters by published: true documents ever published (withdrawn ones too), false only never-published ones', async () => {
    expect(await listIds('type=post&draft=true&published=true')).toEqual(
      sorted('live', 'changed', 'unpublished', 'fr'),
    );
    expect(await listIds('type=post&draft=true&published=false')).toEqual(sorted('draftOnly'));
    // A published read shows only what is published now, all of which has a published version.
    expect(await listIds('type=post&published=true')).toEqual(sorted('live', 'changed', 'fr'));
    expect(await listIds('type=post&published=false')).toEqual([]);
  });

  it('includes soft-deleted documents with isDeleted=true', async () => {
    expect(await listIds('type=post&draft=true&isDeleted=true')).toEqual(
      sorted('live', 'changed', 'draftOnly', 'unpublished', 'deleted', 'fr'),
    );
    expect(await listIds('type=post&isDeleted=true')).toEqual(sorted('live', 'changed', 'deleted', 'fr'));
    expect(await listIds('type=post&draft=true&isDeleted=false')).not.toContain(ids.deleted);
  });

  it('filters by hasUnpublishedChanges', async () => {
    expect(await listIds('type=post&draft=true&hasUnpublishedChanges=true')).toEqual(
      sorted('changed', 'draftOnly', 'unpublished'),
    );
    expect(await listIds('type=post&draft=true&hasUnpublishedChanges=false')).toEqual(sorted('live', 'fr'));
  });

  it('filters by locale, from the query or X-CMS-Locale, the query winning', async () => {
    expect(await listIds('type=post&locale=fr')).toEqual(sorted('fr'));
    expect(await listIds('type=post', { headers: { 'x-cms-locale': 'fr' } })).toEqual(sorted('fr'));
    expect(await listIds('type=post&locale=en', { headers: { 'x-cms-locale': 'fr' } })).toEqual(
      sorted('live', 'changed'),
    );
    expect(await listIds('type=post&locale=EN')).toEqual(sorted('live', 'changed'));
  });

  it('ignores the locale on a non-localized type', async () => {
    expect(await listIds('type=author&locale=fr')).toEqual(sorted('other'));
    expect(await listIds('type=author', { headers: { 'x-cms-locale': 'fr' } })).toEqual(sorted('other'));
  });

  it('filters by exact path', async () => {
    expect(await listIds('type=post&path=posts/live')).toEqual(sorted('live', 'fr'));
    expect(await listIds('type=post&path=posts')).toEqual([]);
    expect(await listIds('type=post&draft=true&path=posts/draft')).toEqual(sorted('draftOnly'));
  });

  it('filters by slug: the published slug on published reads, the draft slug on draft reads', async () => {
    expect(await listIds('type=post&slug=changed')).toEqual(sorted('changed'));
    expect(await listIds('type=post&slug=changed-draft')).toEqual([]);
    expect(await listIds('type=post&draft=true&slug=changed-draft')).toEqual(sorted('changed'));
    expect(await listIds('type=post&slug=live&locale=fr')).toEqual(sorted('fr'));
  });

  it('rejects slug on a type without a slug field', async () => {
    const response = await list('type=category&slug=x');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty('slug');
  });

  it('combines filters', async () => {
    // The withdrawn post was published once, and its draft is ahead of what is live (nothing).
    expect(await listIds('type=post&draft=true&locale=en&published=true&hasUnpublishedChanges=true')).toEqual(
      sorted('changed', 'unpublished'),
    );
    expect(await listIds('type=post&draft=true&locale=en&published=false&hasUnpublishedChanges=true')).toEqual(
      sorted('draftOnly'),
    );
  });
});

describe('GET /content: malformed parameters', () => {
  it.each([
    ['an unknown parameter', 'type=post&tag=x', 'tag'],
    ['a repeated type', 'type=post&type=author', 'type'],
    ['a repeated filter', 'type=post&locale=en&locale=fr', 'locale'],
    ['published=1', 'type=post&published=1', 'published'],
    ['isDeleted=yes', 'type=post&isDeleted=yes', 'isDeleted'],
    ['hasUnpublishedChanges=TRUE', 'type=post&hasUnpublishedChanges=TRUE', 'hasUnpublishedChanges'],
    ['draft=0', 'type=post&draft=0', 'draft'],
    ['limit=0', 'type=post&limit=0', 'limit'],
    ['limit=101', 'type=post&limit=101', 'limit'],
    ['limit=abc', 'type=post&limit=abc', 'limit'],
    ['offset=-1', 'type=post&offset=-1', 'offset'],
    ['offset=1.5', 'type=post&offset=1.5', 'offset'],
    ['an unknown sort', 'type=post&sort=title', 'sort'],
    ['an unknown order', 'type=post&order=up', 'order'],
    ['an empty path', 'type=post&path=', 'path'],
    ['a malformed locale', 'type=post&locale=e!', 'locale'],
  ])('rejects %s with INVALID_QUERY_PARAM', async (_case, query, param) => {
    const response = await list(query);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty(param);
  });
});
