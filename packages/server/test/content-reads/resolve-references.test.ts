import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { countQueries, seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const ids: Record<string, string> = {};
const ghost = randomUUID();

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  const [mentor, ada, draftAuthor, deletedAuthor, category, relatedPost] = await seedDocuments(t.db, [
    { type: 'author', path: 'authors/mentor', published: { frontmatter: { name: 'Mentor' } } },
    { type: 'author', path: 'authors/ada', published: { frontmatter: { name: 'Ada' } } },
    { type: 'author', path: 'authors/draft', frontmatter: { name: 'Draft author' } },
    { type: 'author', path: 'authors/deleted', published: { frontmatter: { name: 'Gone' } }, isDeleted: true },
    { type: 'category', path: 'categories/news', published: { frontmatter: { name: 'News' } } },
    { type: 'post', path: 'posts/related', locale: 'en', published: { frontmatter: { title: 'Related' } } },
  ]);
  Object.assign(ids, { mentor, ada, draftAuthor, deletedAuthor, category, relatedPost });
  // Ada's draft names a mentor; her published frontmatter too, so depth shows on both reads.
  await t.db.query(
    `update documents set draft_frontmatter = $2, published_frontmatter = $3, has_unpublished_changes = true
     where id = $1`,
    [ada, { name: 'Ada (draft)', mentor }, { name: 'Ada', mentor }],
  );
  const frontmatter = {
    title: 'Hello',
    author: ada,
    editor: draftAuthor,
    category: ada,
    related: [relatedPost, ghost, deletedAuthor],
    seo: { title: 'SEO', author: ada },
    blocks: [{ author: ada }, { author: deletedAuthor }],
  };
  const [post] = await seedDocuments(t.db, [
    { type: 'post', path: 'posts/hello', locale: 'en', frontmatter, published: { frontmatter } },
  ]);
  ids.post = post as string;
});
afterAll(() => t.close());

const get = (query: string, key?: string) =>
  t.request('GET', `/api/v1/content/${ids.post}?${query}`, key ? { key } : {});

describe('resolve on GET /content/{documentId}', () => {
  it('leaves reference fields as id strings without resolve', async () => {
    const response = await get('');
    expect(response.body.data.frontmatter.author).toBe(ids.ada);
    expect(response.body.data.resolveErrors).toEqual({});
  });

  it('replaces a reference by { documentId, type, path, frontmatter }, one level deep', async () => {
    const response = await get('resolve=author');
    expect(response.status).toBe(200);
    expect(response.body.data.frontmatter.author).toEqual({
      documentId: ids.ada,
      type: 'author',
      path: 'authors/ada',
      frontmatter: { name: 'Ada', mentor: ids.mentor },
    });
    // Only the named field is resolved.
    expect(response.body.data.frontmatter.seo.author).toBe(ids.ada);
    expect(response.body.data.resolveErrors).toEqual({});
  });

  it('shows the published frontmatter of the target on published reads, its draft on draft reads', async () => {
    const draft = await get('resolve=author&draft=true');
    expect(draft.body.data.frontmatter.author.frontmatter).toEqual({ name: 'Ada (draft)', mentor: ids.mentor });
  });

  it('resolves a reference inside a nested object with dot notation', async () => {
    const response = await get('resolve=seo.author');
    expect(response.body.data.frontmatter.seo).toEqual({
      title: 'SEO',
      author: expect.objectContaining({ documentId: ids.ada, type: 'author' }),
    });
  });

  it('resolves each entry of an array of references, keying errors by index', async () => {
    const response = await get('resolve=related');
    const { related } = response.body.data.frontmatter;
    expect(related[0]).toMatchObject({ documentId: ids.relatedPost, type: 'post', frontmatter: { title: 'Related' } });
    expect(related[1]).toBeNull();
    expect(related[2]).toBeNull();
    expect(response.body.data.resolveErrors).toEqual({
      'frontmatter.related[1]': {
        code: 'REFERENCE_NOT_FOUND',
        message: expect.any(String),
        ref: { documentId: ghost, type: 'post' },
      },
      'frontmatter.related[2]': {
        code: 'REFERENCE_DELETED',
        message: expect.any(String),
        ref: { documentId: ids.deletedAuthor, type: 'post' },
      },
    });
  });

  it('resolves references inside arrays of objects', async () => {
    const response = await get('resolve=blocks.author');
    const { blocks } = response.body.data.frontmatter;
    expect(blocks[0].author).toMatchObject({ documentId: ids.ada });
    expect(blocks[1].author).toBeNull();
    expect(response.body.data.resolveErrors['frontmatter.blocks[1].author'].code).toBe('REFERENCE_DELETED');
  });

  it('reports a target of another type as REFERENCE_TYPE_MISMATCH', async () => {
    const response = await get('resolve=category');
    expect(response.body.data.frontmatter.category).toBeNull();
    expect(response.body.data.resolveErrors['frontmatter.category']).toEqual({
      code: 'REFERENCE_TYPE_MISMATCH',
      message: expect.stringContaining('"author"'),
      ref: { documentId: ids.ada, type: 'category' },
    });
  });

  it('reports a never-published target as REFERENCE_FORBIDDEN on published reads, resolves it on draft reads', async () => {
    const published = await get('resolve=editor');
    expect(published.body.data.frontmatter.editor).toBeNull();
    expect(published.body.data.resolveErrors['frontmatter.editor']).toMatchObject({
      code: 'REFERENCE_FORBIDDEN',
      ref: { documentId: ids.draftAuthor, type: 'author' },
    });
    const draft = await get('resolve=editor&draft=true');
    expect(draft.body.data.frontmatter.editor).toMatchObject({ frontmatter: { name: 'Draft author' } });
    expect(draft.body.data.resolveErrors).toEqual({});
  });

  it('leaves values that are not document ids alone (content stored before a schema change)', async () => {
    const frontmatter = {
      title: 'Legacy',
      author: 'Ada Lovelace',
      related: [42, { id: ids.ada }, 'not-a-uuid', ids.relatedPost],
      seo: 'a string where an object is expected now',
      blocks: { author: ids.ada },
    };
    const [legacy] = await seedDocuments(t.db, [
      { type: 'post', path: 'zz/legacy', locale: 'fr', frontmatter, published: { frontmatter } },
    ]);
    const response = await t.request(
      'GET',
      `/api/v1/content/${legacy}?resolve=author&resolve=related&resolve=seo.author&resolve=blocks.author`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data.frontmatter.author).toBe('Ada Lovelace');
    expect(response.body.data.frontmatter.related).toEqual([
      42,
      { id: ids.ada },
      'not-a-uuid',
      expect.objectContaining({ documentId: ids.relatedPost, type: 'post' }),
    ]);
    expect(response.body.data.frontmatter.seo).toBe('a string where an object is expected now');
    expect(response.body.data.frontmatter.blocks).toEqual({ author: ids.ada });
    expect(response.body.data.resolveErrors).toEqual({});
  });

  it('reads the document and every field it resolves in one statement', async () => {
    await get('resolve=author');
    const query = 'resolve=author&resolve=seo.author&resolve=related&resolve=blocks.author&resolve=category';
    let response: Awaited<ReturnType<typeof get>> | undefined;
    const queries = await countQueries(t.db, async () => {
      response = await get(query);
    });
    expect(response?.status).toBe(200);
    expect(queries).toBe(1);
    expect(Object.keys(response?.body.data.resolveErrors).sort()).toEqual([
      'frontmatter.blocks[1].author',
      'frontmatter.category',
      'frontmatter.related[1]',
      'frontmatter.related[2]',
    ]);
  });

  it.each([
    ['a non-reference field', 'resolve=title'],
    ['an unknown field', 'resolve=nope'],
    ['an object holding a reference', 'resolve=seo'],
    ['a malformed path', 'resolve=seo..author'],
    ['one bad path among good ones', 'resolve=author&resolve=title'],
  ])('rejects %s with INVALID_QUERY_PARAM', async (_case, query) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
  });
});

describe('resolve is checked before the read, on get and list alike', () => {
  it('answers INVALID_QUERY_PARAM, not NOT_FOUND, for a bad resolve on a missing document', async () => {
    const response = await t.request('GET', `/api/v1/content/${randomUUID()}?resolve=nope`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty('resolve');
  });

  it('answers INVALID_QUERY_PARAM for a bad resolve on a list that matches nothing', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post&path=no/such/path&resolve=nope');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty('resolve');
  });

  it('still answers NOT_FOUND for a missing document with a valid resolve', async () => {
    const response = await t.request('GET', `/api/v1/content/${randomUUID()}?resolve=author`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });
});

describe('resolve on GET /content', () => {
  it('resolves the references of every listed document', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post&resolve=author&resolve=related&sort=path');
    expect(response.status).toBe(200);
    const [hello, related] = response.body.data;
    expect(hello.frontmatter.author).toMatchObject({ documentId: ids.ada, path: 'authors/ada' });
    expect(hello.resolveErrors).toHaveProperty(['frontmatter.related[1]']);
    expect(related.frontmatter).toEqual({ title: 'Related' });
    expect(related.resolveErrors).toEqual({});
  });

  it('rejects a resolve path that is not a reference field of the type', async () => {
    const response = await t.request('GET', '/api/v1/content?type=author&resolve=name');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(response.body.error.details.fields).toHaveProperty('resolve');
  });

  it('reads a page of 20 documents with 3 references each in one statement, whatever the page size', async () => {
    const authors = await seedDocuments(
      t.db,
      Array.from({ length: 30 }, (_, n) => ({
        type: 'author',
        path: `bulk/author-${n}`,
        published: { frontmatter: { name: `Bulk ${n}` } },
      })),
    );
    await seedDocuments(
      t.db,
      Array.from({ length: 20 }, (_, n) => {
        const frontmatter = {
          title: `Bulk ${n}`,
          author: authors[n],
          editor: authors[n + 1],
          seo: { author: authors[n + 2] },
        };
        return { type: 'post', path: `bulk/post-${n}`, locale: 'de', frontmatter, published: { frontmatter } };
      }),
    );
    const url = (limit: number) =>
      `/api/v1/content?type=post&locale=de&limit=${limit}&resolve=author&resolve=editor&resolve=seo.author`;
    // Warms the schema and key caches with another page (a page read twice comes from memory).
    await t.request('GET', url(2));
    const counts: number[] = [];
    for (const limit of [1, 5, 20]) {
      counts.push(
        await countQueries(t.db, async () => {
          const response = await t.request('GET', url(limit));
          expect(response.body.data).toHaveLength(limit);
          for (const doc of response.body.data) {
            expect(doc.frontmatter.author.type).toBe('author');
            expect(doc.frontmatter.seo.author.type).toBe('author');
          }
        }),
      );
    }
    // The page, its total and the referenced documents: one statement at any size.
    expect(counts).toEqual([1, 1, 1]);
  });
});
