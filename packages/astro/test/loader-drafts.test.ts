/**
 * `cmsLoader` without an Astro build (the site build is astro-site-build.test.ts): drafts need
 * `draft: true` and a key that may read them; a build with nothing changed fetches one document, and
 * after one change only that document comes over the wire (counted from the server's answers), and a
 * load with nothing changed reads the change feed and no document;
 * entries of a localized type are locale-prefixed; the state kept between builds holds no key. The loader context is a small stand-in for
 * Astro's (a Map store and meta store, identity parseData, a stub renderMarkdown); the server is real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDocument,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from '../../server/test/content/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { cmsLoader } from '../src/index.js';
import { type Entry, loaderContext } from './support/loader-context.js';

let t: TestServer;
let published: { documentId: string; path: string };
let draftOnly: { documentId: string; path: string };

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  published = await createDocument(t, { body: '# Live' });
  await publishDocument(t, published.documentId);
  draftOnly = await createDocument(t, { body: 'draft *only*' });
}, 180_000);
afterAll(() => t.close());

/** The loader context stand-in (support/loader-context.ts). */
const context = () => loaderContext();

const options = (apiKey: string, extra: Partial<Parameters<typeof cmsLoader>[0]> = {}) => ({
  type: 'post',
  serverUrl: t.url,
  apiKey,
  project: 'default',
  environment: 'production',
  ...extra,
});

describe('cmsLoader', () => {
  it('loads published documents with their data, body and rendered HTML; a second run fetches one', async () => {
    const site = await t.createKey({ scopes: ['content:read'] });
    const { ctx, entries, logs } = context();
    const loader = cmsLoader(options(site));
    await loader.load(ctx);
    expect([...entries.keys()]).toEqual([published.path]);
    const entry = entries.get(published.path) as Entry;
    expect(entry.data).toMatchObject({ title: 'Hello world', documentId: published.documentId, version: 1 });
    expect(entry.data.locale).toBeTypeOf('string');
    expect(entry.data.updatedAt).toBeTypeOf('string');
    expect(entry.body).toBe('# Live');
    expect(entry.rendered?.html).toBe('<rendered># Live</rendered>');
    await loader.load(ctx);
    expect(loader.lastReport).toEqual({ mode: 'unchanged', fetched: 0, changed: 0, total: 1 });
    expect(logs.at(-1)).toBe('post: unchanged load, 0 document(s) fetched, 0 changed, 1 in all');
  });

  it('reads drafts with draft: true and a key holding content:read:draft; refuses a key without it', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    await expect(cmsLoader(options(reader, { draft: true })).load(context().ctx)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const previewer = await t.createKey({ scopes: ['content:read', 'content:read:draft'] });
    const { ctx, entries } = context();
    await cmsLoader(options(previewer, { draft: true })).load(ctx);
    expect([...entries.keys()].sort()).toEqual([published.path, draftOnly.path].sort());
    expect(entries.get(draftOnly.path)?.body).toBe('draft *only*');
  });

  it('renders with data-cms-source on blocks when asked (sourceLines), for click-to-edit', async () => {
    const site = await t.createKey({ scopes: ['content:read'] });
    const { ctx, entries } = context();
    await cmsLoader(options(site, { sourceLines: true })).load(ctx);
    expect(entries.get(published.path)?.rendered?.html).toBe('<h1 data-cms-source="1">Live</h1>');
  });

  it('leaves raw HTML out of sourceLines rendering unless rawHtml asks for it (the CMS pipeline, sanitised)', async () => {
    const path = `posts/html-${Date.now().toString(36)}`;
    const doc = await createDocument(t, {
      type: 'post',
      path,
      body: '<aside onclick="x()">Aside</aside>\n\n# Title\n',
    });
    await publishDocument(t, doc.documentId);
    const site = await t.createKey({ scopes: ['content:read'] });
    const sanitised = context();
    await cmsLoader(options(site, { sourceLines: true })).load(sanitised.ctx);
    expect(sanitised.entries.get(path)?.rendered?.html).toBe('<h1 data-cms-source="3">Title</h1>');
    const raw = context();
    await cmsLoader(options(site, { sourceLines: true, rawHtml: true })).load(raw.ctx);
    expect(raw.entries.get(path)?.rendered?.html).toBe(
      '<aside onclick="x()">Aside</aside>\n<h1 data-cms-source="3">Title</h1>',
    );
  });

  it('keeps no API key in the meta store Astro writes to disk; other options still mean a full load', async () => {
    const site = await t.createKey({ scopes: ['content:read'] });
    const { ctx, meta } = context();
    await cmsLoader(options(site)).load(ctx);
    const state = meta.get('state') as string;
    expect(state).not.toContain(site);
    expect(state).not.toContain(t.url);
    const again = cmsLoader(options(site));
    await again.load(ctx);
    expect(again.lastReport?.mode).toBe('unchanged');
    const other = cmsLoader(options(site, { sourceLines: true }));
    await other.load(ctx);
    expect(other.lastReport?.mode).toBe('full');
  });

  it('gives entries of a localized type locale-prefixed ids, and reads one locale with `locale`', async () => {
    const path = `pages/about-${Date.now().toString(36)}`;
    for (const locale of ['en', 'fr']) {
      const page = await createDocument(t, { type: 'page', path, locale, frontmatter: { title: `About ${locale}` } });
      await publishDocument(t, page.documentId);
    }
    const site = await t.createKey({ scopes: ['content:read'] });
    const every = context();
    await cmsLoader(options(site, { type: 'page' })).load(every.ctx);
    expect([...every.entries.keys()].sort()).toEqual([`en/${path}`, `fr/${path}`]);
    expect(every.entries.get(`fr/${path}`)?.data).toMatchObject({ title: 'About fr', locale: 'fr' });
    const french = context();
    await cmsLoader(options(site, { type: 'page', locale: 'fr' })).load(french.ctx);
    expect([...french.entries.keys()]).toEqual([`fr/${path}`]);
  });

  it('after one document changes, the next load gets only that document over the wire', async () => {
    const site = await t.createKey({ scopes: ['content:read'] });
    const edited = await createDocument(t, { body: 'before' });
    await publishDocument(t, edited.documentId);
    await publishDocument(t, (await createDocument(t, { body: 'other' })).documentId);
    // Every document the server sent, counted from the answers themselves, not from the loader's report.
    const sent: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      // Documents only: the change feed's entries name documents but carry none of their content.
      if (!new URL(String(input)).pathname.startsWith('/api/v1/content')) return response;
      const body = (await response.clone().json()) as { data?: unknown };
      const docs = (Array.isArray(body.data) ? body.data : [body.data]) as Array<{ documentId?: string } | null>;
      for (const doc of docs) if (doc?.documentId) sent.push(doc.documentId);
      return response;
    };
    const { ctx, entries } = context();
    const loader = cmsLoader(options(site, { fetch: counting }));
    await loader.load(ctx);
    expect(loader.lastReport?.mode).toBe('full');
    expect(new Set(sent).size).toBe(entries.size);

    const current = await t.request('GET', `/api/v1/content/${edited.documentId}?draft=true`);
    const update = await t.request('PUT', `/api/v1/content/${edited.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter(), body: 'after', draftRevision: current.body.data.draftRevision },
    });
    expect(update.status, update.text).toBe(200);
    await publishDocument(t, edited.documentId);
    sent.length = 0;
    await loader.load(ctx);
    expect(loader.lastReport).toMatchObject({ mode: 'incremental', fetched: 1, changed: 1 });
    expect([...new Set(sent)]).toEqual([edited.documentId]);
    expect(entries.get(edited.path)?.body).toBe('after');
  });

  it('says which setting is missing when there is no server address', async () => {
    const saved = process.env.CMS_SERVER_URL;
    delete process.env.CMS_SERVER_URL;
    try {
      await expect(cmsLoader({ type: 'post' }).load(context().ctx)).rejects.toThrow(/CMS_SERVER_URL/);
    } finally {
      if (saved !== undefined) process.env.CMS_SERVER_URL = saved;
    }
  });
});
