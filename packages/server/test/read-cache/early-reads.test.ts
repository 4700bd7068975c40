import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { expectError } from '../identity/identity-helpers.js';
import { testClock } from '../identity/mfa-helpers.js';
import { rawRequest } from '../support/raw-http.js';
import {
  type RequestOptions,
  sendRequest,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '../support/test-server.js';

// A cached published read to an API key is answered before routing (http/early-reads.ts) when memory
// decides every access step; everything else takes the full chain. What a caller sees must not differ.

const lines: Array<Record<string, unknown>> = [];
const clock = testClock();
let t: TestServer;
let item: string;
beforeAll(async () => {
  t = await startTestServer({
    env: { LOG_LEVEL: 'info', CMS_HTTP_CACHE_MAX_AGE_SECONDS: '60' },
    clock: clock.now,
    logStream: { write: (line) => lines.push(JSON.parse(line)) },
  });
  await syncSchema(t);
  // A body over the compression threshold, so the encoded representations are exercised.
  const doc = await createDocument(t, {
    frontmatter: postFrontmatter({ title: 'Early' }),
    body: 'Published prose that is read often. '.repeat(80),
  });
  await publishDocument(t, doc.documentId);
  item = `/api/v1/content/${doc.documentId}`;
});
afterAll(() => t.close());

/** The request line logged for the answer that carried this request id. */
function requestLine(response: TestResponse): Record<string, unknown> | undefined {
  const id = response.headers.get('x-request-id');
  return lines.find((line) => line.msg === 'request' && line.requestId === id);
}

/**
 * Reads `path` until an answer comes from memory: the first read stores it, and a change announced
 * meanwhile (the echo of the setup's publish) may drop it once.
 */
async function warm(path: string, options: RequestOptions = {}): Promise<TestResponse> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const response = await t.request('GET', path, options);
    if (requestLine(response)?.early) return response;
  }
  throw new Error(`${path} was never answered from memory`);
}

/** Every header but those that differ between any two answers. */
function stableHeaders(response: TestResponse): Record<string, string> {
  const varying = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);
  return Object.fromEntries([...response.headers].filter(([name]) => !varying.has(name)));
}

describe('published reads answered before routing', () => {
  it('answers a cached read with the bytes and headers of the route, and logs its request line', async () => {
    await warm(`${item}?locale=en`);
    for (const encoding of ['br', 'gzip', 'identity']) {
      const headers = { 'accept-encoding': encoding };
      // A fresh answer takes the full chain: the route's own headers for this encoding.
      const routed = await t.request('GET', `${item}?locale=en`, {
        headers: { ...headers, 'cache-control': 'no-cache' },
      });
      const early = await t.request('GET', `${item}?locale=en`, {
        headers: { ...headers, 'x-request-id': `early-${encoding}` },
      });
      expect(early.status).toBe(200);
      expect(early.text).toBe(routed.text);
      expect(stableHeaders(early)).toEqual(stableHeaders(routed));
      expect(early.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding);
      expect(early.headers.get('x-content-type-options')).toBe('nosniff');
      expect(early.headers.get('x-request-id')).toBe(`early-${encoding}`);
      expect(requestLine(routed)?.early).toBeUndefined();
      expect(requestLine(early)).toMatchObject({
        method: 'GET',
        url: `${item}?locale=en`,
        statusCode: 200,
        principal: 'apiKey',
        early: true,
      });
    }
  });

  it('answers every spelling of Accept-Encoding as the route does, the same each time', async () => {
    await warm(item);
    // Preferences, refusals, wildcards and capitals: each value is negotiated once and remembered.
    const expected = {
      'gzip;q=1.0, br;q=0.5': 'gzip',
      'br;q=0, gzip;q=0': null,
      '*': 'br',
      deflate: null,
      GZIP: 'gzip',
    };
    for (const [acceptEncoding, encoding] of Object.entries(expected)) {
      const headers = { 'accept-encoding': acceptEncoding };
      const routed = await t.request('GET', item, { headers: { ...headers, 'cache-control': 'no-cache' } });
      for (let again = 0; again < 2; again += 1) {
        const early = await t.request('GET', item, { headers });
        expect(requestLine(early)?.early).toBe(true);
        expect(early.headers.get('content-encoding')).toBe(encoding);
        expect(stableHeaders(early)).toEqual(stableHeaders(routed));
        expect(early.text).toBe(routed.text);
      }
    }
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const first = await warm(item, { headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.get('etag') as string;
    // Raw: fetch adds `Cache-Control: no-cache` to a conditional request, which asks for a fresh answer.
    const revalidated = await rawRequest(
      t.url,
      [
        `GET ${item} HTTP/1.1`,
        'Host: cms.test',
        `Authorization: Bearer ${t.adminKey}`,
        'X-CMS-Project: default',
        'X-CMS-Environment: production',
        'Accept-Encoding: br',
        `If-None-Match: ${etag}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    );
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);
    const line = lines.find((entry) => entry.requestId === revalidated.headers['x-request-id']);
    expect(line).toMatchObject({ statusCode: 304, early: true });
  });

  it('takes the full chain for a caller who asks for a fresh answer', async () => {
    await warm(item);
    const fresh = await t.request('GET', item, { headers: { 'cache-control': 'no-cache' } });
    expect(fresh.status).toBe(200);
    expect(requestLine(fresh)?.early).toBeUndefined();
  });

  it('refuses a key without the read permission or access to the environment, cached or not', async () => {
    const noRead = await t.createKey({ scopes: SCOPES.filter((scope) => scope !== 'content:read') });
    const elsewhere = await t.createKey({ allowlist: [{ project: 'default', environment: 'staging' }] });
    await warm(item);
    for (const key of [noRead, elsewhere]) {
      // Twice: the second finds the key in memory, and the answer in the read cache.
      expectError(await t.request('GET', item, { key }), 403, 'FORBIDDEN');
      expectError(await t.request('GET', item, { key }), 403, 'FORBIDDEN');
    }
  });

  it('refuses a key once it is revoked or has expired, though it was in memory', async () => {
    const created = await t.request('POST', '/api/v1/api-keys', {
      body: { label: 'site', scopes: ['content:read'], contextAllowlist: [{ project: '*', environment: '*' }] },
    });
    const { apiKey, id } = created.body.data;
    await warm(item, { key: apiKey });
    expect((await t.request('DELETE', `/api/v1/api-keys/${id}`)).status).toBe(200);
    // Twice: the first refusal reads the revoked key into memory, the second finds it there.
    expectError(await t.request('GET', item, { key: apiKey }), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', item, { key: apiKey }), 401, 'UNAUTHORIZED');

    const expiring = await t.createKey({ expiresAt: new Date(clock.now().getTime() + 30_000) });
    await warm(item, { key: expiring });
    clock.advance(31_000);
    const expired = await t.request('GET', item, { key: expiring });
    expectError(expired, 401, 'UNAUTHORIZED');
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('answers routing mistakes as the full chain does: unknown project, other locale', async () => {
    await warm(item);
    expectError(await t.request('GET', item, { project: 'nowhere' }), 404, 'PROJECT_NOT_FOUND');
    expectError(await t.request('GET', item, { environment: 'nowhere' }), 404, 'ENVIRONMENT_NOT_FOUND');
    expectError(await t.request('GET', item, { environment: null }), 400, 'TARGET_REQUIRED');
    const otherLocale = await t.request('GET', item, { headers: { 'x-cms-locale': 'fr' } });
    expect(requestLine(otherLocale)?.early).toBeUndefined();
  });

  it('never answers a session or a preview token from memory', async () => {
    await warm(item);
    const withCookie = await sendRequest(t.url, null, 'GET', item, { headers: { cookie: 'cms_session=nope' } });
    expectError(withCookie, 401, 'UNAUTHORIZED');
    const preview = await sendRequest(t.url, null, 'GET', item, { headers: { authorization: 'Preview nope' } });
    expectError(preview, 401, 'UNAUTHORIZED');
  });
});
