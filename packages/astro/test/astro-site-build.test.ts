/**
 * A real Astro site (examples/astro-site, `astro` from npm) built with `@cms/astro` against a running
 * server, once, asserting what a site author and a writer notice:
 * - `data` is typed from the CMS schema (the collection's type module Astro writes into `.astro/`);
 * - a post's author, a reference, is the author entry `getEntry()` reads;
 * - Markdown rendered by Astro; an MDX body that `import`s a component renders through the site's MDX
 *   integration, with the page's component mapping (`h2`);
 * - after one document changes, the next build fetches that document only, and a post unpublished since
 *   the last build leaves the site (the change feed);
 * - the live collection serves server-rendered pages (published, and the draft a preview token opens; a
 *   token of another project is refused naming the collection), and in Chromium a framed preview follows
 *   the drafts a Studio stand-in posts and posts clicks back (click-to-edit);
 * - `astro dev` shows a published change without a restart.
 * Astro needs Node >= 22.12: the site runs on Node 22 from the npm `node` package. Slow (two builds, a
 * dev server): it runs with ASTRO_BUILD=1 (a step of .ci/run).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type StudioStub, startStudioStub } from '../../next/test/support/studio-stub.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { astroBuild, astroDev, node22, type Running, serveBuilt, site } from './support/astro-site.js';

vi.setConfig({ testTimeout: 400_000 });

const enabled = process.env.ASTRO_BUILD === '1';

let server: TestServer;
let node: string;
let scratch: string;
let schemaHash: string;
let siteEnv: NodeJS.ProcessEnv;
let studio: StudioStub;
let built: Running | undefined;
let browser: Browser | undefined;
const ids = { ada: '', hello: '', second: '', third: '', mdx: '' };
let firstBuild = '';

/**
 * The build's output is the site's own `dist/` (removed after the test): the Node adapter's server bundle
 * imports Astro's dependencies from the site's node_modules, so it cannot be built elsewhere.
 */
const outDir = join(site, 'dist');
const page = (path: string) => readFile(join(outDir, 'client', path), 'utf8');
const live = async (path: string) => {
  const response = await fetch(`${built?.url}${path}`);
  return { status: response.status, text: await response.text() };
};

async function published(document: Record<string, unknown>): Promise<string> {
  const created = await server.request('POST', '/api/v1/content', {
    headers: { 'x-cms-schema-hash': schemaHash },
    body: document,
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.documentId as string;
  const answer = await server.request('POST', `/api/v1/content/${id}/publish`, { body: {} });
  expect(answer.status, answer.text).toBe(200);
  return id;
}

async function edit(id: string, frontmatter: Record<string, unknown>, body: string, publish = true) {
  const current = await server.request('GET', `/api/v1/content/${id}?draft=true`);
  const update = await server.request('PUT', `/api/v1/content/${id}`, {
    headers: { 'x-cms-schema-hash': schemaHash },
    body: { frontmatter, body, draftRevision: current.body.data.draftRevision },
  });
  expect(update.status, update.text).toBe(200);
  if (publish) expect((await server.request('POST', `/api/v1/content/${id}/publish`, { body: {} })).status).toBe(200);
}

async function previewToken(id: string): Promise<string> {
  const issued = await server.request('POST', `/api/v1/content/${id}/preview-token`, { body: {} });
  expect(issued.status, issued.text).toBe(200);
  return issued.body.data.token;
}

beforeAll(async () => {
  if (!enabled) return;
  node = node22();
  scratch = await mkdtemp(join(tmpdir(), 'cms-astro-'));
  server = await startTestServer();
  studio = await startStudioStub();
  const schema = JSON.parse(await readFile(join(site, '../quick-start/schema.json'), 'utf8'));
  schemaHash = schema.schemaHash;
  expect((await server.request('PUT', '/api/v1/schema/sync', { body: schema })).status).toBe(200);
  ids.ada = await published({ type: 'author', path: 'ada', frontmatter: { name: 'Ada' } });
  const post = JSON.parse(await readFile(join(site, '../quick-start/post.json'), 'utf8'));
  ids.hello = await published({ ...post, frontmatter: { ...post.frontmatter, author: ids.ada } });
  ids.second = await published({
    type: 'post',
    path: 'second-post',
    frontmatter: { title: 'A second post', slug: 'second-post' },
    body: 'Some *emphasis* here.',
  });
  ids.third = await published({
    type: 'post',
    path: 'third-post',
    frontmatter: { title: 'A third post', slug: 'third-post' },
    body: 'The third one.',
  });
  ids.mdx = await published({
    type: 'post',
    path: 'mdx-post',
    format: 'mdx',
    frontmatter: { title: 'An MDX post', slug: 'mdx-post' },
    body: "import Callout from '~/components/Callout.astro';\n\n## A section\n\n<Callout>Imported and rendered.</Callout>\n",
  });
  siteEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? scratch,
    ASTRO_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: await server.createKey({ scopes: ['content:read', 'content:read:draft', 'schema:read'] }),
    CMS_PROJECT: 'default',
    CMS_ENVIRONMENT: 'production',
    CMS_STUDIO_ORIGIN: studio.origin,
    ASTRO_OUT_DIR: outDir,
    ASTRO_CACHE_DIR: join(scratch, 'cache'),
  };
  const first = await astroBuild(node, siteEnv);
  expect(first.code, first.output).toBe(0);
  firstBuild = first.output;
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await built?.stop();
  await studio?.close();
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  if (enabled && !process.env.ASTRO_BUILD_KEEP) await rm(outDir, { recursive: true, force: true });
});

describe.runIf(enabled)('an Astro site built with cmsLoader and cmsLiveLoader', () => {
  it('types data from the CMS schema and resolves the author reference with getEntry', async () => {
    expect(firstBuild).toContain('post: full load, 4 document(s) fetched, 4 changed, 4 in all');
    const types = await readFile(join(site, '.astro/collections/posts.ts'), 'utf8').catch(() =>
      readFile(join(site, '.astro/loaders/posts.ts'), 'utf8'),
    );
    expect(types).toContain('title: string;');
    expect(types).toContain('author?: { collection: "authors"; id: string } | null;');
    expect(types).toContain('documentId: string;');
    const hello = await page('posts/hello-world/index.html');
    expect(hello).toContain('<h1>Hello, world</h1>');
    expect(hello).toContain('<p class="author">By Ada</p>');
    expect(await page('index.html')).toContain('Hello, world</a> by Ada');
  });

  it('renders Markdown with Astro, and an MDX body that imports a component with the page’s mapping', async () => {
    const hello = await page('posts/hello-world/index.html');
    expect(hello).toContain('<h1 id="hello">Hello</h1>');
    expect(await page('posts/second-post/index.html')).toContain('<em>emphasis</em>');
    const mdx = await page('posts/mdx-post/index.html');
    expect(mdx).toMatch(/<h2 class="section"[^>]*>A section<\/h2>/);
    expect(mdx).toMatch(/<aside class="callout"[^>]*>Imported and rendered\.<\/aside>/);
  });

  it('after one document changes, the next build fetches it only; an unpublished post leaves', async () => {
    await edit(ids.second, { title: 'A second post, edited', slug: 'second-post' }, 'Now with **bold** text.');
    expect((await server.request('POST', `/api/v1/content/${ids.third}/unpublish`, { body: {} })).status).toBe(200);
    const second = await astroBuild(node, siteEnv);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('post: incremental load, 1 document(s) fetched, 2 changed, 3 in all');
    expect(second.output).toContain('author: unchanged load, 0 document(s) fetched, 0 changed, 1 in all');
    const edited = await page('posts/second-post/index.html');
    expect(edited).toContain('A second post, edited');
    expect(edited).toContain('<strong>bold</strong>');
    expect(await page('index.html')).not.toContain('A third post');
    await expect(page('posts/third-post/index.html')).rejects.toThrow();
  });

  it('serves live pages: the published post, the draft a preview token opens, a refusal naming the collection', async () => {
    built = await serveBuilt(node, siteEnv, outDir);
    const shown = await live('/live/hello-world');
    expect(shown.status, shown.text).toBe(200);
    expect(shown.text).toContain('<h1 data-cms-field="title">Hello, world</h1>');
    expect(shown.text).toContain('<p data-cms-source="3">My first published document.</p>');
    await edit(
      ids.hello,
      { title: 'Hello, drafted', slug: 'hello-world', author: ids.ada },
      '# Hello\n\nA draft.',
      false,
    );
    const drafted = await live(`/live/hello-world?token=${await previewToken(ids.hello)}`);
    expect(drafted.text).toContain('<h1 data-cms-field="title">Hello, drafted</h1>');
    expect((await live('/live/hello-world')).text).toContain('Hello, world');
    expect((await live('/live/no-such-post')).status).toBe(404);
    const [head, payload, signature] = (await previewToken(ids.hello)).split('.') as [string, string, string];
    const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), project: 'other' };
    const foreign = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const refused = await live(`/live/hello-world?token=${foreign}`);
    expect(refused.status).toBe(502);
    expect(refused.text).toContain('cmsLiveLoader(livePosts, type "post")');
    expect(refused.text).toContain('project "other"');
  });

  it('follows the drafts the Studio posts in a framed preview, and posts clicks back (click-to-edit)', async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
    const tab = await browser.newPage();
    const src = `${built?.url}/live/hello-world?token=${await previewToken(ids.hello)}`;
    await tab.goto(`${studio.origin}/frame?src=${encodeURIComponent(src)}`);
    type Stub = { received: Array<{ kind: string }>; send(message: unknown): void };
    await tab.waitForFunction(() => (globalThis as unknown as Stub).received.some((m) => m.kind === 'ready'));
    const draft = (await server.request('GET', `/api/v1/content/${ids.hello}?draft=true`)).body.data;
    const typed = { ...draft, frontmatter: { ...draft.frontmatter, title: 'Typed live' }, body: '# T\n\nA live line.' };
    await tab.evaluate(
      (document) =>
        (globalThis as unknown as Stub).send({ type: 'cms:preview', kind: 'document', sequence: 1, document }),
      typed,
    );
    const frame = tab.frameLocator('iframe');
    await frame.locator('h1[data-cms-field="title"]', { hasText: 'Typed live' }).waitFor();
    await frame.locator('[data-cms-source="3"]', { hasText: 'A live line.' }).click();
    await frame.locator('h1[data-cms-field="title"]').click();
    await tab.waitForFunction(
      () => (globalThis as unknown as Stub).received.filter((m) => m.kind === 'focus').length >= 2,
    );
    expect(
      await tab.evaluate(() => (globalThis as unknown as Stub).received.filter((m) => m.kind === 'focus')),
    ).toEqual([
      { type: 'cms:preview', kind: 'focus', line: 3 },
      { type: 'cms:preview', kind: 'focus', field: 'title' },
    ]);
  });

  it('shows a published change under astro dev without a restart', async () => {
    const dev = await astroDev(node, siteEnv);
    try {
      const before = await (await fetch(`${dev.url}/posts/second-post/`)).text();
      expect(before).toContain('A second post, edited');
      await edit(ids.second, { title: 'Seen by astro dev', slug: 'second-post' }, 'Live in dev.');
      let shown = '';
      for (let i = 0; i < 120 && !shown.includes('Seen by astro dev'); i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
        shown = await (await fetch(`${dev.url}/posts/second-post/`)).text();
      }
      // astro dev marks elements with their source (data-astro-source-*).
      expect(shown, dev.output.join('')).toMatch(/<h1[^>]*>Seen by astro dev<\/h1>/);
    } finally {
      await dev.stop();
    }
  });
});
