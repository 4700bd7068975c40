/**
 * Brotli and gzip on the wire: negotiated from `Accept-Encoding`, `Vary: Accept-Encoding` on every text
 * answer, and the bytes decode to exactly the plain answer. Raw `node:http` requests: `fetch` would
 * decode (and choose the encoding) by itself.
 */

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type CmsServer, createServer } from '../../src/server.js';
import { createDocument, publishDocument, syncSchema } from '../content/fixtures.js';
import { fileUrl, uploadOk } from '../media-api/media-api-support.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestServer, TEST_PREVIEW_SECRET, TEST_SECRET, type TestServer } from '../support/test-server.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function get(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(raw: Raw): string {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw.bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw.bytes).toString('utf8');
  expect(encoding).toBeUndefined();
  return raw.bytes.toString('utf8');
}

const varies = (raw: Raw) =>
  String(raw.headers.vary ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase());

describe('API answers', () => {
  let t: TestServer;
  let auth: Record<string, string>;
  let itemUrl: string;

  beforeAll(async () => {
    t = await startTestServer();
    await syncSchema(t);
    auth = { authorization: `Bearer ${t.adminKey}`, 'x-cms-project': 'default', 'x-cms-environment': 'production' };
    // A body well over the compression threshold.
    const doc = await createDocument(t, { body: 'A paragraph about compression. '.repeat(200) });
    await publishDocument(t, doc.documentId);
    itemUrl = `${t.url}/api/v1/content/${doc.documentId}`;
  });
  afterAll(() => t?.close());

  it('sends a published read as Brotli, gzip or plain as asked, the same bytes decoded, from the cache too', async () => {
    const plain = await get(itemUrl, { ...auth, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain)).toContain('accept-encoding');
    const text = plain.bytes.toString('utf8');
    expect(JSON.parse(text).data.body).toContain('A paragraph about compression.');

    for (const [accept, expected] of [
      ['br, gzip', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['deflate', undefined],
    ] as const) {
      // Twice: the first may be read from the database, the second comes from the read cache.
      for (const round of [1, 2]) {
        const raw = await get(itemUrl, { ...auth, 'accept-encoding': accept });
        expect(raw.status, `${accept} #${round}`).toBe(200);
        expect(raw.headers['content-encoding'], `${accept} #${round}`).toBe(expected);
        expect(varies(raw)).toContain('accept-encoding');
        expect(varies(raw)).toContain('authorization');
        expect(decode(raw), `${accept} #${round}`).toBe(text);
        if (expected) expect(raw.bytes.byteLength).toBeLessThan(text.length / 3);
      }
    }
  });

  it('gives each encoding its own ETag, and answers 304 to the one it sent', async () => {
    const br = await get(itemUrl, { ...auth, 'accept-encoding': 'br' });
    const gzip = await get(itemUrl, { ...auth, 'accept-encoding': 'gzip' });
    const plain = await get(itemUrl, { ...auth });
    const tags = [br, gzip, plain].map((raw) => raw.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await get(itemUrl, { ...auth, 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    const other = await get(itemUrl, { ...auth, 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
    expect(other.status).toBe(200);
  });

  it('compresses other JSON answers too (the OpenAPI document, drafts), and leaves small ones plain', async () => {
    const openapi = await get(`${t.url}/api/v1/openapi.json`, { ...auth, 'accept-encoding': 'gzip' });
    expect(openapi.status).toBe(200);
    expect(openapi.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(openapi)).openapi).toMatch(/^3\./);
    const draft = await get(`${itemUrl}?draft=true`, { ...auth, 'accept-encoding': 'br' });
    expect(draft.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(draft)).data.body).toContain('compression');
    const small = await get(`${t.url}/api/v1/content/00000000-0000-4000-8000-000000000000`, {
      ...auth,
      'accept-encoding': 'br',
    });
    expect(small.status).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(decode(small)).error.code).toBeTruthy();
  });

  it('sends media files as stored, so byte ranges count the bytes of the file', async () => {
    const text = 'line of a stored text file\n'.repeat(100);
    const asset = await uploadOk(t, { filename: 'notes.txt', content: text });
    const whole = await get(fileUrl(t, asset), { 'accept-encoding': 'br, gzip' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.bytes.toString('utf8')).toBe(text);
    const part = await get(fileUrl(t, asset), { 'accept-encoding': 'br, gzip', range: 'bytes=5-12' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.bytes.toString('utf8')).toBe(text.slice(5, 13));
  });
});

describe('Studio files', () => {
  let dir: string;
  let server: CmsServer;
  let database: TestDatabase;
  let url: string;
  const script = `console.log(${JSON.stringify('studio '.repeat(400))});`;
  // Stand-ins for the build's `.br`/`.gz`: recognisable bytes, so the test sees they are sent as they are.
  const prebuiltBr = brotliCompressSync(Buffer.from(`${script}// br`));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cms-studio-compressed-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><html><head></head></html>');
    await writeFile(join(dir, 'assets', 'app-abc123.js'), script);
    await writeFile(join(dir, 'assets', 'app-abc123.js.br'), prebuiltBr);
    database = await createTestDatabase();
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      CMS_DATA_DIR: dir,
      CMS_SECRET: TEST_SECRET,
      CMS_PREVIEW_TOKEN_SECRET: TEST_PREVIEW_SECRET,
      LOG_LEVEL: 'silent',
    });
    server = await createServer(config, { db: database.db, studioDir: dir });
    url = await server.listen();
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the Brotli file made at build time as it is', async () => {
    const raw = await get(`${url}/studio/assets/app-abc123.js`, { 'accept-encoding': 'gzip, br' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe('br');
    expect(raw.headers['content-type']).toMatch(/^text\/javascript/);
    expect(raw.headers['cache-control']).toContain('immutable');
    expect(varies(raw)).toContain('accept-encoding');
    expect(Buffer.compare(raw.bytes, prebuiltBr)).toBe(0);
  });

  it('compresses a file with no build-time form, and sends plain bytes to a client that accepts none', async () => {
    const gzip = await get(`${url}/studio/assets/app-abc123.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decode(gzip)).toBe(script);
    const plain = await get(`${url}/studio/assets/app-abc123.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.toString('utf8')).toBe(script);
    expect(varies(plain)).toContain('accept-encoding');
  });
});
