/**
 * Byte fidelity (decisions.md §8): a document keeps the source text it was written with, answers it on
 * draft reads, and an edit through the API (an update, a restored version, a content migration)
 * rewrites only the lines of the keys it changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { hashHeader, syncSchema } from './fixtures.js';

let t: TestServer;
let hash: string;

beforeAll(async () => {
  t = await startTestServer();
  hash = await syncSchema(t);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const SOURCE = [
  '\uFEFF---',
  '# NOTE: do not edit by hand',
  "title: 'Hello' # greeting",
  'slug: hello',
  'tags: [ab, cd]',
  'status: draft',
  '---',
  'Body line\r',
  'no final newline',
].join('\n');

async function create(path: string, extra: Record<string, unknown> = {}) {
  const response = await t.request('POST', '/api/v1/content', {
    headers: hashHeader(hash),
    body: {
      type: 'post',
      path,
      frontmatter: { title: 'Hello', slug: 'hello', tags: ['ab', 'cd'], status: 'draft' },
      body: 'Body line\nno final newline',
      ...extra,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

describe('document source text', () => {
  it('keeps the text as written (BOM, comments, quoting, flow lists, line endings) and answers it on draft reads', async () => {
    const doc = await create('kept', { source: SOURCE });
    expect(doc.source).toBe(SOURCE);
    const read = await t.request('GET', `/api/v1/content/${doc.documentId}?draft=true`);
    expect(read.body.data.source).toBe(SOURCE);
    const list = await t.request('GET', '/api/v1/content?type=post&draft=true&path=kept');
    expect(list.body.data[0].source).toBe(SOURCE);
    // Published reads show published content only: no draft source.
    await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} });
    const published = await t.request('GET', `/api/v1/content/${doc.documentId}`);
    expect(published.status).toBe(200);
    expect(published.body.data.source).toBeUndefined();
  });

  it('patches only the changed key when the API edits the document, and the body in place', async () => {
    const doc = await create('edited', { source: SOURCE });
    const update = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(hash),
      body: { frontmatter: { ...doc.frontmatter, title: 'Changed' }, body: doc.body, draftRevision: 1 },
    });
    expect(update.status, update.text).toBe(200);
    expect(update.body.data.source).toBe(SOURCE.replace("title: 'Hello' # greeting", "title: 'Changed' # greeting"));
    const body = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(hash),
      body: { frontmatter: update.body.data.frontmatter, body: 'New body\n', draftRevision: 2 },
    });
    expect(body.body.data.source).toBe(
      `${SOURCE.slice(0, SOURCE.indexOf('Body line'))}New body\n`.replace("'Hello'", "'Changed'"),
    );
  });

  it('writes defaults the server adds into the kept source, after the keys as written', async () => {
    const source = '---\nslug: hello # mine\ntitle: Hi\n---\n';
    const response = await t.request('POST', '/api/v1/content', {
      headers: hashHeader(hash),
      body: { type: 'post', path: 'defaults', frontmatter: { title: 'Hi', slug: 'hello' }, body: '', source },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.frontmatter).toMatchObject({ tags: [], status: 'draft' });
    expect(response.body.data.source.startsWith('---\nslug: hello # mine\ntitle: Hi\n')).toBe(true);
    expect(response.body.data.source).toMatch(/tags: \[\]\nstatus: draft\n---\n$/);
  });

  it('keeps no source for a document created without one (the canonical rendering applies)', async () => {
    const doc = await create('plain');
    expect(doc.source).toBeUndefined();
    const update = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(hash),
      body: { frontmatter: { ...doc.frontmatter, title: 'Still none' }, body: doc.body, draftRevision: 1 },
    });
    expect(update.body.data.source).toBeUndefined();
  });

  it('patches the kept source when a version is restored: only the lines of the restored keys change', async () => {
    const doc = await create('restored', { source: SOURCE });
    expect((await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} })).status).toBe(200);
    const edited = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(hash),
      body: { frontmatter: { ...doc.frontmatter, title: 'Edited', tags: ['ab'] }, body: doc.body, draftRevision: 1 },
    });
    expect(edited.body.data.source).toBe(
      SOURCE.replace("'Hello' # greeting", "'Edited' # greeting").replace('[ab, cd]', '[ab]'),
    );
    const restore = await t.request('POST', `/api/v1/content/${doc.documentId}/versions/1/restore`);
    expect(restore.status, restore.text).toBe(200);
    const read = await t.request('GET', `/api/v1/content/${doc.documentId}?draft=true`);
    expect(read.body.data.frontmatter.title).toBe('Hello');
    expect(read.body.data.source).toBe(SOURCE);
  });

  it('patches the kept source of every document a content migration changes', async () => {
    const doc = await create('migrated', { source: SOURCE });
    const migration = await t.request('POST', '/api/v1/content/migrations', {
      body: { name: 'status-to-review', type: 'post', operations: [{ op: 'set', field: 'status', value: 'review' }] },
    });
    expect(migration.status, migration.text).toBe(200);
    const read = await t.request('GET', `/api/v1/content/${doc.documentId}?draft=true`);
    expect(read.body.data.frontmatter.status).toBe('review');
    expect(read.body.data.source).toBe(SOURCE.replace('status: draft', 'status: review'));
  });

  it('refuses a source longer than the limit with the field named', async () => {
    const response = await t.request('POST', '/api/v1/content', {
      headers: hashHeader(hash),
      body: { type: 'post', path: 'huge', frontmatter: { title: 'x', slug: 'x' }, source: 'x'.repeat(6_000_001) },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe('a published read of a draft-only document', () => {
  it('is NOT_FOUND saying that a draft exists, and an unknown id says nothing of the kind', async () => {
    const doc = await create('draft-only');
    const read = await t.request('GET', `/api/v1/content/${doc.documentId}`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('NOT_FOUND');
    expect(read.body.error.details).toEqual({ draft: true, published: false });
    expect(read.body.error.message).toContain('draft=true');
    const unknown = await t.request('GET', '/api/v1/content/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details).toEqual({});
  });
});
