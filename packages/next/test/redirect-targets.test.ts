/**
 * Where `draftModeHandler` and `exitPreviewHandler` may send a browser: only a page of the site itself.
 * A table of hostile `redirect` values (scheme-relative addresses, backslashes, dot segments that the
 * URL parser resolves to a `//` path, percent-encoded dots, tabs and newlines the parser drops, other
 * schemes, user info) is sent to both handlers as Next's own `NextRequest`; each answers a
 * `NextResponse` 307 to the handler's fallback page on the site's origin, never to another host and
 * never to a path starting with `//` or `/\`. Same-site redirects keep working.
 */
import { NextRequest, NextResponse } from 'next/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, syncSchema } from '../../server/test/content/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { draftModeHandler, exitPreviewHandler } from '../src/index.js';

const SITE = 'https://site.test';

/** Each is sent as the `redirect` query parameter, URL-encoded as a browser would send it. */
const HOSTILE = [
  '//evil.test',
  '///evil.test',
  '////evil.test/x',
  '/\\evil.test',
  '/\\/evil.test',
  '\\\\evil.test',
  '/\\\\evil.test',
  '/.//evil.test',
  '/..//evil.test/path',
  '/x/..//evil.test',
  '/x/./..//evil.test',
  '/%2e//evil.test',
  '/%2e%2e//evil.test',
  '/%2E//evil.test',
  '/./%2e//evil.test',
  '/x/%2e%2e//evil.test',
  '/.\\/evil.test',
  '/x/../\\evil.test',
  '/\t/evil.test',
  '/\n/evil.test',
  '/\r/evil.test',
  '/\t/[',
  'https://evil.test',
  'http:evil.test',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '//site.test@evil.test',
  '//evil.test@site.test',
  'evil.test',
  '',
];

let t: TestServer;
let token: string;
let docPath: string;

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  const doc = await createDocument(t);
  docPath = doc.path;
  const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
  expect(issued.status, issued.text).toBe(200);
  token = issued.body.data.token;
}, 180_000);
afterAll(() => t.close());

const draft = () =>
  draftModeHandler({
    serverUrl: t.url,
    project: 'default',
    environment: 'production',
    enableDraftMode: () => undefined,
    pathOf: (document) => `/blog/${document.path}`,
  });
const exit = () => exitPreviewHandler({ disableDraftMode: () => undefined, fallbackPath: '/home' });

/** The handler's answer to `redirect`: its status and the address it sends the browser to. */
async function answer(handler: (request: Request) => Promise<Response>, query: string, redirect: string) {
  const response = await handler(new NextRequest(`${SITE}${query}&redirect=${encodeURIComponent(redirect)}`));
  expect(response).toBeInstanceOf(NextResponse);
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

function expectOnSite(location: string, label: string): void {
  const target = new URL(location);
  expect(target.origin, label).toBe(SITE);
  expect(target.pathname.startsWith('//') || target.pathname.startsWith('/\\'), label).toBe(false);
}

describe('redirect targets of the preview handlers', () => {
  it(`sends no browser off the site for ${HOSTILE.length} hostile forms, on both handlers`, async () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
    for (const redirect of HOSTILE) {
      const label = JSON.stringify(redirect);
      const drafted = await answer(draft(), `/api/draft?token=${token}`, redirect);
      expect(drafted.status, label).toBe(307);
      expect(drafted.location, label).toBe(`${SITE}/blog/${docPath}`);
      const left = await answer(exit(), '/api/draft/exit?x=1', redirect);
      expect(left.status, label).toBe(307);
      expect(left.location, label).toBe(`${SITE}/home`);
      expectOnSite(drafted.location, label);
      expectOnSite(left.location, label);
    }
  });

  it('keeps same-site redirects, with their query and fragment', async () => {
    for (const [redirect, expected] of [
      ['/preview/x', '/preview/x'],
      ['/a/../b?q=1#top', '/b?q=1#top'],
      ['/%2e/c', '/c'],
      ['/posts/caf%C3%A9', '/posts/caf%C3%A9'],
    ] as const) {
      expect((await answer(draft(), `/api/draft?token=${token}`, redirect)).location).toBe(`${SITE}${expected}`);
      expect((await answer(exit(), '/api/draft/exit?x=1', redirect)).location).toBe(`${SITE}${expected}`);
    }
  });

  it('never redirects off the site from a hostile pathOf or fallbackPath either', async () => {
    const handler = draftModeHandler({
      serverUrl: t.url,
      enableDraftMode: () => undefined,
      pathOf: () => '/.//evil.test',
    });
    const response = await handler(new NextRequest(`${SITE}/api/draft?token=${token}`));
    expect(response.headers.get('location')).toBe(`${SITE}/`);
    const leave = exitPreviewHandler({ disableDraftMode: () => undefined, fallbackPath: '//evil.test' });
    expect((await leave(new NextRequest(`${SITE}/api/draft/exit`))).headers.get('location')).toBe(`${SITE}/`);
  });

  it('prefixes the locale with localePrefix only for a localized document', async () => {
    const handler = draftModeHandler({ serverUrl: t.url, enableDraftMode: () => undefined, localePrefix: true });
    const open = async (token: string) =>
      (await handler(new NextRequest(`${SITE}/api/draft?token=${token}`))).headers.get('location');
    // An unlocalized document carries the locale __cms_default__, which is no page's prefix.
    expect(await open(token)).toBe(`${SITE}/${docPath}`);
    const page = await createDocument(t, {
      type: 'page',
      path: 'pages/about',
      locale: 'fr',
      frontmatter: { title: 'À propos' },
    });
    const issued = await t.request('POST', `/api/v1/content/${page.documentId}/preview-token`, { body: {} });
    expect(await open(issued.body.data.token)).toBe(`${SITE}/fr/pages/about`);
  });

  it('redirects to the host the browser asked for, not the one Next.js was started with', async () => {
    const handler = draftModeHandler({ serverUrl: t.url, enableDraftMode: () => undefined });
    // Next.js builds request.url from its own host name (localhost under next dev).
    const asked = (host: string) =>
      handler(new NextRequest(`http://localhost:3000/api/draft?token=${token}`, { headers: { host } }));
    const response = await asked('127.0.0.1:3000');
    expect(response.headers.get('location')).toBe(`http://127.0.0.1:3000/${docPath}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const leave = exitPreviewHandler({ disableDraftMode: () => undefined });
    const left = await leave(
      new NextRequest('http://localhost:3000/api/draft/exit?redirect=/x', { headers: { host: '127.0.0.1:3000' } }),
    );
    expect(left.headers.get('location')).toBe('http://127.0.0.1:3000/x');
    // A header that is not a plain host and port is ignored.
    for (const host of ['evil.test/x', 'a@evil.test', 'evil.test:99999']) {
      expect((await asked(host)).headers.get('location'), host).toBe(`http://localhost:3000/${docPath}`);
    }
  });
});
