import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { LogStream } from '../../src/http/create-app.js';
import { type CmsServer, createServer } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { TEST_PREVIEW_SECRET, TEST_SECRET } from '../support/test-server.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/studio/assets/app-abc123.js"></script></head></html>';

async function startWith(
  studioDir: string,
  logStream?: LogStream,
): Promise<{ url: string; server: CmsServer; database: TestDatabase }> {
  const database = await createTestDatabase();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_DATA_DIR: studioDir,
    CMS_SECRET: TEST_SECRET,
    CMS_PREVIEW_TOKEN_SECRET: TEST_PREVIEW_SECRET,
    LOG_LEVEL: logStream ? 'warn' : 'silent',
  });
  const server = await createServer(config, { db: database.db, studioDir, ...(logStream ? { logStream } : {}) });
  const url = await server.listen();
  return { url, server, database };
}

describe('the Studio at /studio', () => {
  let dir: string;
  let url: string;
  let server: CmsServer;
  let database: TestDatabase;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cms-studio-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'assets', 'app-abc123.js'), 'console.log("studio");');
    await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    ({ url, server, database } = await startWith(dir));
  });

  afterAll(async () => {
    await server.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('redirects /studio to /studio/, keeping the query', async () => {
    const plain = await fetch(`${url}/studio`, { redirect: 'manual' });
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe('/studio/');
    const withQuery = await fetch(`${url}/studio?x=1`, { redirect: 'manual' });
    expect(withQuery.headers.get('location')).toBe('/studio/?x=1');
  });

  it('answers index.html uncached, with the page rules', async () => {
    const response = await fetch(`${url}/studio/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.text()).toBe(INDEX);
  });

  it('answers index.html for client-side routes, with their query strings', async () => {
    for (const path of [
      '/studio/login',
      '/studio/setup?token=abc',
      '/studio/cli/authorize?challenge=x',
      '/studio/p/default/production/content/post',
    ]) {
      const response = await fetch(`${url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year and serves them with their type', async () => {
    const response = await fetch(`${url}/studio/assets/app-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe('console.log("studio");');
  });

  it('revalidates files outside assets/', async () => {
    const response = await fetch(`${url}/studio/favicon.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    const response = await fetch(`${url}/studio/assets/app-old999.js`);
    expect(response.status).toBe(404);
  });

  it('never serves a file outside the build', async () => {
    await writeFile(join(dir, '..', 'cms-studio-secret.txt'), 'secret').catch(() => undefined);
    for (const path of [
      '/studio/../package.json',
      '/studio/%2e%2e/cms-studio-secret.txt',
      '/studio/assets/%2e%2e%2f%2e%2e%2fcms-studio-secret.txt',
    ]) {
      const response = await fetch(`${url}${path}`);
      expect(await response.text(), path).not.toBe('secret');
    }
    await rm(join(dir, '..', 'cms-studio-secret.txt'), { force: true });
  });

  it('serves the page to a browser holding a stale session cookie', async () => {
    const response = await fetch(`${url}/studio/login`, { headers: { cookie: 'cms_session=not-a-valid-token' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
  });

  it('leaves the API as it was', async () => {
    const response = await fetch(`${url}/api/v1/me`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error.code).toBe('UNAUTHORIZED');
  });
});

describe('the Studio before it is built', () => {
  it('says how to build it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-studio-empty-'));
    const lines: Array<Record<string, any>> = [];
    const { url, server, database } = await startWith(dir, { write: (line) => lines.push(JSON.parse(line)) });
    try {
      const response = await fetch(`${url}/studio/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build -w @cms/studio');
      // Like every 503, said at warn with its cause.
      expect(lines.filter((line) => line.level === 40 && line.studioDir === dir)).toMatchObject([
        { msg: 'the Studio is not built: run `npm run build -w @cms/studio`' },
      ]);
    } finally {
      await server.close();
      await database.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
