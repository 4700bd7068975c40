import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { addEnvironment, seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  await addEnvironment(t.db, 'staging');
  const group = randomUUID();
  const [en, fr, deletedDe, author] = await seedDocuments(t.db, [
    { type: 'post', path: 'posts/hello', locale: 'en', translationGroupId: group, published: { frontmatter: {} } },
    { type: 'post', path: 'posts/bonjour', locale: 'fr', translationGroupId: group, frontmatter: {} },
    { type: 'post', path: 'posts/hallo', locale: 'de', translationGroupId: group, isDeleted: true },
    // Authors: published, published with changes, draft-only, unpublished, deleted (published).
    { type: 'author', path: 'authors/a', published: { frontmatter: {} } },
    {
      type: 'author',
      path: 'authors/b',
      published: { frontmatter: {}, version: 2 },
      hasUnpublishedChanges: true,
    },
    { type: 'author', path: 'authors/c' },
    { type: 'author', path: 'authors/d', unpublished: true },
    { type: 'author', path: 'authors/e', published: { frontmatter: {} }, isDeleted: true },
    // Another environment and a type no longer in the schema do not count.
    { type: 'author', path: 'authors/x', environment: 'staging' },
    { type: 'legacy', path: 'legacy/x' },
  ]);
  Object.assign(ids, { en, fr, deletedDe, author });
});
afterAll(() => t.close());

describe('GET /content/overview', () => {
  it('counts every type of the schema, zero counts included, in schema order', async () => {
    const response = await t.request('GET', '/api/v1/content/overview');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      counts: [
        { type: 'author', total: 4, published: 2, draft: 3, deleted: 1 },
        { type: 'post', total: 2, published: 1, draft: 1, deleted: 1 },
        { type: 'category', total: 0, published: 0, draft: 0, deleted: 0 },
      ],
    });
  });

  it('counts only the requested types, in the order asked', async () => {
    const response = await t.request('GET', '/api/v1/content/overview?type=category&type=post');
    expect(response.body.data.counts.map((c: { type: string }) => c.type)).toEqual(['category', 'post']);
    const one = await t.request('GET', '/api/v1/content/overview?type=author');
    expect(one.body.data.counts).toEqual([{ type: 'author', total: 4, published: 2, draft: 3, deleted: 1 }]);
  });

  it('answers SCHEMA_NOT_FOUND for a type the schema does not have', async () => {
    const response = await t.request('GET', '/api/v1/content/overview?type=author&type=legacy');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('SCHEMA_NOT_FOUND');
  });

  it('answers no counts in an environment without a schema', async () => {
    const response = await t.request('GET', '/api/v1/content/overview', { environment: 'staging' });
    expect(response.body.data).toEqual({ counts: [] });
  });

  it('is not captured by GET /content/{documentId}, and rejects unknown parameters', async () => {
    const response = await t.request('GET', '/api/v1/content/overview?draft=true');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
  });

  it('needs content:read', async () => {
    const key = await t.createKey({ scopes: ['schema:read'] });
    expect((await t.request('GET', '/api/v1/content/overview', { key })).status).toBe(403);
    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await t.request('GET', '/api/v1/content/overview', { key: reader })).status).toBe(200);
  });
});

describe('GET /content/digest', () => {
  it('lists every live document of the schema with its revisions and no content, by type, path and locale', async () => {
    const response = await t.request('GET', '/api/v1/content/digest');
    expect(response.status).toBe(200);
    const documents = response.body.data.documents as Array<Record<string, unknown>>;
    // Live only, this environment only, types of the schema only (no staging, deleted or legacy rows).
    expect(documents.map((d) => `${d.type} ${d.path} ${d.locale}`)).toEqual([
      'author authors/a __cms_default__',
      'author authors/b __cms_default__',
      'author authors/c __cms_default__',
      'author authors/d __cms_default__',
      'post posts/bonjour fr',
      'post posts/hello en',
    ]);
    expect(documents[5]).toEqual({
      documentId: ids.en,
      translationGroupId: expect.any(String),
      type: 'post',
      path: 'posts/hello',
      locale: 'en',
      format: 'md',
      draftRevision: expect.any(Number),
      version: 1,
      publishedVersion: 1,
      hasUnpublishedChanges: false,
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('lists only the requested types, and refuses a type the schema does not have', async () => {
    const posts = await t.request('GET', '/api/v1/content/digest?type=post');
    expect(posts.body.data.documents.map((d: { type: string }) => d.type)).toEqual(['post', 'post']);
    const legacy = await t.request('GET', '/api/v1/content/digest?type=legacy');
    expect(legacy.status).toBe(404);
    expect(legacy.body.error.code).toBe('SCHEMA_NOT_FOUND');
    const empty = await t.request('GET', '/api/v1/content/digest', { environment: 'staging' });
    expect(empty.body.data).toEqual({ documents: [] });
  });

  it('needs content:read:draft, and refuses a preview token', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await t.request('GET', '/api/v1/content/digest', { key: reader })).status).toBe(403);
    const drafts = await t.createKey({ scopes: ['content:read', 'content:read:draft'] });
    expect((await t.request('GET', '/api/v1/content/digest', { key: drafts })).status).toBe(200);
    const issued = await t.request('POST', `/api/v1/content/${ids.fr}/preview-token`);
    const preview = await sendRequest(t.url, null, 'GET', '/api/v1/content/digest', {
      headers: { authorization: `Preview ${issued.body.data.token}` },
    });
    expect(preview.status).toBe(403);
  });
});

describe('GET /content/{documentId}/variants', () => {
  const expectedVariants = () => [
    {
      documentId: ids.en,
      locale: 'en',
      path: 'posts/hello',
      version: 1,
      publishedVersion: 1,
      hasUnpublishedChanges: false,
      updatedAt: expect.stringMatching(/Z$/),
    },
    {
      documentId: ids.fr,
      locale: 'fr',
      path: 'posts/bonjour',
      version: 0,
      publishedVersion: null,
      hasUnpublishedChanges: true,
      updatedAt: expect.stringMatching(/Z$/),
    },
  ];

  it('lists the live variants of the group from any variant id, by locale', async () => {
    for (const id of [ids.en, ids.fr]) {
      const response = await t.request('GET', `/api/v1/content/${id}/variants`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(expectedVariants());
    }
  });

  it('lists one __cms_default__ entry for a non-localized document', async () => {
    const response = await t.request('GET', `/api/v1/content/${ids.author}/variants`);
    expect(response.body.data).toEqual([
      expect.objectContaining({ documentId: ids.author, locale: '__cms_default__', path: 'authors/a' }),
    ]);
  });

  it('answers NOT_FOUND for a deleted variant id or an unknown id', async () => {
    expect((await t.request('GET', `/api/v1/content/${ids.deletedDe}/variants`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/content/${randomUUID()}/variants`)).status).toBe(404);
  });

  it('rejects query parameters', async () => {
    const response = await t.request('GET', `/api/v1/content/${ids.en}/variants?locale=en`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
  });
});
