import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { addEnvironment, seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await addEnvironment(t.db, 'staging');
  await seedSchema(t.db);
  await seedSchema(t.db, undefined, 'staging');
  const [ada, grace, news] = await seedDocuments(t.db, [
    { type: 'author', path: 'authors/ada', published: { frontmatter: { name: 'Ada' } } },
    { type: 'author', path: 'authors/grace', frontmatter: { name: 'Grace' } },
    { type: 'category', path: 'categories/news', frontmatter: { name: 'News' } },
  ]);
  Object.assign(ids, { ada, grace, news });
  const [byField, inArrayOfObjects, nested, publishedOnly, draftOnly, deleted, wrongField, mentee] =
    await seedDocuments(t.db, [
      { type: 'post', path: 'posts/a-by-field', locale: 'en', frontmatter: { title: 'By field', author: ada } },
      {
        type: 'post',
        path: 'posts/b-blocks',
        locale: 'en',
        frontmatter: { title: 'Blocks', blocks: [{ author: grace }, { author: ada }], editor: ada },
      },
      { type: 'post', path: 'posts/c-seo', locale: 'de', frontmatter: { seo: { author: ada } } },
      {
        type: 'post',
        path: 'posts/d-published',
        locale: 'en',
        frontmatter: { title: 'Moved on' },
        published: { frontmatter: { title: 'Moved on', author: ada } },
        hasUnpublishedChanges: true,
      },
      {
        type: 'post',
        path: 'posts/e-draft',
        locale: 'en',
        frontmatter: { title: 'New', author: ada },
        published: { frontmatter: { title: 'New' } },
        hasUnpublishedChanges: true,
      },
      { type: 'post', path: 'posts/f-deleted', locale: 'en', frontmatter: { author: ada }, isDeleted: true },
      // `category` aims at categories: an author's id there is not a reference to that author.
      { type: 'post', path: 'posts/g-wrong', locale: 'en', frontmatter: { category: ada } },
      { type: 'author', path: 'authors/mentee', frontmatter: { name: 'Mentee', mentor: ada } },
    ]);
  Object.assign(ids, { byField, inArrayOfObjects, nested, publishedOnly, draftOnly, deleted, wrongField, mentee });
  // The same id in another environment's document is that environment's business.
  await seedDocuments(t.db, [
    { type: 'post', path: 'posts/staging', locale: 'en', frontmatter: { author: ada }, environment: 'staging' },
  ]);
  // A document pointing at itself is not a referrer of itself.
  await t.db.query('update documents set draft_frontmatter = $2 where id = $1', [ada, { name: 'Ada', mentor: ada }]);
});
afterAll(() => t.close());

const referrers = (id: string, query = '', options: { key?: string | null; environment?: string } = {}) =>
  t.request('GET', `/api/v1/content/${id}/referrers${query}`, options);

describe('GET /content/{documentId}/referrers', () => {
  it('lists the live documents whose reference fields hold the id, by path, with the fields that do', async () => {
    const response = await referrers(ids.ada as string);
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ total: 6, limit: 20, offset: 0, hasMore: false });
    expect(response.body.data).toEqual([
      {
        documentId: ids.mentee,
        type: 'author',
        path: 'authors/mentee',
        locale: '__cms_default__',
        title: null,
        fields: ['mentor'],
        inDraft: true,
        inPublished: false,
      },
      {
        documentId: ids.byField,
        type: 'post',
        path: 'posts/a-by-field',
        locale: 'en',
        title: 'By field',
        fields: ['author'],
        inDraft: true,
        inPublished: false,
      },
      expect.objectContaining({ path: 'posts/b-blocks', fields: ['editor', 'blocks.author'], title: 'Blocks' }),
      expect.objectContaining({ path: 'posts/c-seo', locale: 'de', fields: ['seo.author'] }),
      expect.objectContaining({ path: 'posts/d-published', fields: ['author'], inDraft: false, inPublished: true }),
      expect.objectContaining({ path: 'posts/e-draft', fields: ['author'], inDraft: true, inPublished: false }),
    ]);
  });

  it('answers an empty page for a document nobody points at, and for a type no field aims at', async () => {
    const news = await referrers(ids.news as string);
    expect(news.status).toBe(200);
    expect(news.body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
    const post = await referrers(ids.byField as string);
    expect(post.body.data).toEqual([]);
  });

  it('finds a reference in an array of objects', async () => {
    const response = await referrers(ids.grace as string);
    expect(response.body.data.map((r: { path: string }) => r.path)).toEqual(['posts/b-blocks']);
    expect(response.body.data[0].fields).toEqual(['blocks.author']);
  });

  it('pages with limit and offset, keeping the total, also past the last page', async () => {
    const first = await referrers(ids.ada as string, '?limit=2');
    expect(first.body.data.map((r: { path: string }) => r.path)).toEqual(['authors/mentee', 'posts/a-by-field']);
    expect(first.body.pagination).toEqual({ total: 6, limit: 2, offset: 0, hasMore: true });
    const last = await referrers(ids.ada as string, '?limit=2&offset=4');
    expect(last.body.data.map((r: { path: string }) => r.path)).toEqual(['posts/d-published', 'posts/e-draft']);
    expect(last.body.pagination.hasMore).toBe(false);
    const beyond = await referrers(ids.ada as string, '?limit=2&offset=50');
    expect(beyond.body).toEqual({ data: [], pagination: { total: 6, limit: 2, offset: 50, hasMore: false } });
  });

  it('lists the referrers of a deleted document (what its deletion left dangling)', async () => {
    await t.db.query('update documents set is_deleted = true, deleted_at = now() where id = $1', [ids.grace]);
    try {
      const response = await referrers(ids.grace as string);
      expect(response.status).toBe(200);
      expect(response.body.pagination.total).toBe(1);
    } finally {
      await t.db.query('update documents set is_deleted = false, deleted_at = null where id = $1', [ids.grace]);
    }
  });

  it('is NOT_FOUND for an unknown id and for a document of another environment', async () => {
    const unknown = await referrers(randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const elsewhere = await referrers(ids.ada as string, '', { environment: 'staging' });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('NOT_FOUND');
  });

  it('rejects a malformed id and unknown or out-of-range query parameters with 400', async () => {
    const badId = await referrers('not-a-uuid');
    expect(badId.status).toBe(400);
    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?sort=path', '?limit=abc']) {
      const response = await referrers(ids.ada as string, query);
      expect(response.status, query).toBe(400);
    }
  });

  it('needs content:read:draft (drafts count as referrers)', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    const response = await referrers(ids.ada as string, '', { key: reader });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
    const anonymous = await referrers(ids.ada as string, '', { key: null });
    expect(anonymous.status).toBe(401);
  });

  it('answers from the frontmatter indexes (migration 0056), not a scan of every document', async () => {
    // Enough documents in the environment for the planner to prefer the containment indexes (none points at Ada).
    await t.db.query(
      `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
         draft_frontmatter, created_by, updated_by)
       select gen_random_uuid(), e.project_id, e.id, gen_random_uuid(), 'post', 'posts/bulk-' || n, 'en', 'md',
         jsonb_build_object('title', 'Bulk ' || n, 'author', gen_random_uuid()), 'test', 'test'
       from environments e, generate_series(1, 3000) n
       where e.name = 'production'`,
    );
    await t.db.query('analyze documents');
    const scope = await t.db.query<{ projectId: string; environmentId: string }>(
      `select project_id as "projectId", id as "environmentId" from environments where name = 'production'`,
    );
    const { projectId, environmentId } = scope.rows[0] as { projectId: string; environmentId: string };
    const explained = await t.db.query<{ 'QUERY PLAN': string }>(
      `explain select d.id from documents d
       where d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
         and ((d.type = 'post' and d.draft_frontmatter @> $3::jsonb)
           or (d.type = 'post' and d.published_version is not null and d.published_frontmatter @> $3::jsonb))`,
      [projectId, environmentId, JSON.stringify({ author: ids.ada })],
    );
    const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('documents_draft_frontmatter_values');
    expect(plan).toContain('documents_published_frontmatter_values');
  });
});
