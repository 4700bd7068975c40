/**
 * examples/next-site built with `next build` and served with `next start` (Next from npm, pinned in
 * the lockfile) against a running server: its pages show the published quick-start post; after the post
 * changes and a signed webhook reaches `/api/revalidate`, the page shows the change (the SDK's reads
 * carried the tags `revalidateHandler` revalidated). A full Next build costs about a minute, so this is
 * not a step of .ci/run (docs/frameworks.md): run it with NEXT_BUILD=1 after `npm run build`
 * (NEXT_BUILD_KEEP=1 keeps examples/next-site/.next to look at).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';

vi.setConfig({ testTimeout: 300_000 });

const enabled = process.env.NEXT_BUILD === '1';
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const site = join(repo, 'examples/next-site');
const nextBin = join(repo, 'node_modules/next/dist/bin/next');
const SECRET = 'whsec_next_site_0123456789abcdef';

let server: TestServer;
let siteEnv: NodeJS.ProcessEnv;
let started: ChildProcess | undefined;
let siteUrl: string;
let schemaHash: string;
let postId: string;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

function nextBuild(): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [nextBin, 'build'], { cwd: site, env: siteEnv, timeout: 240_000 }, (error, out, err) =>
      done({ code: error ? 1 : 0, output: `${out}${err}` }),
    );
  });
}

async function nextStart(): Promise<void> {
  const port = await freePort();
  siteUrl = `http://127.0.0.1:${port}`;
  started = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: site,
    env: siteEnv,
    stdio: 'ignore',
  });
  for (let i = 0; i < 120; i++) {
    const ready = await fetch(siteUrl).then(
      (response) => response.status,
      () => 0,
    );
    if (ready !== 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('next start did not answer');
}

const page = async (path: string) => (await fetch(`${siteUrl}${path}`)).text();

/** A page after revalidation: `revalidateTag(tag, 'max')` serves the stale page once while it renders anew. */
async function pageOnceRevalidated(path: string, text: string): Promise<string> {
  let shown = '';
  for (let i = 0; i < 20 && !shown.includes(text); i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    shown = await page(path);
  }
  return shown;
}

beforeAll(async () => {
  if (!enabled) return;
  server = await startTestServer();
  const schema = JSON.parse(await readFile(join(repo, 'examples/quick-start/schema.json'), 'utf8'));
  schemaHash = schema.schemaHash;
  expect((await server.request('PUT', '/api/v1/schema/sync', { body: schema })).status).toBe(200);
  const post = JSON.parse(await readFile(join(repo, 'examples/quick-start/post.json'), 'utf8'));
  const created = await server.request('POST', '/api/v1/content', {
    headers: { 'x-cms-schema-hash': schemaHash },
    body: post,
  });
  expect(created.status, created.text).toBe(201);
  postId = created.body.data.documentId;
  expect((await server.request('POST', `/api/v1/content/${postId}/publish`, { body: {} })).status).toBe(200);
  siteEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NEXT_TELEMETRY_DISABLED: '1',
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: await server.createKey({ scopes: ['content:read'] }),
    CMS_PROJECT: 'default',
    CMS_ENVIRONMENT: 'production',
    CMS_WEBHOOK_SECRET: SECRET,
  };
}, 240_000);

afterAll(async () => {
  if (started?.pid) started.kill('SIGTERM');
  await server?.close();
  if (enabled && !process.env.NEXT_BUILD_KEEP) await rm(join(site, '.next'), { recursive: true, force: true });
});

describe.runIf(enabled)('examples/next-site with next build', () => {
  it('builds, and serves the published post on the index and on its page', async () => {
    const built = await nextBuild();
    expect(built.code, built.output).toBe(0);
    await nextStart();
    expect(await page('/')).toContain('Hello, world');
    const post = await page('/posts/hello-world');
    expect(post).toContain('<h1>Hello, world</h1>');
    expect(post).toContain('My first published document.');
  });

  it('shows a published change once the webhook revalidated the tags its reads carry', async () => {
    const current = await server.request('GET', `/api/v1/content/${postId}?draft=true`);
    const update = await server.request('PUT', `/api/v1/content/${postId}`, {
      headers: { 'x-cms-schema-hash': schemaHash },
      body: {
        frontmatter: { title: 'Hello, edited', slug: 'hello-world', tags: ['first'] },
        body: '# Hello\n\nEdited.',
        draftRevision: current.body.data.draftRevision,
      },
    });
    expect(update.status, update.text).toBe(200);
    expect((await server.request('POST', `/api/v1/content/${postId}/publish`, { body: {} })).status).toBe(200);
    // Cached for an hour: without the webhook the page stays as it was.
    expect(await page('/posts/hello-world')).toContain('Hello, world');

    const body = JSON.stringify({
      event: 'content.published',
      timestamp: new Date().toISOString(),
      project: 'default',
      environment: 'production',
      user: { id: 'u1', email: '' },
      document: {
        documentId: postId,
        translationGroupId: postId,
        type: 'post',
        path: 'hello-world',
        locale: '__cms_default__',
        format: 'md',
        version: 2,
      },
    });
    const headers = signWebhook({ secret: SECRET, body, deliveryId: 'dlv_next_site' });
    const hook = await fetch(`${siteUrl}/api/revalidate`, { method: 'POST', body, headers: { ...headers } });
    expect(hook.status).toBe(200);
    expect(await hook.json()).toEqual({ revalidated: ['cms:default:production:post', `cms:document:${postId}`] });

    expect(await pageOnceRevalidated('/posts/hello-world', 'Hello, edited')).toContain('<h1>Hello, edited</h1>');
    expect(await pageOnceRevalidated('/', 'Hello, edited')).toContain('>Hello, edited</a>');
  });
});
