/**
 * Next.js fetch cache: content reads pass `next` and `cache` to fetch with their tags added, and they
 * reach the global fetch as it is at the time of the call. Next.js replaces `globalThis.fetch` with its
 * caching fetch only after a site's modules (and the clients they create at load) are evaluated; a
 * client that kept the fetch it was created with sent its tags to a fetch that ignores them, so
 * prerendered pages never carried `cms:*` tags and a webhook could not revalidate them.
 */
import { createClient } from '@cms/sdk';
import { afterEach, describe, expect, it } from 'vitest';

const original = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = original;
});

const PAGE = { data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } };
const DOCUMENT_ID = '00000000-0000-4000-8000-000000000000';

describe('Next.js fetch options', () => {
  it('reach the global fetch installed after the client was created, with the read tags added', async () => {
    const cms = createClient({ baseUrl: 'http://cms.test', project: 'blog', environment: 'staging' });
    const seen: Array<{ next?: unknown; cache?: unknown }> = [];
    // What Next.js does once the page module has loaded.
    globalThis.fetch = (async (_input: unknown, init?: { next?: unknown; cache?: unknown }) => {
      seen.push({ next: init?.next, cache: init?.cache });
      const body = seen.length === 1 ? PAGE : { data: { documentId: DOCUMENT_ID } };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;

    await cms.content.list({ type: 'post' }, { next: { revalidate: 60, tags: ['mine'] } });
    await cms.content.get(DOCUMENT_ID, { cache: 'no-store' });
    expect(seen).toEqual([
      { next: { revalidate: 60, tags: ['mine', 'cms:blog:staging:post'] }, cache: undefined },
      { next: { tags: [`cms:document:${DOCUMENT_ID}`] }, cache: 'no-store' },
    ]);
  });
});
