import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createAuthor,
  createDocument,
  createDocumentRequest,
  hashHeader,
  postFrontmatter,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

async function createPost(frontmatter: Record<string, unknown>) {
  return createDocumentRequest(t, { type: 'post', path: uniquePath(), frontmatter });
}

async function fieldErrors(frontmatter: Record<string, unknown>): Promise<Record<string, string>> {
  const response = await createPost(frontmatter);
  expect(response.status, response.text).toBe(400);
  expect(response.body.error.code).toBe('INVALID_INPUT');
  return response.body.error.details.fields;
}

describe('frontmatter validation on create', () => {
  it.each([
    ['required string missing', { slug: 'a' }, 'frontmatter.title', /required|missing/i],
    ['string of the wrong kind', postFrontmatter({ title: 42 }), 'frontmatter.title', /string/],
    ['string check min', postFrontmatter({ title: '' }), 'frontmatter.title', /at least 1/],
    ['string check max', postFrontmatter({ title: 'x'.repeat(121) }), 'frontmatter.title', /at most 120/],
    ['regex check', postFrontmatter({ slug: 'Not A Slug' }), 'frontmatter.slug', /pattern/],
    ['number kind', postFrontmatter({ readingMinutes: '5' }), 'frontmatter.readingMinutes', /number/],
    [
      'number check min',
      postFrontmatter({ readingMinutes: -1 }),
      'frontmatter.readingMinutes',
      /greater than or equal to 0/,
    ],
    ['boolean kind', postFrontmatter({ seo: { noindex: 'yes' } }), 'frontmatter.seo.noindex', /true or false/],
    ['object kind', postFrontmatter({ seo: 'text' }), 'frontmatter.seo', /object/],
    [
      'nested object check',
      postFrontmatter({ seo: { description: 'x'.repeat(161) } }),
      'frontmatter.seo.description',
      /at most 160/,
    ],
    ['enum value', postFrontmatter({ status: 'archived' }), 'frontmatter.status', /one of/],
    ['date kind', postFrontmatter({ publishedOn: '2024-02-30' }), 'frontmatter.publishedOn', /date/],
    ['array kind', postFrontmatter({ tags: 'one' }), 'frontmatter.tags', /array/],
    [
      'array check max items',
      postFrontmatter({ tags: ['aa', 'bb', 'cc', 'dd', 'ee', 'ff'] }),
      'frontmatter.tags',
      /at most 5 items/,
    ],
    ['array item check', postFrontmatter({ tags: ['ok', 'x'] }), 'frontmatter.tags[1]', /at least 2/],
    ['array item null', postFrontmatter({ tags: ['ok', null] }), 'frontmatter.tags[1]', /null/],
    ['reference not a uuid', postFrontmatter({ author: 'ada' }), 'frontmatter.author', /UUID/],
    ['non-nullable null', postFrontmatter({ title: null }), 'frontmatter.title', /./],
  ])('%s', async (_name, frontmatter, path, message) => {
    const fields = await fieldErrors(frontmatter);
    expect(fields[path]).toMatch(message);
  });

  it('checks url and email fields', async () => {
    const response = await createDocumentRequest(t, {
      type: 'author',
      path: uniquePath('authors/a'),
      frontmatter: { name: 'Ada', email: 'not-mail', website: 'javascript:alert(1)' },
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.details.fields).sort()).toEqual([
      'frontmatter.email',
      'frontmatter.website',
    ]);
    const ok = await createDocument(t, {
      type: 'author',
      path: uniquePath('authors/a'),
      frontmatter: { name: 'Ada', email: null, website: 'https://ada.example' },
    });
    expect(ok.frontmatter).toEqual({ name: 'Ada', email: null, website: 'https://ada.example' });
  });

  it('accepts every kind with valid values and applies nested defaults', async () => {
    const author = await createAuthor(t);
    const related = await createDocument(t);
    const doc = await createDocument(t, {
      frontmatter: postFrontmatter({
        tags: ['news', 'tech'],
        author: author.toUpperCase(),
        related: [related.documentId],
        seo: { description: 'Short' },
        status: 'final',
        publishedOn: '2024-05-01',
        readingMinutes: 4.5,
      }),
    });
    expect(doc.frontmatter).toEqual({
      title: 'Hello world',
      slug: 'hello-world',
      tags: ['news', 'tech'],
      author,
      related: [related.documentId],
      seo: { description: 'Short', noindex: false },
      status: 'final',
      publishedOn: '2024-05-01',
      readingMinutes: 4.5,
    });
  });

  it('reports every error at once, keyed by frontmatter path', async () => {
    const fields = await fieldErrors({ slug: 'BAD', status: 'nope', tags: [1] });
    expect(Object.keys(fields).sort()).toEqual([
      'frontmatter.slug',
      'frontmatter.status',
      'frontmatter.tags[0]',
      'frontmatter.title',
    ]);
  });
});

describe('references on write', () => {
  it('refuses a reference to a document that does not exist in this environment', async () => {
    const fields = await fieldErrors(postFrontmatter({ author: '00000000-0000-4000-8000-000000000001' }));
    expect(fields['frontmatter.author']).toMatch(/does not exist/);
  });

  it('refuses a reference to a deleted document', async () => {
    const author = await createAuthor(t);
    await t.request('DELETE', `/api/v1/content/${author}`);
    const fields = await fieldErrors(postFrontmatter({ author }));
    expect(fields['frontmatter.author']).toMatch(/deleted/);
  });

  it('refuses a reference to a document of another type', async () => {
    const post = await createDocument(t);
    const fields = await fieldErrors(postFrontmatter({ author: post.documentId }));
    expect(fields['frontmatter.author']).toMatch(/"post" document/);
  });

  it('checks each array entry independently', async () => {
    const good = await createDocument(t);
    const author = await createAuthor(t);
    const fields = await fieldErrors(
      postFrontmatter({ related: [good.documentId, author, '00000000-0000-4000-8000-000000000002', good.documentId] }),
    );
    expect(Object.keys(fields).sort()).toEqual(['frontmatter.related[1]', 'frontmatter.related[2]']);
  });

  it('accepts null for a nullable reference', async () => {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ author: null }) });
    expect(doc.frontmatter.author).toBeNull();
  });

  it('validates frontmatter and references on update too', async () => {
    const doc = await createDocument(t);
    const update = (frontmatter: Record<string, unknown>) =>
      t.request('PUT', `/api/v1/content/${doc.documentId}`, {
        headers: hashHeader(),
        body: { frontmatter, body: '', draftRevision: doc.draftRevision },
      });
    const invalid = await update({ slug: 'x' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.fields).toHaveProperty(['frontmatter.title']);
    const dangling = await update(postFrontmatter({ author: '00000000-0000-4000-8000-000000000003' }));
    expect(dangling.status).toBe(400);
    expect(dangling.body.error.details.fields).toHaveProperty(['frontmatter.author']);
    const self = await update(postFrontmatter({ related: [doc.documentId] }));
    expect(self.status).toBe(200);
    expect(self.body.data.draftRevision).toBe(2);
  });
});
