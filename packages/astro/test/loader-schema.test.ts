/**
 * `cmsLoader`'s schema, references and errors, against a real server (no Astro build; the loader
 * context is support/loader-context.ts): `createSchema` gives a Zod schema that checks `data` as the CMS
 * type declares it and the TypeScript of `data`; reference fields hold the referenced entry's id (locale-
 * prefixed for a localized target), or `{ collection, id }` with `references`; an MDX body without the
 * site's MDX integration is kept unrendered with a warning naming the collection; and every failure
 * names the collection or type, the server, and what to do (the missing scope, the types the server has,
 * the reference fields the type has).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOG_SCHEMA,
  createAuthor,
  createDocument,
  field,
  hashHeader,
  publishDocument,
  syncSchema,
} from '../../server/test/content/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { cmsLoader } from '../src/index.js';
import { loaderContext } from './support/loader-context.js';

let t: TestServer;
let reader: string;
let post: { documentId: string; path: string };
let authorPath: string;
let localizedPost: { path: string };

beforeAll(async () => {
  t = await startTestServer();
  // The blog schema, and a `guide` that points at the localized `page` type.
  const guide = {
    name: 'guide',
    directory: 'guides',
    localized: false,
    fields: {
      title: field('string', { required: true }),
      page: field('reference', { reference: { targetType: 'page' } }),
    },
  };
  const hash = await syncSchema(t, { types: [...BLOG_SCHEMA.types, guide] });
  const sent = { headers: hashHeader(hash) };
  reader = await t.createKey({ scopes: ['content:read', 'schema:read'] });
  const author = await createAuthor(t, 'Ada', sent);
  await publishDocument(t, author);
  authorPath = (await t.request('GET', `/api/v1/content/${author}`)).body.data.path;
  post = await createDocument(
    t,
    { frontmatter: { title: 'Typed', slug: 'typed', author, publishedOn: '2026-02-03' } },
    sent,
  );
  await publishDocument(t, post.documentId);
  const page = await createDocument(
    t,
    {
      type: 'page',
      path: 'pages/about',
      locale: 'fr',
      frontmatter: { title: 'À propos' },
    },
    sent,
  );
  await publishDocument(t, page.documentId);
  const guideDoc = await createDocument(
    t,
    {
      type: 'guide',
      path: 'guides/g',
      frontmatter: { title: 'G', page: page.documentId },
    },
    sent,
  );
  await publishDocument(t, guideDoc.documentId);
  localizedPost = guideDoc;
  const mdx = await createDocument(
    t,
    {
      path: 'posts/mdx',
      format: 'mdx',
      frontmatter: { title: 'M', slug: 'm' },
      body: '# MDX',
    },
    sent,
  );
  await publishDocument(t, mdx.documentId);
}, 180_000);
afterAll(() => t.close());

const options = (extra: Record<string, unknown> = {}) => ({
  type: 'post',
  serverUrl: t.url,
  apiKey: reader,
  project: 'default',
  environment: 'production',
  ...extra,
});

describe('cmsLoader schema and references', () => {
  it('builds a schema that checks data as the CMS type declares it, and its TypeScript', async () => {
    const loader = cmsLoader(options({ references: { author: 'authors' } }));
    if (!('createSchema' in loader) || !loader.createSchema) throw new Error('no createSchema');
    const { schema, types } = await loader.createSchema();
    expect(types).toContain('title: string;');
    expect(types).toContain('slug: string;');
    expect(types).toContain('status?: "draft" | "review" | "final";');
    expect(types).toContain('author?: { collection: "authors"; id: string } | null;');
    expect(types).toContain('publishedOn?: Date;');
    expect(types).toContain('documentId: string;');
    const base = { documentId: 'd', locale: 'x', version: 1, updatedAt: 'now', title: 'T', slug: 'ok-slug' };
    const parsed = (schema as unknown as { parse(value: unknown): Record<string, unknown> }).parse({
      ...base,
      author: 'ada',
      publishedOn: '2026-02-03',
    });
    expect(parsed.author).toEqual({ collection: 'authors', id: 'ada' });
    expect(parsed.publishedOn).toBeInstanceOf(Date);
    for (const wrong of [{ slug: 'Not A Slug' }, { title: '' }, { status: 'gone' }, { readingMinutes: -1 }]) {
      expect(
        (schema as unknown as { safeParse(value: unknown): { success: boolean } }).safeParse({ ...base, ...wrong })
          .success,
        JSON.stringify(wrong),
      ).toBe(false);
    }
  });

  it('puts the referenced entry’s id in data, { collection, id } with references, the locale for a localized target', async () => {
    const plain = loaderContext();
    await cmsLoader(options()).load(plain.ctx);
    expect(plain.entries.get(post.path)?.data.author).toBe(authorPath);
    const mapped = loaderContext();
    await cmsLoader(options({ references: { author: 'authors' } })).load(mapped.ctx);
    // parseData is the identity in the stand-in: Astro's would apply the schema's transform.
    expect(mapped.entries.get(post.path)?.data.author).toBe(authorPath);
    const guides = loaderContext('guides');
    await cmsLoader(options({ type: 'guide' })).load(guides.ctx);
    expect(guides.entries.get(localizedPost.path)?.data.page).toBe('fr/pages/about');
  });

  it('keeps an MDX body unrendered without @astrojs/mdx, with a warning naming the collection', async () => {
    const { ctx, entries, logs } = loaderContext();
    await cmsLoader(options()).load(ctx);
    expect(entries.get('posts/mdx')).toMatchObject({ body: '# MDX' });
    expect(entries.get('posts/mdx')?.rendered).toBeUndefined();
    expect(logs.find((line) => line.startsWith('warn:'))).toContain('cmsLoader(posts, type "post"): 1 MDX document(s)');
  });

  it('names the type, the server and the missing scope when the schema cannot be read', async () => {
    const contentOnly = await t.createKey({ scopes: ['content:read'] });
    const loader = cmsLoader(options({ apiKey: contentOnly }));
    if (!('createSchema' in loader) || !loader.createSchema) throw new Error('no createSchema');
    const refused = await loader.createSchema().catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toContain(`cmsLoader(type "post") reading ${t.url}`);
    expect((refused as Error).message).toContain('FORBIDDEN');
    expect((refused as Error).message).toContain('The key needs schema:read');
    // The load itself works with content:read, warning that references keep document ids.
    const { ctx, entries, logs } = loaderContext();
    await loader.load(ctx);
    expect(entries.has(post.path)).toBe(true);
    expect(logs.find((line) => line.startsWith('warn:'))).toContain('References keep document ids');
  });

  it('names the types the server has for an unknown type, and the reference fields for an unknown path', async () => {
    await expect(cmsLoader(options({ type: 'psot' })).load(loaderContext().ctx)).rejects.toThrow(
      /cmsLoader\(posts, type "psot"\): the server http:\/\/127\.0\.0\.1:\d+ has no content type "psot" \(it has author, post, page, guide\)/,
    );
    await expect(cmsLoader(options({ references: { writer: 'authors' } })).load(loaderContext().ctx)).rejects.toThrow(
      'references names writer, which is no reference field of "post" (its reference fields: author, related)',
    );
  });

  it('names the collection and the server when the content cannot be read', async () => {
    const noScopes = await t.createKey({ scopes: ['schema:read'] });
    const failed = await cmsLoader(options({ apiKey: noScopes }))
      .load(loaderContext().ctx)
      .catch((error: Error & { code?: string }) => error);
    expect(failed).toMatchObject({ code: 'FORBIDDEN' });
    expect((failed as Error).message).toMatch(
      /^cmsLoader\(posts, type "post"\) reading http:\/\/127\.0\.0\.1:\d+ \(project default, environment production\): FORBIDDEN/,
    );
    expect((failed as Error).message).toContain('The key needs content:read');
  });
});
