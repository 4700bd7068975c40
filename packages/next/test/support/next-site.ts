/**
 * examples/next-site as the build test runs it: `next build` and `next start` (Next from npm, pinned in
 * the lockfile) in child processes against a test server, a free port, the CMS content the pages read,
 * and signed webhook deliveries as the CMS sends them (core's `signWebhook`, the function the server
 * signs with).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signWebhook } from '@cms/core';
import { expect } from 'vitest';
import type { TestServer } from '../../../server/test/support/test-server.js';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
export const site = join(repo, 'examples/next-site');
const nextBin = join(repo, 'node_modules/next/dist/bin/next');
export const WEBHOOK_SECRET = 'whsec_next_site_0123456789abcdef';

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** `next build` of the site; its output is kept for the assertion message. */
export function nextBuild(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [nextBin, 'build'], { cwd: site, env, timeout: 300_000 }, (error, out, err) =>
      done({ code: error ? 1 : 0, output: `${out}${err}` }),
    );
  });
}

/** A running `next start`. */
export interface StartedSite {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * `next start` on a free port, bound to every address as a site usually is (no `-H`), so that Next.js
 * builds `request.url` from `localhost` while the test asks for 127.0.0.1, as a browser may.
 */
export async function nextStart(env: NodeJS.ProcessEnv): Promise<StartedSite> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
    cwd: site,
    env,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 240; i++) {
    const ready = await fetch(`${url}/api/draft/exit`, { redirect: 'manual' }).then(
      (response) => response.status,
      () => 0,
    );
    if (ready !== 0) {
      return {
        url,
        port,
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error('next start did not answer');
}

/** Writes a draft (full frontmatter and body) and publishes it; answers the document. */
export async function publish(
  server: TestServer,
  schemaHash: string,
  documentId: string,
  frontmatter: Record<string, unknown>,
  body: string,
) {
  const current = await server.request('GET', `/api/v1/content/${documentId}?draft=true`);
  const update = await server.request('PUT', `/api/v1/content/${documentId}`, {
    headers: { 'x-cms-schema-hash': schemaHash },
    body: { frontmatter, body, draftRevision: current.body.data.draftRevision },
  });
  expect(update.status, update.text).toBe(200);
  const published = await server.request('POST', `/api/v1/content/${documentId}/publish`, { body: {} });
  expect(published.status, published.text).toBe(200);
  return update.body.data as { documentId: string; type: string; path: string; locale: string; version: number };
}

/** Creates and publishes a document; answers its id. */
export async function createPublished(
  server: TestServer,
  schemaHash: string,
  document: { type: string; path: string; frontmatter: Record<string, unknown>; body?: string },
): Promise<string> {
  const created = await server.request('POST', '/api/v1/content', {
    headers: { 'x-cms-schema-hash': schemaHash },
    body: document,
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.documentId as string;
  expect((await server.request('POST', `/api/v1/content/${id}/publish`, { body: {} })).status).toBe(200);
  return id;
}

/** Sends the site the signed `content.published` delivery of `document`; answers the tags revalidated. */
export async function deliver(
  siteUrl: string,
  document: { documentId: string; type: string; path: string; locale: string; version: number },
): Promise<string[]> {
  const body = JSON.stringify({
    event: 'content.published',
    timestamp: new Date().toISOString(),
    project: 'default',
    environment: 'production',
    user: { id: 'u1', email: '' },
    document: { ...document, translationGroupId: document.documentId, format: 'md' },
  });
  const headers = signWebhook({ secret: WEBHOOK_SECRET, body, deliveryId: `dlv_${document.documentId}` });
  const hook = await fetch(`${siteUrl}/api/revalidate`, { method: 'POST', body, headers: { ...headers } });
  expect(hook.status).toBe(200);
  return ((await hook.json()) as { revalidated: string[] }).revalidated;
}

/** The quick-start schema (`post` and `author`), synced; answers its hash. */
export async function syncQuickStart(server: TestServer): Promise<string> {
  const schema = JSON.parse(await readFile(join(repo, 'examples/quick-start/schema.json'), 'utf8'));
  const sync = await server.request('PUT', '/api/v1/schema/sync', { body: schema });
  expect(sync.status, sync.text).toBe(200);
  return schema.schemaHash;
}
