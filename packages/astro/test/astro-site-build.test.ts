/**
 * A real Astro site (examples/astro-site, `astro` from npm) built with `@cms/astro` against a running
 * server: its pages carry the published posts, Markdown rendered by Astro; after one document
 * changes, the next build fetches that document only and its page changes.
 * Astro needs Node >= 22.12, so the build runs on Node 22 from the npm `node` package (as
 * .ci/node-smoke does). Slow (two site builds): it runs with ASTRO_BUILD=1 (a step of .ci/run).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';

vi.setConfig({ testTimeout: 300_000 });

const enabled = process.env.ASTRO_BUILD === '1';
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const site = join(repo, 'examples/astro-site');
const quickStart = join(repo, 'examples/quick-start');
/** The site's own `astro` (a workspace: npm installs it there or at the root). */
const astroBin = [join(site, 'node_modules/astro/bin/astro.mjs'), join(repo, 'node_modules/astro/bin/astro.mjs')].find(
  (file) => existsSync(file),
) as string;

let server: TestServer;
let node22: string;
let scratch: string;
let schemaHash: string;
/** A site's key: `content:read` only. */
let siteKey: string;
const ids: Record<string, string> = {};

function build(): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      node22,
      [astroBin, 'build', '--root', site],
      {
        cwd: site,
        timeout: 240_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? scratch,
          ASTRO_TELEMETRY_DISABLED: '1',
          NO_COLOR: '1',
          CMS_SERVER_URL: server.url,
          CMS_API_KEY: siteKey,
          CMS_PROJECT: 'default',
          CMS_ENVIRONMENT: 'production',
          ASTRO_OUT_DIR: join(scratch, 'dist'),
          ASTRO_CACHE_DIR: join(scratch, 'cache'),
        },
      },
      (error, stdout, stderr) => {
        if (process.env.ASTRO_BUILD_LOG) console.log(stdout, stderr);
        done({ code: error ? 1 : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

const page = (path: string) => readFile(join(scratch, 'dist', path), 'utf8');

async function publishPost(path: string, title: string, body: string): Promise<string> {
  const created = await server.request('POST', '/api/v1/content', {
    headers: { 'x-cms-schema-hash': schemaHash },
    body: { type: 'post', path, frontmatter: { title, slug: path }, body },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.documentId as string;
  const published = await server.request('POST', `/api/v1/content/${id}/publish`, { body: {} });
  expect(published.status, published.text).toBe(200);
  return id;
}

beforeAll(async () => {
  if (!enabled) return;
  node22 = execFileSync('npx', ['-y', 'node@22', '-p', 'process.execPath'], { encoding: 'utf8' }).trim();
  scratch = await mkdtemp(join(tmpdir(), 'cms-astro-'));
  server = await startTestServer();
  siteKey = await server.createKey({ scopes: ['content:read'] });
  const schema = JSON.parse(await readFile(join(quickStart, 'schema.json'), 'utf8'));
  schemaHash = schema.schemaHash;
  const sync = await server.request('PUT', '/api/v1/schema/sync', { body: schema });
  expect(sync.status, sync.text).toBe(200);
  const post = JSON.parse(await readFile(join(quickStart, 'post.json'), 'utf8'));
  ids.hello = await publishPost(post.path, post.frontmatter.title, post.body);
  ids.second = await publishPost('second-post', 'A second post', 'Some *emphasis* here.');
  ids.third = await publishPost('third-post', 'A third post', 'The third one.');
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.runIf(enabled)('an Astro site built with cmsLoader', () => {
  it('has a page per published post, Markdown rendered by Astro', async () => {
    const first = await build();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('post: full load, 3 document(s) fetched, 3 changed, 3 in all');
    const hello = await page('posts/hello-world/index.html');
    expect(hello).toContain('<h1>Hello, world</h1>');
    expect(hello).toContain('<h1 id="hello">Hello</h1>');
    expect(hello).toContain('My first published document.');
    expect(await page('posts/second-post/index.html')).toContain('<em>emphasis</em>');
    const index = await page('index.html');
    expect(index).toContain('A third post');
  });

  it('after one document changes, the next build fetches only it and its page changes', async () => {
    const current = await server.request('GET', `/api/v1/content/${ids.second}?draft=true`);
    const update = await server.request('PUT', `/api/v1/content/${ids.second}`, {
      headers: { 'x-cms-schema-hash': schemaHash },
      body: {
        frontmatter: { title: 'A second post, edited', slug: 'second-post' },
        body: 'Now with **bold** text.',
        draftRevision: current.body.data.draftRevision,
      },
    });
    expect(update.status, update.text).toBe(200);
    expect((await server.request('POST', `/api/v1/content/${ids.second}/publish`, { body: {} })).status).toBe(200);

    const second = await build();
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('post: incremental load, 1 document(s) fetched, 1 changed, 3 in all');
    const edited = await page('posts/second-post/index.html');
    expect(edited).toContain('A second post, edited');
    expect(edited).toContain('<strong>bold</strong>');
    expect(await page('posts/hello-world/index.html')).toContain('My first published document.');
  });

  it('a post unpublished since the last build leaves the site', async () => {
    expect((await server.request('POST', `/api/v1/content/${ids.third}/unpublish`, { body: {} })).status).toBe(200);
    const third = await build();
    expect(third.code, third.output).toBe(0);
    expect(third.output).toContain('2 in all');
    expect(await page('index.html')).not.toContain('A third post');
    await expect(page('posts/third-post/index.html')).rejects.toThrow();
  });
});
