import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, syncSchema } from '../content/fixtures.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import type { TestServer } from '../support/test-server.js';

// Two servers on one database: `cached` with the published read cache, `direct` without it.
let database: TestDatabase;
let cached: ServerOnDatabase;
let direct: ServerOnDatabase;
const posts: string[] = [];
let author: string;

beforeAll(async () => {
  database = await createTestDatabase();
  cached = await startServerOn(database);
  direct = await startServerOn(database, { env: { CMS_READ_CACHE_BYTES: '0' } });
  const w = cached as unknown as TestServer;
  await syncSchema(w);
  author = (await createDocument(w, { type: 'author', path: 'authors/prop', frontmatter: { name: 'A0' } })).documentId;
  for (let n = 0; n < 3; n += 1) {
    const doc = await createDocument(w, { path: `posts/prop-${n}`, frontmatter: postFrontmatter({ author }) });
    posts.push(doc.documentId);
  }
});
afterAll(async () => {
  await direct?.close();
  await cached?.close();
  await database?.close();
});

type Write =
  | { kind: 'save'; doc: number; title: string }
  | { kind: 'publish' | 'unpublish' | 'delete' | 'restore'; doc: number };

/** Documents: 0 is the author, 1-3 the posts that reference it. */
const ids = () => [author, ...posts];

async function write(step: Write): Promise<void> {
  const id = ids()[step.doc] as string;
  const path = `/api/v1/content/${id}`;
  if (step.kind === 'save') {
    const current = await cached.request('GET', `${path}?draft=true`);
    if (current.status !== 200) return;
    const frontmatter = step.doc === 0 ? { name: step.title } : postFrontmatter({ title: step.title, author });
    await cached.request('PUT', path, {
      body: { frontmatter, body: step.title, draftRevision: current.body.data.draftRevision },
      headers: hashHeader(),
    });
    return;
  }
  if (step.kind === 'delete') await cached.request('DELETE', path);
  else await cached.request('POST', `${path}/${step.kind}`);
}

const READS = [
  (doc: number) => `/api/v1/content/${ids()[doc]}`,
  (doc: number) => `/api/v1/content/${ids()[doc]}?resolve=author`,
  () => '/api/v1/content?type=post&limit=20',
  () => '/api/v1/content?type=post&limit=2&offset=1&resolve=author',
  () => '/api/v1/content?type=author',
];

const writeStep: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    kind: fc.constant('save' as const),
    doc: fc.integer({ min: 0, max: 3 }),
    title: fc.string({ minLength: 1, maxLength: 8 }),
  }),
  fc.record({
    kind: fc.constantFrom('publish' as const, 'unpublish' as const, 'delete' as const, 'restore' as const),
    doc: fc.integer({ min: 0, max: 3 }),
  }),
);
const readStep = fc.record({
  read: fc.integer({ min: 0, max: READS.length - 1 }),
  doc: fc.integer({ min: 0, max: 3 }),
});
const step = fc.oneof(fc.record({ write: writeStep }), readStep, readStep);

it('answers every published read exactly as an uncached read, whatever the writes in between', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 20 }), async (steps) => {
      for (const current of steps) {
        if ('write' in current) {
          await write(current.write);
          continue;
        }
        const path = (READS[current.read] as (doc: number) => string)(current.doc);
        const fromCache = await cached.request('GET', path);
        const fromDatabase = await direct.request('GET', path);
        expect(fromCache.status, path).toBe(fromDatabase.status);
        if (fromDatabase.status === 200) {
          expect(fromCache.text, path).toBe(fromDatabase.text);
          expect(fromCache.headers.get('etag')).toBe(fromDatabase.headers.get('etag'));
        }
      }
    }),
    { numRuns: 10 },
  );
}, 180_000);
