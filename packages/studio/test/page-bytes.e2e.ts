import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field } from '../../server/test/content/fixtures.js';
import {
  createFirstAdmin,
  launchBrowser,
  type StudioServer,
  signInAs,
  startStudioServer,
} from './support/studio-harness.js';

/**
 * Byte budgets measured as a browser loads the Studio (docs/studio.md "Loading and speed"): each page is
 * opened in a fresh browser context (nothing cached), and every script Chromium fetches for it, module
 * preloads included, is counted at the size of its Brotli file in the build (what the server sends a
 * browser that accepts Brotli). The API's JSON is counted as received.
 */
const DIST_ASSETS = fileURLToPath(new URL('../dist/assets/', import.meta.url));
const KB = 1000;
const BUDGETS = { dashboard: 150 * KB, markdownEditor: 350 * KB, mdxEditor: 350 * KB };
/** Ten documents of 3,000 lines each: a dashboard that read their bodies would read megabytes. */
const DOCUMENTS = 10;
const LONG_BODY = Array.from({ length: 3000 }, (_, i) => `Line ${i + 1} of a long document, with words.`).join('\n');

const SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'post',
      directory: 'posts',
      localized: false,
      fields: { title: field('string', { required: true, checks: [{ type: 'max', value: 120 }] }) },
    },
  ],
};
const HASH = computeSchemaHash(SCHEMA);

/** The Brotli size of a build file, as the server sends it (`.br` beside it; small files are compressed here). */
function brotliBytes(file: string): number {
  const path = `${DIST_ASSETS}${file}`;
  if (existsSync(`${path}.br`)) return statSync(`${path}.br`).size;
  return brotliCompressSync(readFileSync(path), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
}

interface Loaded {
  scripts: string[];
  scriptBytes: number;
  apiBytes: number;
  apiPaths: string[];
}

describe('what a browser downloads per Studio page', () => {
  let server: StudioServer;
  let browser: Browser;
  let session: Awaited<ReturnType<BrowserContext['storageState']>>;
  const ids = { markdown: '', mdx: '' };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer(), launchBrowser()]);
    await createFirstAdmin(server, SCHEMA);
    for (let i = 0; i < DOCUMENTS; i += 1) {
      const created = await server.request('POST', '/api/v1/content', {
        headers: { 'x-cms-schema-hash': HASH },
        body: {
          type: 'post',
          path: `posts/long-${i}`,
          format: i === 0 ? 'mdx' : 'md',
          frontmatter: { title: `Long read ${i}` },
          body: LONG_BODY,
        },
      });
      expect(created.status, created.text).toBe(201);
      ids[i === 0 ? 'mdx' : 'markdown'] ||= created.body.data.documentId;
    }
    const context = await browser.newContext();
    await signInAs(await context.newPage(), server);
    session = await context.storageState();
    await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens `path` in a fresh context with the session, waits for `ready`, and counts what came. */
  async function load(path: string, ready: (page: Page) => Promise<unknown>): Promise<Loaded> {
    const context = await browser.newContext({ storageState: session });
    const page = await context.newPage();
    const scripts = new Set<string>();
    let apiBytes = 0;
    const apiPaths: string[] = [];
    const counting: Promise<void>[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      const asset = /^\/studio\/assets\/([^/]+\.js)$/.exec(url.pathname)?.[1];
      if (asset) scripts.add(asset);
      if (url.pathname.startsWith('/api/') && response.headers()['content-type']?.includes('json')) {
        apiPaths.push(`${url.pathname}${url.search}`);
        counting.push(
          response.body().then(
            (body) => {
              apiBytes += body.byteLength;
            },
            () => undefined,
          ),
        );
      }
    });
    await page.goto(`${server.url}/studio${path}`);
    await ready(page);
    await Promise.all(counting);
    await context.close();
    const list = [...scripts].sort();
    return { scripts: list, scriptBytes: list.reduce((sum, file) => sum + brotliBytes(file), 0), apiBytes, apiPaths };
  }

  it('keeps the dashboard within 150 KB of Brotli JavaScript, and reads no document body', async () => {
    const loaded = await load('/', async (page) => {
      await page.getByRole('heading', { name: 'Recent changes' }).waitFor();
      await page.getByRole('link', { name: 'Long read 9' }).waitFor();
    });
    console.log(
      `dashboard: ${loaded.scriptBytes} B of Brotli in ${loaded.scripts.length} scripts; ${loaded.apiBytes} B of JSON`,
    );
    expect(loaded.scriptBytes, loaded.scripts.join(', ')).toBeLessThanOrEqual(BUDGETS.dashboard);
    // No page's chunk but the dashboard's own: no settings, admin or editor page is fetched ahead.
    expect(loaded.scripts.filter((file) => /page-|editor|codemirror|settings|panel/.test(file))).toEqual([]);
    // Ten rows of recent changes, without the 10 × 3,000 lines of their bodies.
    expect(loaded.apiBytes, loaded.apiPaths.join('\n')).toBeLessThan(40 * KB);
  });

  it('keeps the editor of a Markdown document within 350 KB', async () => {
    const loaded = await load(`/content/post/${ids.markdown}`, async (page) => {
      await page.locator('.cm-content').waitFor();
      await page.locator('.preview .prose').waitFor();
    });
    console.log(`Markdown editor: ${loaded.scriptBytes} B of Brotli in ${loaded.scripts.length} scripts`);
    expect(loaded.scriptBytes, loaded.scripts.join(', ')).toBeLessThanOrEqual(BUDGETS.markdownEditor);
  });

  it('keeps the editor of an MDX document within 350 KB, its check included', async () => {
    const loaded = await load(`/content/post/${ids.mdx}`, async (page) => {
      const check = page.waitForResponse((response) => /\/assets\/mdx-check-[^/]+\.js$/.test(response.url()));
      await page.locator('.cm-content').waitFor();
      await page.locator('.preview .prose').waitFor();
      await check;
    });
    console.log(`MDX editor: ${loaded.scriptBytes} B of Brotli in ${loaded.scripts.length} scripts`);
    expect(loaded.scripts.some((file) => file.startsWith('mdx-check-'))).toBe(true);
    expect(loaded.scriptBytes, loaded.scripts.join(', ')).toBeLessThanOrEqual(BUDGETS.mdxEditor);
  });
});
