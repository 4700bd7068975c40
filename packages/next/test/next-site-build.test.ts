/**
 * examples/next-site built with `next build` and served with `next start` against a running server,
 * once, asserting what a visitor and a writer notice:
 * - the published posts, authors resolved;
 * - after a publish, the signed webhook's answer means the very next request shows the change (no
 *   stale-while-revalidate answer), in several rounds;
 * - a publish re-renders only the pages that show the document: another post's page stays cached;
 *   renaming the author refreshes the posts that show the name (reads with `resolve` carry its tag);
 * - the preview route opened at 127.0.0.1 redirects to 127.0.0.1 (Next builds `request.url` from
 *   `localhost`), and the draft shows;
 * - in Chromium, the post page framed by a Studio stand-in on another origin follows the drafts it is
 *   posted (subscribeToPreview) and posts clicks on the title and a body line back (click-to-edit);
 * - a second `next build`, reusing `.next/cache`, after a publish the running site never heard of,
 *   shows the change: a build never serves pre-change data from the fetch cache.
 * Next from npm, pinned in the lockfile; run with NEXT_BUILD=1 after `npm run build` (a step of .ci/run;
 * NEXT_BUILD_KEEP=1 keeps examples/next-site/.next to look at).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import {
  createPublished,
  deliver,
  nextBuild,
  nextStart,
  publish,
  type StartedSite,
  site,
  syncQuickStart,
  WEBHOOK_SECRET,
} from './support/next-site.js';
import { type StudioStub, startStudioStub } from './support/studio-stub.js';

vi.setConfig({ testTimeout: 400_000 });

const enabled = process.env.NEXT_BUILD === '1';

let server: TestServer;
let studio: StudioStub;
let siteEnv: NodeJS.ProcessEnv;
let running: StartedSite | undefined;
let browser: Browser | undefined;

/** The Studio stand-in's page (support/studio-stub.ts). */
interface Stub {
  received: Array<{ kind: string }>;
  send(message: unknown): void;
}
let schemaHash: string;
const ids = { ada: '', hello: '', second: '', third: '' };

const get = (path: string, init: RequestInit = {}) => fetch(`${running?.url}${path}`, init);
/** A page's HTML without its scripts and React's text separators: what a visitor reads, with the markup. */
const page = async (path: string) =>
  (await (await get(path)).text()).replace(/<script[\s\S]*?<\/script>/g, '').replace(/<!-- -->/g, '');
/** Whether Next.js answered the page from its cache (`HIT`) or rendered it for this request. */
const cacheState = async (path: string) => (await get(path)).headers.get('x-nextjs-cache');

async function previewToken(documentId: string): Promise<string> {
  const issued = await server.request('POST', `/api/v1/content/${documentId}/preview-token`, { body: {} });
  expect(issued.status, issued.text).toBe(200);
  return issued.body.data.token;
}

const post = (title: string, extra: Record<string, unknown> = {}) => ({ title, slug: 'x', tags: [], ...extra });

beforeAll(async () => {
  if (!enabled) return;
  server = await startTestServer();
  studio = await startStudioStub();
  schemaHash = await syncQuickStart(server);
  ids.ada = await createPublished(server, schemaHash, {
    type: 'author',
    path: 'ada',
    frontmatter: { name: 'Ada' },
  });
  for (const [key, path, title] of [
    ['hello', 'hello-world', 'Hello, world'],
    ['second', 'second-post', 'A second post'],
    ['third', 'third-post', 'A third post'],
  ] as const) {
    ids[key] = await createPublished(server, schemaHash, {
      type: 'post',
      path,
      frontmatter: post(title, key === 'hello' ? { slug: path, author: ids.ada } : { slug: path }),
      body: `# ${title}\n\nFirst paragraph of ${path}.`,
    });
  }
  siteEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NEXT_TELEMETRY_DISABLED: '1',
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: await server.createKey({ scopes: ['content:read', 'content:read:draft'] }),
    CMS_PROJECT: 'default',
    CMS_ENVIRONMENT: 'production',
    CMS_WEBHOOK_SECRET: WEBHOOK_SECRET,
    CMS_STUDIO_ORIGIN: studio.origin,
  };
  const built = await nextBuild(siteEnv);
  expect(built.code, built.output).toBe(0);
  running = await nextStart(siteEnv);
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await studio?.close();
  await server?.close();
  if (enabled && !process.env.NEXT_BUILD_KEEP) await rm(join(site, '.next'), { recursive: true, force: true });
});

describe.runIf(enabled)('examples/next-site with next build and next start', () => {
  it('serves the published posts with their authors resolved', async () => {
    const index = await page('/');
    expect(index).toContain('>Hello, world</a>');
    expect(index).toContain(' by Ada');
    const hello = await page('/posts/hello-world');
    expect(hello).toContain('<h1 data-cms-field="title">Hello, world</h1>');
    expect(hello).toContain('<p data-cms-field="author">By Ada</p>');
    expect(hello).toContain('<p data-cms-source="3">First paragraph of hello-world.</p>');
  });

  it('shows a publish to the very next visitor once the webhook is answered, round after round', async () => {
    for (let round = 1; round <= 3; round++) {
      const title = `Hello, round ${round}`;
      const changed = await publish(
        server,
        schemaHash,
        ids.hello,
        post(title, { slug: 'hello-world', author: ids.ada }),
        `# ${title}\n\nRound ${round}.`,
      );
      // Cached until told: without the webhook the page stays as it was.
      expect(await page('/posts/hello-world')).not.toContain(title);
      expect(await deliver(running?.url ?? '', changed)).toEqual([
        'cms:default:production:post',
        `cms:document:${ids.hello}`,
        'cms:default:production:post:path:hello-world',
      ]);
      expect(await page('/posts/hello-world'), `round ${round}`).toContain(`<h1 data-cms-field="title">${title}</h1>`);
      expect(await page('/'), `round ${round}`).toContain(`>${title}</a>`);
    }
  });

  it('re-renders only the pages that show the published document', async () => {
    for (const path of ['/posts/second-post', '/posts/third-post']) await page(path);
    expect(await cacheState('/posts/third-post')).toBe('HIT');
    const changed = await publish(
      server,
      schemaHash,
      ids.second,
      post('A second post, edited', { slug: 'second-post' }),
      'Edited.',
    );
    await deliver(running?.url ?? '', changed);
    expect(await cacheState('/posts/third-post')).toBe('HIT');
    expect(await cacheState('/posts/hello-world')).toBe('HIT');
    expect(await page('/posts/second-post')).toContain('A second post, edited');
  });

  it('refreshes the posts that show an author when the author is renamed, and only those', async () => {
    await page('/posts/third-post');
    const renamed = await publish(server, schemaHash, ids.ada, { name: 'Ada Lovelace' }, '');
    expect(await deliver(running?.url ?? '', renamed)).toContain(`cms:document:${ids.ada}`);
    expect(await page('/posts/hello-world')).toContain('By Ada Lovelace');
    expect(await page('/')).toContain(' by Ada Lovelace');
    expect(await cacheState('/posts/third-post')).toBe('HIT');
  });

  it('opens the preview at the address the browser asked for (127.0.0.1), and shows the draft', async () => {
    const current = await server.request('GET', `/api/v1/content/${ids.third}?draft=true`);
    const drafted = await server.request('PUT', `/api/v1/content/${ids.third}`, {
      headers: { 'x-cms-schema-hash': schemaHash },
      body: {
        frontmatter: post('A third post, drafted', { slug: 'third-post' }),
        body: 'Draft.',
        draftRevision: current.body.data.draftRevision,
      },
    });
    expect(drafted.status, drafted.text).toBe(200);
    const opened = await get(`/api/draft?token=${await previewToken(ids.third)}`, { redirect: 'manual' });
    expect(opened.status).toBe(307);
    expect(opened.headers.get('location')).toBe(`${running?.url}/posts/third-post`);
    const cookie = opened.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const shown = await (await get('/posts/third-post', { headers: { cookie } })).text();
    expect(shown).toContain('A third post, drafted');
    expect(shown).toContain('Draft mode: every draft');
    expect(await page('/posts/third-post')).not.toContain('A third post, drafted');
  });

  it('follows the drafts the Studio posts and posts clicks back to it (live preview, click-to-edit)', async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
    const tab = await browser.newPage();
    const src = `${running?.url}/api/draft?token=${await previewToken(ids.hello)}`;
    await tab.goto(`${studio.origin}/frame?src=${encodeURIComponent(src)}`);
    const frame = tab.frameLocator('#site');
    await tab.waitForFunction(() =>
      (globalThis as unknown as Stub).received.some((message) => message.kind === 'ready'),
    );
    const draft = (await server.request('GET', `/api/v1/content/${ids.hello}?draft=true&resolve=author`)).body.data;
    const typed = {
      ...draft,
      frontmatter: { ...draft.frontmatter, title: 'Typed in the Studio' },
      body: '# T\n\nA live line.',
    };
    await tab.evaluate(
      (document) =>
        (globalThis as unknown as Stub).send({ type: 'cms:preview', kind: 'document', sequence: 1, document }),
      typed,
    );
    await frame.locator('h1[data-cms-field="title"]', { hasText: 'Typed in the Studio' }).waitFor();
    await frame.locator('[data-cms-source="3"]', { hasText: 'A live line.' }).click();
    await frame.locator('h1[data-cms-field="title"]').click();
    await tab.waitForFunction(
      () => (globalThis as unknown as Stub).received.filter((m) => m.kind === 'focus').length >= 2,
    );
    const focus = await tab.evaluate(() => (globalThis as unknown as Stub).received.filter((m) => m.kind === 'focus'));
    expect(focus).toEqual([
      { type: 'cms:preview', kind: 'focus', line: 3 },
      { type: 'cms:preview', kind: 'focus', field: 'title' },
    ]);
  });

  it('rebuilt after a publish the running site never heard of, shows the change (no pre-change fetch cache)', async () => {
    await running?.stop();
    running = undefined;
    await publish(server, schemaHash, ids.third, post('A third post, rebuilt', { slug: 'third-post' }), 'Rebuilt.');
    const built = await nextBuild(siteEnv);
    expect(built.code, built.output).toBe(0);
    running = await nextStart(siteEnv);
    expect(await page('/posts/third-post')).toContain('<h1 data-cms-field="title">A third post, rebuilt</h1>');
    expect(await page('/')).toContain('>A third post, rebuilt</a>');
    expect(await page('/posts/hello-world')).toContain('By Ada Lovelace');
  });
});
