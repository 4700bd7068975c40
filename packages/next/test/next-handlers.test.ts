/**
 * `@cms/next` handlers driven with Next's own `NextRequest` (the `next` package), against a real
 * server: a preview token the server issued turns draft mode on and redirects to the document's page,
 * a bad or tampered one is refused; a signed webhook revalidates exactly the tags the SDK's reads
 * carry, a bad signature is refused. Draft mode and revalidation are Next's request-scoped functions,
 * recorded here through the handlers' `enableDraftMode` and `revalidate` options.
 */
import { randomUUID } from 'node:crypto';
import { signWebhook } from '@cms/core';
import { createClient } from '@cms/sdk';
import { NextRequest } from 'next/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, syncSchema } from '../../server/test/content/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { draftModeHandler, revalidateHandler } from '../src/index.js';

const SECRET = 'whsec_test_0123456789abcdef';
let t: TestServer;
let doc: { documentId: string; path: string };
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  doc = await createDocument(t);
  const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
  expect(issued.status, issued.text).toBe(200);
  token = issued.body.data.token;
}, 180_000);
afterAll(() => t.close());

function draftHandler(calls: string[], extra: Parameters<typeof draftModeHandler>[0] = {}) {
  return draftModeHandler({ serverUrl: t.url, enableDraftMode: () => void calls.push('draft'), ...extra });
}

describe('draftModeHandler', () => {
  it('verifies the token with the server, enables draft mode, redirects to the page', async () => {
    const calls: string[] = [];
    const response = await draftHandler(calls)(new NextRequest(`https://site.test/api/draft?token=${token}`));
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`https://site.test/${doc.path}`);
    expect(calls).toEqual(['draft']);
  });

  it('redirects to a same-site `redirect` path, never to another origin', async () => {
    const calls: string[] = [];
    const handler = draftHandler(calls, { pathOf: (document) => `/blog/${document.path}` });
    const own = await handler(new NextRequest(`https://site.test/api/draft?token=${token}&redirect=/preview/x`));
    expect(own.headers.get('location')).toBe('https://site.test/preview/x');
    const away = await handler(new NextRequest(`https://site.test/api/draft?token=${token}&redirect=//evil.test/x`));
    expect(away.headers.get('location')).toBe(`https://site.test/blog/${doc.path}`);
  });

  it('ignores a redirect the URL parser reads as another origin (tab, newline, backslash) or cannot read', async () => {
    const handler = draftHandler([], { pathOf: (document) => `/blog/${document.path}` });
    // The parser drops tabs and newlines and reads `\` as `/`: each of these is `//evil.test/x` to it.
    for (const redirect of ['/%09/evil.test/x', '/%0A/evil.test/x', '/%5Cevil.test/x', '/%09/[']) {
      const response = await handler(
        new NextRequest(`https://site.test/api/draft?token=${token}&redirect=${redirect}`),
      );
      expect(response.status, redirect).toBe(307);
      expect(response.headers.get('location'), redirect).toBe(`https://site.test/blog/${doc.path}`);
    }
  });

  it('refuses a missing, malformed or tampered token with 401 and leaves draft mode off', async () => {
    const calls: string[] = [];
    const handler = draftHandler(calls);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const tampered = `${head}.${payload}.${signature.slice(0, -4)}AAAA`;
    for (const query of ['', '?token=nope', `?token=${tampered}`]) {
      const response = await handler(new NextRequest(`https://site.test/api/draft${query}`));
      expect(response.status, query).toBe(401);
    }
    const refused = await handler(new NextRequest(`https://site.test/api/draft?token=${tampered}`));
    expect(await refused.text()).toContain('UNAUTHORIZED');
    expect(calls).toEqual([]);
  });
});

describe('revalidateHandler', () => {
  const event = (documentId: string) =>
    JSON.stringify({
      event: 'content.published',
      timestamp: new Date().toISOString(),
      project: 'default',
      environment: 'production',
      user: { id: 'u1', email: '' },
      document: {
        documentId,
        translationGroupId: randomUUID(),
        type: 'post',
        path: 'posts/hello',
        locale: 'en',
        format: 'md',
        version: 2,
      },
    });

  it('revalidates the tags the SDK tagged its reads with, for a signed delivery', async () => {
    // The tags a Next page's reads carry, taken from the fetch calls of the SDK.
    const sent: string[][] = [];
    const cms = createClient({
      baseUrl: t.url,
      apiKey: t.adminKey,
      project: 'default',
      environment: 'production',
      fetch: (input, init) => {
        sent.push((init as { next?: { tags?: string[] } }).next?.tags ?? []);
        return fetch(input, init);
      },
    });
    await cms.content.list({ type: 'post', draft: true }, { next: { revalidate: 60, tags: ['mine'] } });
    await cms.content.get(doc.documentId, { draft: true });
    expect(sent).toEqual([['mine', 'cms:default:production:post'], [`cms:document:${doc.documentId}`]]);

    const revalidated: string[] = [];
    const handler = revalidateHandler({ secret: SECRET, revalidate: (tag) => void revalidated.push(tag) });
    const body = event(doc.documentId);
    const headers = signWebhook({ secret: SECRET, body, deliveryId: 'dlv_1' });
    const response = await handler(
      new NextRequest('https://site.test/api/revalidate', { method: 'POST', body, headers: { ...headers } }),
    );
    expect(response.status).toBe(200);
    // The tags the reads carried, and the path's (reads by path carry it: docs/sdk.md "Next.js fetch cache").
    const expected = [...sent.flat().filter((tag) => tag !== 'mine'), 'cms:default:production:post:path:posts/hello'];
    expect(await response.json()).toEqual({ revalidated: expected });
    expect(revalidated).toEqual(expected);
  });

  it('refuses an unsigned or wrongly signed delivery with 400 and revalidates nothing', async () => {
    const revalidated: string[] = [];
    const handler = revalidateHandler({ secret: SECRET, revalidate: (tag) => void revalidated.push(tag) });
    const body = event(doc.documentId);
    const wrong = signWebhook({ secret: `${SECRET}x`, body, deliveryId: 'dlv_2' });
    for (const headers of [{}, { ...wrong }]) {
      const response = await handler(
        new NextRequest('https://site.test/api/revalidate', { method: 'POST', body, headers }),
      );
      expect(response.status).toBe(400);
    }
    expect(revalidated).toEqual([]);
  });
});
