import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { countQueries, seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  const group = randomUUID();
  const [published, changed, draftOnly, unpublished, deleted, en, fr, deCh, settings] = await seedDocuments(t.db, [
    { type: 'author', path: 'authors/ada', published: { frontmatter: { name: 'Ada' }, body: 'live' } },
    {
      type: 'author',
      path: 'authors/grace',
      frontmatter: { name: 'Grace (draft)' },
      body: 'draft body',
      published: { frontmatter: { name: 'Grace' }, body: 'published body', version: 3 },
      hasUnpublishedChanges: true,
      draftRevision: 7,
    },
    { type: 'author', path: 'authors/new', frontmatter: { name: 'New' } },
    { type: 'author', path: 'authors/gone', frontmatter: { name: 'Withdrawn' }, unpublished: true },
    { type: 'author', path: 'authors/deleted', published: { frontmatter: { name: 'Del' } }, isDeleted: true },
    {
      type: 'post',
      path: 'posts/hello',
      locale: 'en',
      translationGroupId: group,
      published: { frontmatter: { title: 'Hello' } },
    },
    {
      type: 'post',
      path: 'posts/bonjour',
      locale: 'fr',
      translationGroupId: group,
      published: { frontmatter: { title: 'Bonjour' } },
    },
    {
      type: 'post',
      path: 'posts/gruezi',
      locale: 'de-CH',
      translationGroupId: group,
      frontmatter: { title: 'Grüezi' },
    },
    { type: 'author', path: 'authors/settings', published: { frontmatter: { name: 'Settings' } } },
  ]);
  Object.assign(ids, { published, changed, draftOnly, unpublished, deleted, en, fr, deCh, settings });
});
afterAll(() => t.close());

const get = (id: string, query = '', options: Parameters<TestServer['request']>[2] = {}) =>
  t.request('GET', `/api/v1/content/${id}${query}`, options);

describe('GET /content/{documentId}: published and draft', () => {
  it('answers the published content by default', async () => {
    const response = await get(ids.changed as string);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      documentId: ids.changed,
      project: 'default',
      environment: 'production',
      type: 'author',
      path: 'authors/grace',
      locale: '__cms_default__',
      frontmatter: { name: 'Grace' },
      body: 'published body',
      version: 3,
      publishedVersion: 3,
      hasUnpublishedChanges: true,
      draftRevision: 7,
      isDeleted: false,
      resolveErrors: {},
    });
    expect(response.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('answers the draft with draft=true', async () => {
    const response = await get(ids.changed as string, '?draft=true');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ frontmatter: { name: 'Grace (draft)' }, body: 'draft body' });
  });

  it('treats a never-published and an unpublished document as absent for published reads', async () => {
    for (const id of [ids.draftOnly, ids.unpublished] as string[]) {
      const published = await get(id);
      expect(published.status).toBe(404);
      expect(published.body.error.code).toBe('NOT_FOUND');
      const draft = await get(id, '?draft=true');
      expect(draft.status).toBe(200);
      expect(draft.body.data.publishedVersion).toBeNull();
    }
  });

  it('treats a soft-deleted document as absent, draft or not', async () => {
    expect((await get(ids.deleted as string)).status).toBe(404);
    expect((await get(ids.deleted as string, '?draft=true')).status).toBe(404);
  });

  it('answers NOT_FOUND for an unknown id, and for a document of another environment', async () => {
    expect((await get(randomUUID())).body.error.code).toBe('NOT_FOUND');
    await t.db.query(
      `insert into environments (id, project_id, name, is_default)
       select gen_random_uuid(), id, 'staging', false from projects where slug = 'default'`,
    );
    const other = await get(ids.published as string, '', { environment: 'staging' });
    expect(other.status).toBe(404);
  });

  it('rejects a malformed document id', async () => {
    const response = await get('not-a-uuid');
    expect(response.status).toBe(400);
  });

  it('needs content:read:draft for draft=true, content:read for any read', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await get(ids.published as string, '', { key: reader })).status).toBe(200);
    const draft = await get(ids.published as string, '?draft=true', { key: reader });
    expect(draft.status).toBe(403);
    expect(draft.body.error.code).toBe('FORBIDDEN');
    expect(draft.body.error.details.missing).toEqual(['content:read:draft']);
    const drafter = await t.createKey({ scopes: ['content:read:draft'] });
    expect((await get(ids.published as string, '?draft=true', { key: drafter })).status).toBe(403);
  });

  it('reads the document with one query, and again from memory with none', async () => {
    // A header no other test sends: an answer not yet in memory.
    const read = () => get(ids.published as string, '', { headers: { 'x-cms-locale': 'de' } });
    await get(ids.en as string);
    expect(await countQueries(t.db, read)).toBe(1);
    expect(await countQueries(t.db, read)).toBe(0);
  });
});

describe('GET /content/{documentId}: locale', () => {
  it('picks the variant of the translation group in the locale of the query', async () => {
    const response = await get(ids.en as string, '?locale=fr');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ documentId: ids.fr, locale: 'fr', frontmatter: { title: 'Bonjour' } });
  });

  it('takes X-CMS-Locale when the query has no locale, and the query wins over it', async () => {
    const header = await get(ids.en as string, '', { headers: { 'x-cms-locale': 'fr' } });
    expect(header.body.data.documentId).toBe(ids.fr);
    const both = await get(ids.fr as string, '?locale=en', { headers: { 'x-cms-locale': 'fr' } });
    expect(both.body.data.documentId).toBe(ids.en);
  });

  it('matches locales in canonical form', async () => {
    const response = await get(ids.en as string, '?locale=de-ch&draft=true');
    expect(response.body.data.documentId).toBe(ids.deCh);
  });

  it('answers NOT_FOUND when the group has no variant in that locale', async () => {
    const response = await get(ids.en as string, '?locale=it');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('applies the published rule to the chosen variant', async () => {
    expect((await get(ids.en as string, '?locale=de-CH')).status).toBe(404);
  });

  it('ignores the locale for a non-localized document, which has no variants', async () => {
    const header = await get(ids.settings as string, '', { headers: { 'x-cms-locale': 'fr' } });
    expect(header.body.data.documentId).toBe(ids.settings);
    const query = await get(ids.settings as string, '?locale=fr');
    expect(query.body.data.documentId).toBe(ids.settings);
  });

  it('treats an empty X-CMS-Locale as absent', async () => {
    const response = await get(ids.en as string, '', { headers: { 'x-cms-locale': '' } });
    expect(response.body.data.documentId).toBe(ids.en);
  });

  it('rejects a malformed locale in the query (INVALID_QUERY_PARAM) or the header (INVALID_INPUT)', async () => {
    const query = await get(ids.en as string, '?locale=not_a_locale!');
    expect(query.status).toBe(400);
    expect(query.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(query.body.error.details.fields).toHaveProperty('locale');
    const header = await get(ids.en as string, '', { headers: { 'x-cms-locale': 'x_y_z' } });
    expect(header.status).toBe(400);
    expect(header.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('GET /content/{documentId}: query parameters', () => {
  it.each([
    ['an unknown parameter', '?foo=bar', 'foo'],
    ['a repeated parameter', '?draft=true&draft=true', 'draft'],
    ['a boolean other than true/false', '?draft=1', 'draft'],
    ['an empty boolean', '?draft=', 'draft'],
  ])('rejects %s with INVALID_QUERY_PARAM', async (_case, query, param) => {
    const response = await get(ids.published as string, query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty(param);
  });

  it('accepts draft=false', async () => {
    expect((await get(ids.published as string, '?draft=false')).status).toBe(200);
  });
});
