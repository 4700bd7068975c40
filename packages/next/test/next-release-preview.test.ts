/**
 * Release previews in a Next site, against a real server: a release preview token turns draft mode on
 * and sets the `cms_release` cookie, and `previewReadOptions` then answers release reads (the
 * release's draft for its item, published content for a document outside it, no other draft); a plain
 * preview token clears the cookie; a forged or malformed release is refused; `exitPreviewHandler`
 * turns draft mode off and clears the cookie. Next's request-scoped `draftMode()` and `cookies()` are
 * stood in for by the handlers' and the helper's options, as in next-handlers.test.ts.
 */
import { createClient } from '@cms/sdk';
import { NextRequest, type NextResponse } from 'next/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDocument,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from '../../server/test/content/fixtures.js';
import { createRelease } from '../../server/test/releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import {
  draftModeHandler,
  exitPreviewHandler,
  type PreviewReadOptions,
  previewReadOptions,
  RELEASE_PREVIEW_COOKIE,
} from '../src/index.js';

let t: TestServer;
const ids = { changed: '', other: '', hidden: '' };
let releaseId = '';
let releaseToken = '';
let draftToken = '';

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  ids.changed = (await createDocument(t, { frontmatter: postFrontmatter({ title: 'Live' }) })).documentId;
  await publishDocument(t, ids.changed);
  const edited = await t.request('PUT', `/api/v1/content/${ids.changed}`, {
    headers: hashHeader(),
    body: { frontmatter: postFrontmatter({ title: 'In the release' }), body: '', draftRevision: 1 },
  });
  expect(edited.status, edited.text).toBe(200);
  ids.other = (await createDocument(t, { frontmatter: postFrontmatter({ title: 'Other live' }) })).documentId;
  await publishDocument(t, ids.other);
  ids.hidden = (await createDocument(t, { frontmatter: postFrontmatter({ title: 'Unreleased draft' }) })).documentId;
  releaseId = await createRelease(t, 'Spring', { [ids.changed]: 'publish' });
  releaseToken = await issueToken(ids.changed, { release: releaseId });
  draftToken = await issueToken(ids.changed, {});
}, 180_000);
afterAll(() => t.close());

async function issueToken(documentId: string, body: Record<string, unknown>): Promise<string> {
  const issued = await t.request('POST', `/api/v1/content/${documentId}/preview-token`, { body });
  expect(issued.status, issued.text).toBe(200);
  return issued.body.data.token;
}

/** The token with its payload's claims changed and its signature kept: what a forger can make. */
function withClaims(token: string, patch: Record<string, unknown>): string {
  const [head, payload, signature] = token.split('.') as [string, string, string];
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), ...patch };
  return `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

function openPreview(token: string, calls: string[], site = 'https://site.test') {
  const handler = draftModeHandler({ serverUrl: t.url, enableDraftMode: () => void calls.push('draft') });
  return handler(new NextRequest(`${site}/api/draft?token=${token}`)) as Promise<NextResponse>;
}

/** The `Set-Cookie` header of the release cookie, or undefined when the response sets none. */
function releaseCookieHeader(response: Response): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${RELEASE_PREVIEW_COOKIE}=`));
}

/** The read options of the next request the browser sends, carrying the cookies it was given. */
function readOptionsAfter(response: NextResponse, isDraftMode = true): Promise<PreviewReadOptions> {
  const value = response.cookies.get(RELEASE_PREVIEW_COOKIE)?.value;
  const next = new NextRequest('https://site.test/', {
    headers: value ? { cookie: `${RELEASE_PREVIEW_COOKIE}=${value}` } : {},
  });
  return previewReadOptions({ isDraftMode: () => isDraftMode, cookies: () => next.cookies });
}

function siteClient() {
  return createClient({ baseUrl: t.url, apiKey: t.adminKey, project: 'default', environment: 'production' });
}

async function titlesListed(read: PreviewReadOptions): Promise<string[]> {
  const page = await siteClient().content.list({ type: 'post', ...read, limit: 100 }, { cache: 'no-store' });
  return page.data.map((document) => String(document.frontmatter.title)).sort();
}

describe('draftModeHandler with a release preview token', () => {
  it('enables draft mode and remembers the release in an httpOnly, Secure, SameSite=Lax site cookie', async () => {
    const calls: string[] = [];
    const response = await openPreview(releaseToken, calls);
    expect(response.status, await response.clone().text()).toBe(307);
    expect(calls).toEqual(['draft']);
    const cookie = releaseCookieHeader(response);
    expect(cookie).toMatch(new RegExp(`^${RELEASE_PREVIEW_COOKIE}=${releaseId};`));
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie?.toLowerCase()).toContain('samesite=lax');
    expect(cookie).not.toMatch(/Max-Age|Expires/);
    // On plain http (a local site) the cookie cannot be Secure, or the browser would drop it.
    expect(releaseCookieHeader(await openPreview(releaseToken, [], 'http://localhost:3000'))).not.toMatch(/Secure/);
  });

  it('makes the pages read as the release would publish: its draft for its item, published content for the rest', async () => {
    const read = await readOptionsAfter(await openPreview(releaseToken, []));
    expect(read).toEqual({ release: releaseId });
    const cms = siteClient();
    const item = await cms.content.get(ids.changed, { ...read, cache: 'no-store' });
    expect(item.frontmatter.title).toBe('In the release');
    const outside = await cms.content.get(ids.other, { ...read, cache: 'no-store' });
    expect(outside.frontmatter.title).toBe('Other live');
    // Not every draft of the project: the draft outside the release stays hidden.
    expect(await titlesListed(read)).toEqual(['In the release', 'Other live']);
    expect(await titlesListed({ draft: true })).toEqual(['In the release', 'Other live', 'Unreleased draft']);
    expect(await titlesListed({ draft: false })).toEqual(['Live', 'Other live']);
  });
});

describe('draftModeHandler with a plain preview token', () => {
  it('clears the release cookie, so the pages read every draft', async () => {
    const calls: string[] = [];
    const response = await openPreview(draftToken, calls);
    expect(response.status).toBe(307);
    expect(calls).toEqual(['draft']);
    const cookie = releaseCookieHeader(response);
    expect(cookie).toMatch(new RegExp(`^${RELEASE_PREVIEW_COOKIE}=;`));
    expect(cookie).toMatch(/Max-Age=0/);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(await readOptionsAfter(response)).toEqual({ draft: true });
  });
});

describe('a forged or malformed release', () => {
  it('is refused with 401: no draft mode, no cookie', async () => {
    const calls: string[] = [];
    const other = await createRelease(t, 'Forged');
    const forged = await openPreview(withClaims(releaseToken, { release: other }), calls);
    expect(forged.status).toBe(401);
    expect(await forged.text()).toContain('UNAUTHORIZED');
    // A plain token turned into a release token by adding the claim fails the signature too.
    const promoted = await openPreview(withClaims(draftToken, { release: releaseId }), calls);
    expect(promoted.status).toBe(401);
    for (const release of ['x; Domain=evil.test', `${releaseId}\r\nSet-Cookie: a=b`, 42]) {
      const malformed = await openPreview(withClaims(releaseToken, { release }), calls);
      expect(malformed.status, String(release)).toBe(401);
      expect(await malformed.text()).toContain('not a release id');
      expect(releaseCookieHeader(malformed)).toBeUndefined();
    }
    expect(releaseCookieHeader(forged)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('in the cookie is ignored by previewReadOptions, and the cookie counts only in draft mode', async () => {
    const source = (value: string, isDraftMode: boolean) => {
      const request = new NextRequest('https://site.test/', {
        headers: { cookie: `${RELEASE_PREVIEW_COOKIE}=${encodeURIComponent(value)}` },
      });
      return { isDraftMode: () => isDraftMode, cookies: () => request.cookies };
    };
    expect(await previewReadOptions(source('../releases', true))).toEqual({ draft: true });
    expect(await previewReadOptions(source(releaseId, false))).toEqual({ draft: false });
    expect(await previewReadOptions(source(releaseId, true))).toEqual({ release: releaseId });
  });
});

describe('exitPreviewHandler', () => {
  it('turns draft mode off, clears the release cookie and redirects to a same-site path only', async () => {
    const calls: string[] = [];
    const handler = exitPreviewHandler({ disableDraftMode: () => void calls.push('disable') });
    const response = (await handler(
      new NextRequest('https://site.test/api/draft/exit?redirect=/posts/x'),
    )) as NextResponse;
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('https://site.test/posts/x');
    expect(calls).toEqual(['disable']);
    expect(releaseCookieHeader(response)).toMatch(/^cms_release=;.*Max-Age=0/);
    expect(await readOptionsAfter(response, false)).toEqual({ draft: false });
    for (const redirect of ['//evil.test/x', '/%09/evil.test/x', '/%5Cevil.test/x', 'https://evil.test/']) {
      const away = await handler(new NextRequest(`https://site.test/api/draft/exit?redirect=${redirect}`));
      expect(away.headers.get('location'), redirect).toBe('https://site.test/');
    }
  });
});
