import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countQueries, seedDocuments, seedSchema } from '../content-reads/read-fixtures.js';
import { type RequestOptions, startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  const [inTitle, inBody, draftOnly, changed, deleted, french, author, category, unpublished] = await seedDocuments(
    t.db,
    [
      {
        type: 'post',
        path: 'posts/zebra',
        locale: 'en',
        published: { frontmatter: { title: 'Zebra crossing', slug: 'zebra' }, body: 'Nothing else to see.' },
      },
      {
        type: 'post',
        path: 'posts/savanna',
        locale: 'en',
        body: 'Far away a lonely zebra grazes.',
        published: { frontmatter: { title: 'Savanna', slug: 'savanna' }, body: 'Far away a lonely zebra grazes.' },
      },
      { type: 'post', path: 'posts/draft', locale: 'en', frontmatter: { title: 'Zebra in a draft' } },
      {
        type: 'post',
        path: 'posts/changed',
        locale: 'en',
        frontmatter: { title: 'Fresh quokka' },
        body: 'Draft body only.',
        published: { frontmatter: { title: 'Stale wombat' }, body: 'Published body.' },
        hasUnpublishedChanges: true,
      },
      {
        type: 'post',
        path: 'posts/deleted',
        locale: 'en',
        published: { frontmatter: { title: 'Zebra deleted' }, body: 'zebra zebra quokka wombat' },
        isDeleted: true,
      },
      {
        type: 'post',
        path: 'posts/zebra',
        locale: 'fr',
        published: { frontmatter: { title: 'Le zebra', slug: 'zebra' }, body: 'Un zebra.' },
      },
      { type: 'author', path: 'authors/zed', published: { frontmatter: { name: 'Zebra Zed', slug: 'zed' } } },
      { type: 'category', path: 'categories/stripes', published: { frontmatter: { name: 'Stripes' } }, body: '' },
      {
        type: 'post',
        path: 'posts/withdrawn',
        locale: 'en',
        frontmatter: { title: 'Zebra withdrawn' },
        unpublished: true,
      },
    ],
  );
  Object.assign(ids, { inTitle, inBody, draftOnly, changed, deleted, french, author, category, unpublished });
  // Equal content, equal scores: the order among them is the id order.
  await seedDocuments(
    t.db,
    Array.from({ length: 5 }, (_, i) => ({
      type: 'category',
      path: `categories/kiwi-${i}`,
      published: { frontmatter: { name: 'Kiwi' }, body: 'kiwi' },
    })),
  );
  // A document with no title-like field.
  await seedDocuments(t.db, [
    { type: 'category', path: 'categories/untitled', published: { frontmatter: {}, body: 'platypus' } },
  ]);
  // Documents of a type no longer in the schema are not searched.
  await seedDocuments(t.db, [{ type: 'gone', path: 'gone/zebra', published: { frontmatter: { title: 'Zebra' } } }]);
});
afterAll(() => t.close());

interface Hit {
  documentId: string;
  type: string;
  path: string;
  locale: string;
  title: string | null;
  publishedVersion: number | null;
  hasUnpublishedChanges: boolean;
  snippet: string;
  score: number;
}

async function search(query: string, options: RequestOptions = {}) {
  const response = await t.request('GET', `/api/v1/search?${query}`, options);
  expect(response.status, response.text).toBe(200);
  return response.body as {
    data: Hit[];
    pagination: { total: number; limit: number; offset: number; hasMore: boolean; totalIsCapped: boolean };
  };
}

const idsOf = (hits: Hit[]) => hits.map((hit) => hit.documentId);
const sorted = (...keys: string[]) => keys.map((key) => ids[key] as string).sort();

describe('GET /search: ranking and answer', () => {
  it('ranks a match in the frontmatter above a match in the body', async () => {
    const { data } = await search('q=zebra&type=post&locale=en');
    expect(idsOf(data)).toEqual([ids.inTitle, ids.inBody]);
    expect(data[0]?.score).toBeGreaterThan(data[1]?.score ?? Number.POSITIVE_INFINITY);
  });

  it('answers hits with type, path, locale, a plain-text snippet and a score', async () => {
    const { data } = await search('q=grazes');
    expect(data).toEqual([
      {
        documentId: ids.inBody,
        type: 'post',
        path: 'posts/savanna',
        locale: 'en',
        title: 'Savanna',
        publishedVersion: expect.any(Number),
        hasUnpublishedChanges: false,
        snippet: expect.stringContaining('lonely zebra «grazes»'),
        score: expect.any(Number),
      },
    ]);
    expect(data[0]?.snippet).not.toMatch(/[<>]/);
  });

  it('names each hit by its title on the side searched, and gives its status, as GET /content does', async () => {
    expect((await search('q=wombat')).data).toMatchObject([
      {
        documentId: ids.changed,
        title: 'Stale wombat',
        publishedVersion: expect.any(Number),
        hasUnpublishedChanges: true,
      },
    ]);
    expect((await search('q=quokka&draft=true')).data).toMatchObject([
      { documentId: ids.changed, title: 'Fresh quokka', hasUnpublishedChanges: true },
    ]);
    expect((await search('q=withdrawn&draft=true')).data).toMatchObject([
      { documentId: ids.unpublished, title: 'Zebra withdrawn', publishedVersion: null },
    ]);
    // A type without a `title` field is named by `name` (DOCUMENT_TITLE_KEYS); none at all is null.
    expect((await search('q=zed&type=author')).data).toMatchObject([{ documentId: ids.author, title: 'Zebra Zed' }]);
    expect((await search('q=platypus')).data).toMatchObject([{ path: 'categories/untitled', title: null }]);
  });

  it('searches every type of the schema by default, case-insensitively, best first', async () => {
    const { data, pagination } = await search('q=ZEBRA');
    expect(idsOf(data).sort()).toEqual(sorted('inTitle', 'inBody', 'french', 'author'));
    const scores = data.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(pagination.total).toBe(4);
  });

  it('answers the page and the total with one statement', async () => {
    expect(await countQueries(t.db, () => search('q=zebra'))).toBe(1);
  });
});

describe('GET /search: published and draft', () => {
  it('searches published content only by default', async () => {
    expect(idsOf((await search('q=wombat')).data)).toEqual([ids.changed]);
    expect((await search('q=quokka')).data).toEqual([]);
    expect((await search('q=withdrawn')).data).toEqual([]);
  });

  it('searches drafts with draft=true', async () => {
    expect(idsOf((await search('q=quokka&draft=true')).data)).toEqual([ids.changed]);
    expect((await search('q=wombat&draft=true')).data).toEqual([]);
    const drafts = await search('q=zebra&draft=true&type=post');
    expect(idsOf(drafts.data).sort()).toEqual(sorted('inTitle', 'inBody', 'draftOnly', 'french', 'unpublished'));
  });

  it('never finds soft-deleted documents', async () => {
    for (const query of ['q=deleted', 'q=deleted&draft=true']) {
      expect(idsOf((await search(query)).data)).not.toContain(ids.deleted);
    }
  });
});

describe('GET /search: filters', () => {
  it('filters by type', async () => {
    expect(idsOf((await search('q=zebra&type=author')).data)).toEqual([ids.author]);
    expect((await search('q=zebra&type=category')).data).toEqual([]);
  });

  it('filters by locale; non-localized documents match any locale', async () => {
    expect(idsOf((await search('q=zebra&locale=fr')).data).sort()).toEqual(sorted('french', 'author'));
    expect(idsOf((await search('q=zebra&locale=fr&type=post')).data)).toEqual([ids.french]);
    expect(idsOf((await search('q=zebra&type=post', { headers: { 'x-cms-locale': 'FR' } })).data)).toEqual([
      ids.french,
    ]);
  });
});

describe('GET /search: status filters, as on GET /content', () => {
  it('filters by published and by unpublished changes, with exact totals', async () => {
    const never = await search('q=zebra&draft=true&type=post&published=false');
    expect(idsOf(never.data).sort()).toEqual(sorted('draftOnly', 'unpublished'));
    expect(never.pagination.total).toBe(2);
    const live = await search('q=zebra&draft=true&type=post&published=true');
    expect(idsOf(live.data).sort()).toEqual(sorted('inTitle', 'inBody', 'french'));
    expect(live.pagination.total).toBe(3);
    expect(idsOf((await search('q=quokka&draft=true&hasUnpublishedChanges=true')).data)).toEqual([ids.changed]);
    expect((await search('q=quokka&draft=true&hasUnpublishedChanges=false')).data).toEqual([]);
  });

  it('refuses a status filter that is not true or false, naming the parameter', async () => {
    const response = await t.request('GET', '/api/v1/search?q=zebra&published=yes');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
    expect(JSON.stringify(response.body.error.details)).toContain('published');
  });
});

describe('GET /search: pagination', () => {
  it('pages through equal scores in id order without skips or repeats', async () => {
    const all = await search('q=kiwi');
    expect(all.pagination).toEqual({ total: 5, limit: 20, offset: 0, hasMore: false, totalIsCapped: false });
    expect(idsOf(all.data)).toEqual([...idsOf(all.data)].sort());
    const pages: string[] = [];
    for (const offset of [0, 2, 4]) {
      const page = await search(`q=kiwi&limit=2&offset=${offset}`);
      expect(page.pagination).toEqual({ total: 5, limit: 2, offset, hasMore: offset + 2 < 5, totalIsCapped: false });
      pages.push(...idsOf(page.data));
    }
    expect(pages).toEqual(idsOf(all.data));
  });

  it('answers an empty page past the end with the exact total', async () => {
    const past = await search('q=kiwi&offset=50');
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual({ total: 5, limit: 20, offset: 50, hasMore: false, totalIsCapped: false });
  });
});

describe('GET /search: query syntax', () => {
  it('accepts web-search syntax: phrases, exclusion, or', async () => {
    expect(idsOf((await search(`q=${encodeURIComponent('"lonely zebra"')}`)).data)).toEqual([ids.inBody]);
    expect(idsOf((await search(`q=${encodeURIComponent('zebra -grazes')}&type=post&locale=en`)).data)).toEqual([
      ids.inTitle,
    ]);
    expect(idsOf((await search(`q=${encodeURIComponent('wombat or kiwi')}`)).data)).toHaveLength(6);
  });

  it('never fails on special characters, quotes or SQL', async () => {
    for (const q of [
      '"foo" -bar OR baz',
      "'; drop table documents; --",
      '!!! ((( ) :* & | <-> \\ %',
      '"unterminated',
      '-',
      '<script>alert(1)</script>',
    ]) {
      const response = await search(`q=${encodeURIComponent(q)}&draft=true`);
      expect(response.pagination.total).toBeGreaterThanOrEqual(0);
    }
    expect(idsOf((await search('q=grazes')).data)).toEqual([ids.inBody]);
  });
});
