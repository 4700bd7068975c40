import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { type SeedDocument, seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const DOCS = 45;
const base = Date.parse('2024-01-01T00:00:00.000Z');
interface Expected {
  id: string;
  path: string;
  createdAt: number;
  updatedAt: number;
}
let expected: Expected[] = [];

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  // Creation times come in pairs (ties, broken by id); update times run the other way.
  const docs: SeedDocument[] = Array.from({ length: DOCS }, (_, n) => ({
    type: 'author',
    path: `authors/${String((n * 7) % DOCS).padStart(2, '0')}`,
    published: { frontmatter: { name: `Author ${n}` } },
    createdAt: new Date(base + Math.floor(n / 2) * 60_000),
    updatedAt: new Date(base + (DOCS - n) * 3_600_000),
  }));
  const ids = await seedDocuments(t.db, docs);
  expected = docs.map((doc, n) => ({
    id: ids[n] as string,
    path: doc.path,
    createdAt: (doc.createdAt as Date).getTime(),
    updatedAt: (doc.updatedAt as Date).getTime(),
  }));
});
afterAll(() => t.close());

function order(key: 'createdAt' | 'updatedAt' | 'path', direction: 'asc' | 'desc'): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...expected]
    .sort((a, b) => {
      const primary = a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;
      return sign * (primary || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    })
    .map((doc) => doc.id);
}

async function page(query: string) {
  const response = await t.request('GET', `/api/v1/content?type=author&${query}`);
  expect(response.status, response.text).toBe(200);
  return {
    ids: response.body.data.map((doc: { documentId: string }) => doc.documentId) as string[],
    pagination: response.body.pagination,
  };
}

/** Walks every page of a query and returns all ids in order. */
async function walk(query: string, limit: number): Promise<string[]> {
  const all: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const result = await page(`${query}&limit=${limit}&offset=${offset}`);
    all.push(...result.ids);
    expect(result.pagination.total).toBe(DOCS);
    if (!result.pagination.hasMore) return all;
  }
}

describe('GET /content: sort and order', () => {
  it('sorts by createdAt, newest first, by default (ties broken by id)', async () => {
    expect((await page('limit=100')).ids).toEqual(order('createdAt', 'desc'));
    expect((await page('limit=100&sort=createdAt')).ids).toEqual(order('createdAt', 'desc'));
  });

  it.each([
    ['createdAt', 'asc'],
    ['createdAt', 'desc'],
    ['updatedAt', 'asc'],
    ['updatedAt', 'desc'],
    ['path', 'asc'],
    ['path', 'desc'],
  ] as const)('sorts by %s %s', async (sort, direction) => {
    expect((await page(`limit=100&sort=${sort}&order=${direction}`)).ids).toEqual(order(sort, direction));
  });

  it('defaults the order to desc for updatedAt and asc for path', async () => {
    expect((await page('limit=100&sort=updatedAt')).ids).toEqual(order('updatedAt', 'desc'));
    expect((await page('limit=100&sort=path')).ids).toEqual(order('path', 'asc'));
  });

  it('pages through ties without skipping or repeating a document', async () => {
    expect(await walk('sort=createdAt&order=asc', 4)).toEqual(order('createdAt', 'asc'));
    expect(await walk('sort=createdAt', 7)).toEqual(order('createdAt', 'desc'));
  });
});

describe('GET /content: pagination', () => {
  it('defaults to limit 20, offset 0', async () => {
    const result = await page('');
    expect(result.ids).toHaveLength(20);
    expect(result.pagination).toEqual({ total: DOCS, limit: 20, offset: 0, hasMore: true });
  });

  it('sets hasMore until the last page', async () => {
    expect((await page('limit=20&offset=20')).pagination).toEqual({
      total: DOCS,
      limit: 20,
      offset: 20,
      hasMore: true,
    });
    const last = await page('limit=20&offset=40');
    expect(last.ids).toHaveLength(5);
    expect(last.pagination).toEqual({ total: DOCS, limit: 20, offset: 40, hasMore: false });
    const exact = await page('limit=15&offset=30');
    expect(exact.ids).toHaveLength(15);
    expect(exact.pagination.hasMore).toBe(false);
  });

  it('answers an empty page with the exact total past the end', async () => {
    const result = await page('offset=1000');
    expect(result.ids).toEqual([]);
    expect(result.pagination).toEqual({ total: DOCS, limit: 20, offset: 1000, hasMore: false });
  });

  it('accepts the bounds 1 and 100', async () => {
    expect((await page('limit=1')).ids).toHaveLength(1);
    expect((await page('limit=100')).ids).toHaveLength(DOCS);
  });

  it('counts only what the filters match', async () => {
    const result = await page('limit=5&path=authors/03');
    expect(result.pagination).toEqual({ total: 1, limit: 5, offset: 0, hasMore: false });
  });

  it('answers an empty list with total 0 for a type without documents', async () => {
    const response = await t.request('GET', '/api/v1/content?type=category');
    expect(response.body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
  });
});
