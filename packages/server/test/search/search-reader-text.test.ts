/**
 * Search finds and shows what a reader sees: reference ids in frontmatter are neither matched nor shown,
 * and the vectors the queries use are the indexed ones (migration 0016).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_VECTOR, PUBLISHED_VECTOR } from '../../src/storage/repositories/search.repository.js';
import { seedDocuments, seedSchema } from '../content-reads/read-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
let t: TestServer;
let author: string;
let posts: string[];

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  [author] = (await seedDocuments(t.db, [
    { type: 'author', path: 'authors/ada', published: { frontmatter: { name: 'Ada Lovelace', slug: 'ada' } } },
  ])) as [string];
  const frontmatter = (title: string) => ({
    title,
    slug: title.toLowerCase(),
    author,
    seo: { title: `${title} notes`, author },
    blocks: [{ author }],
  });
  posts = await seedDocuments(t.db, [
    {
      type: 'post',
      path: 'posts/engines',
      locale: 'en',
      published: { frontmatter: frontmatter('Engines'), body: 'The analytical engine.' },
    },
    { type: 'post', path: 'posts/looms', locale: 'en', frontmatter: frontmatter('Looms'), body: 'Punched cards.' },
  ]);
});
afterAll(() => t.close());

const search = async (query: string) => {
  const response = await t.request('GET', `/api/v1/search?${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as Array<{ documentId: string; snippet: string }>;
};

describe('search indexes what a reader sees', () => {
  it('does not match the referencing documents by the first characters of a reference id', async () => {
    const prefix = author.slice(0, 8);
    expect(await search(`q=${prefix}`)).toEqual([]);
    expect(await search(`q=${prefix}&draft=true`)).toEqual([]);
    expect(await search(`q=${encodeURIComponent(`"${author}"`)}&draft=true`)).toEqual([]);
  });

  it('never shows a reference id in a snippet, published or draft', async () => {
    const published = await search('q=engines');
    expect(published.map((hit) => hit.documentId)).toEqual([posts[0]]);
    expect(published[0]?.snippet).toContain('Engines');
    expect(published[0]?.snippet).not.toMatch(UUID);
    const draft = await search('q=looms&draft=true');
    expect(draft.map((hit) => hit.documentId)).toEqual([posts[1]]);
    expect(draft[0]?.snippet).not.toMatch(UUID);
  });

  it('still finds the words of nested strings and of the author itself', async () => {
    expect((await search('q=notes')).map((hit) => hit.documentId)).toEqual([posts[0]]);
    expect((await search('q=lovelace')).map((hit) => hit.documentId)).toEqual([author]);
  });

  it('queries with the indexed expressions', async () => {
    const plan = async (vector: string, partial: string) => {
      return t.db.transaction(async (tx) => {
        await tx.query('set local enable_seqscan = off');
        const rows = await tx.query<Record<string, string>>(
          `explain select d.id from documents d where ${partial} and ${vector} @@ websearch_to_tsquery('simple'::regconfig, 'engines')`,
        );
        return rows.rows.map((row) => Object.values(row)[0]).join('\n');
      });
    };
    expect(await plan(PUBLISHED_VECTOR, 'not d.is_deleted and d.published_version is not null')).toContain(
      'documents_search_published',
    );
    expect(await plan(DRAFT_VECTOR, 'not d.is_deleted')).toContain('documents_search_draft');
  });
});
