/**
 * A search ranks a bounded set of candidates (docs/api.md "Search"): the first matches its scan meets and
 * the title matches. The route's bounds are a thousand each; the repository takes them as an argument,
 * so these tests run its statement with bounds of a few documents on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SearchBounds,
  type SearchFilter,
  searchDocuments,
} from '../../src/storage/repositories/search.repository.js';
import { scopeOf, seedDocuments, seedSchema } from '../content-reads/read-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
let scope: { projectId: string; environmentId: string };
const titled: string[] = [];
const bodies: string[] = [];

const HEADLINE = 'StartSel=«, StopSel=», MaxWords=30, MinWords=10, ShortWord=2';

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  scope = await scopeOf(t.db);
  // Twelve posts with `heron` in the body (one, two or three times: scores differ), three with it in the title.
  bodies.push(
    ...(await seedDocuments(
      t.db,
      Array.from({ length: 12 }, (_, i) => ({
        type: 'post',
        path: `posts/body-${i}`,
        locale: 'en',
        published: {
          frontmatter: { title: `Bird notes ${i}` },
          body: `${Array.from({ length: 1 + (i % 3) }, () => 'heron').join(' ')} by the river, note ${i}.`,
        },
      })),
    )),
  );
  titled.push(
    ...(await seedDocuments(
      t.db,
      Array.from({ length: 3 }, (_, i) => ({
        type: 'post',
        path: `posts/title-${i}`,
        locale: 'en',
        published: { frontmatter: { title: `The grey heron ${i}` }, body: 'A tall wading bird.' },
      })),
    )),
  );
});
afterAll(() => t.close());

function filter(query: string, extra: Partial<SearchFilter> = {}): SearchFilter {
  return { query, draft: false, types: ['post'], headlineOptions: HEADLINE, ...extra };
}

async function page(query: string, bounds: SearchBounds, limit: number, offset: number, extra?: Partial<SearchFilter>) {
  return searchDocuments(t.db, scope, filter(query, extra), { limit, offset }, bounds);
}

describe('search candidates', () => {
  it('counts every match exactly while they fit the bound', async () => {
    const result = await page('heron', { candidates: 15, titleCandidates: 15 }, 20, 0);
    expect(result).toMatchObject({ total: 15, capped: false });
    expect(result.hits).toHaveLength(15);
  });

  it('caps the total at the candidates when more documents match, and says so', async () => {
    const result = await page('heron', { candidates: 4, titleCandidates: 2 }, 20, 0);
    expect(result.capped).toBe(true);
    // The first five matches (one past the bound tells there are more) and two title matches.
    expect(result.total).toBeLessThanOrEqual(7);
    expect(result.total).toBeGreaterThanOrEqual(5);
    expect(result.hits).toHaveLength(result.total);
  });

  it('ranks the title matches among the candidates, above body matches', async () => {
    const result = await page('heron', { candidates: 2, titleCandidates: 3 }, 20, 0);
    expect(result.capped).toBe(true);
    expect(
      result.hits
        .slice(0, 3)
        .map((hit) => hit.documentId)
        .sort(),
    ).toEqual([...titled].sort());
    const scores = result.hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('pages through the capped list without repeating or skipping a hit', async () => {
    const bounds = { candidates: 6, titleCandidates: 2 };
    const whole = await page('heron', bounds, 100, 0);
    expect(whole.capped).toBe(true);
    const walked: string[] = [];
    for (let offset = 0; offset < whole.total + 2; offset += 2) {
      const next = await page('heron', bounds, 2, offset);
      expect(next).toMatchObject({ total: whole.total, capped: true });
      walked.push(...next.hits.map((hit) => hit.documentId));
    }
    expect(walked).toEqual(whole.hits.map((hit) => hit.documentId));
    expect(new Set(walked).size).toBe(walked.length);
  });

  it('applies the bound to a prefix and to a word with a prefix', async () => {
    const prefix = await page('her', { candidates: 3, titleCandidates: 1 }, 20, 0, {
      prefix: { word: 'her', rest: '', join: 'and' },
    });
    expect(prefix.capped).toBe(true);
    expect(prefix.total).toBeGreaterThanOrEqual(4);
    expect(prefix.total).toBeLessThanOrEqual(5);
    const both = await page('wading her', { candidates: 3, titleCandidates: 1 }, 20, 0, {
      prefix: { word: 'her', rest: 'wading', join: 'and' },
    });
    expect(both).toMatchObject({ capped: false, total: 3 });
    expect(both.hits.map((hit) => hit.documentId).sort()).toEqual([...titled].sort());
  });

  it('never counts a title match that the whole query excludes', async () => {
    const result = await page('heron -wading', { candidates: 20, titleCandidates: 20 }, 20, 0);
    expect(result).toMatchObject({ total: 12, capped: false });
    expect(result.hits.map((hit) => hit.documentId).sort()).toEqual([...bodies].sort());
  });
});
