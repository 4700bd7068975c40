import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { countQueries } from '../content-reads/read-fixtures.js';
import { asSession, expectError, signInAs } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
let id: string;
beforeAll(async () => {
  t = await startTestServer({
    env: { CMS_HTTP_CACHE_MAX_AGE_SECONDS: '60', CMS_HTTP_CACHE_STALE_WHILE_REVALIDATE_SECONDS: '300' },
  });
  await syncSchema(t);
  const doc = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Cached' }) });
  await publishDocument(t, doc.documentId);
  id = doc.documentId;
});
afterAll(() => t.close());

// Accept-Encoding: each encoding of an answer is its own representation (http/compression.ts).
const VARY = 'Authorization, X-CMS-Project, X-CMS-Environment, X-CMS-Locale, Accept-Encoding';

describe('HTTP caching of published reads', () => {
  it('sends a strong ETag of the exact body, the same from the database and from memory', async () => {
    const first = await t.request('GET', `/api/v1/content/${id}`);
    const second = await t.request('GET', `/api/v1/content/${id}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(etag).toBe(`"${createHash('sha256').update(first.text).digest('base64url').slice(0, 32)}"`);
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
  });

  it('answers If-None-Match with 304 and no body, from memory and not', async () => {
    const list = '/api/v1/content?type=post&limit=20';
    const first = await t.request('GET', list);
    const etag = first.headers.get('etag') as string;
    for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const revalidated = await t.request('GET', list, { headers: { 'if-none-match': ifNoneMatch } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.text).toBe('');
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect(revalidated.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    }
    // A first read (nothing in memory yet) answers 304 too.
    const fresh = await t.request('GET', `${list}&offset=0&sort=path`);
    const notCached = await t.request('GET', `${list}&sort=path`, {
      headers: { 'if-none-match': fresh.headers.get('etag') as string },
    });
    expect(notCached.status).toBe(304);
    const changed = await t.request('GET', list, { headers: { 'if-none-match': '"stale"' } });
    expect(changed.status).toBe(200);
    expect(changed.text).toBe(first.text);
  });

  it('a publish changes the ETag: the old one gets the new body', async () => {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Before' }) });
    await publishDocument(t, doc.documentId);
    const path = `/api/v1/content/${doc.documentId}`;
    const before = await t.request('GET', path);
    await t.request('PUT', path, {
      body: { frontmatter: postFrontmatter({ title: 'After' }), body: '', draftRevision: 1 },
      headers: hashHeader(),
    });
    await publishDocument(t, doc.documentId);
    const after = await t.request('GET', path, { headers: { 'if-none-match': before.headers.get('etag') as string } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('lets CDNs cache API-key published reads, varying on credentials, routing and locale', async () => {
    const response = await t.request('GET', `/api/v1/content/${id}`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(response.headers.get('vary')).toBe(VARY);
  });

  it('marks drafts private, no-store, without an ETag, and never serves them from memory', async () => {
    const draft = await t.request('GET', `/api/v1/content/${id}?draft=true`);
    expect(draft.status).toBe(200);
    expect(draft.headers.get('cache-control')).toBe('private, no-store');
    expect(draft.headers.get('etag')).toBeNull();
    const list = await t.request('GET', '/api/v1/content?type=post&draft=true');
    expect(list.headers.get('cache-control')).toBe('private, no-store');
  });

  it('marks session-authenticated published reads private, no-store, with the same body as API-key reads', async () => {
    const session = await signInAs(t, { role: 'admin' });
    const path = `/api/v1/content/${id}`;
    const byKey = await t.request('GET', path);
    const bySession = await asSession(t.url, session, 'GET', path, { headers: { 'x-cms-project': 'default' } });
    expect(bySession.status, bySession.text).toBe(200);
    expect(bySession.headers.get('cache-control')).toBe('private, no-store');
    expect(bySession.text).toBe(byKey.text);
    expect(bySession.headers.get('etag')).toBe(byKey.headers.get('etag'));
  });

  it('reads through to the database when the request says Cache-Control: no-cache', async () => {
    const path = `/api/v1/content/${id}?resolve=author`;
    await t.request('GET', path);
    expect(await countQueries(t.db, () => t.request('GET', path))).toBe(0);
    expect(await countQueries(t.db, () => t.request('GET', path, { headers: { 'cache-control': 'no-cache' } }))).toBe(
      1,
    );
    expect(await countQueries(t.db, () => t.request('GET', path, { headers: { pragma: 'no-cache' } }))).toBe(1);
  });

  it('answers from memory only after every access step, and never for a URL that was refused', async () => {
    const path = `/api/v1/content/${id}`;
    const cached = await t.request('GET', path);
    expect(await countQueries(t.db, () => t.request('GET', path))).toBe(0);
    // The answer is in memory; each caller is still checked before it is served.
    expectError(await t.request('GET', path, { key: null }), 401, 'UNAUTHORIZED');
    const noRead = await t.createKey({ scopes: ['schema:read'] });
    expectError(await t.request('GET', path, { key: noRead }), 403, 'FORBIDDEN');
    const otherProject = await t.createKey({ allowlist: [{ project: 'elsewhere', environment: '*' }] });
    expectError(await t.request('GET', path, { key: otherProject }), 403, 'FORBIDDEN');
    const reader = await t.createKey({ scopes: ['content:read'] });
    const allowed = await t.request('GET', path, { key: reader });
    expect(allowed.text).toBe(cached.text);
    // A URL whose query is refused never has an answer to keep: it is refused every time.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await t.request('GET', '/api/v1/content?type=post&limit=abc');
      expectError(refused, 400, 'INVALID_QUERY_PARAM');
      expect(refused.headers.get('etag')).toBeNull();
    }
  });

  it('sends no validator on errors', async () => {
    const missing = await t.request('GET', '/api/v1/content/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });
});

describe('HTTP caching defaults', () => {
  let d: TestServer;
  beforeAll(async () => {
    d = await startTestServer();
    await syncSchema(d);
  });
  afterAll(() => d.close());

  it('asks caches to revalidate every time (no-cache) unless a max-age is set', async () => {
    const response = await d.request('GET', '/api/v1/content?type=post');
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('etag')).toMatch(/^"/);
  });

  it('with CMS_READ_CACHE_BYTES=0 answers the same, with the same ETag and 304', async () => {
    const off = await startTestServer({ env: { CMS_READ_CACHE_BYTES: '0' } });
    try {
      await syncSchema(off);
      const first = await off.request('GET', '/api/v1/content?type=post');
      const again = await off.request('GET', '/api/v1/content?type=post', {
        headers: { 'if-none-match': first.headers.get('etag') as string },
      });
      expect(again.status).toBe(304);
    } finally {
      await off.close();
    }
  });
});
