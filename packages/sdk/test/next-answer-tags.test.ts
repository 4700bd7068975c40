/**
 * Reads cached by Next.js are tagged with the documents they answer (next-cached-read.ts), against a
 * real server: the fetch below stands in for Next's caching fetch only as far as the SDK can see it
 * (it records each call's tags and step, and answers a lookup from its cache once one is stored, as
 * Next's data cache does until a tag is revalidated). A read by slug or path carries the tag of the
 * document it found, a read with `resolve` the tags of the resolved documents, an empty read by slug the
 * type's tag; a lookup older than the read (the slug moved to another document) adds a recheck tagged
 * with what the read shows and the type; in `next build` the lookup goes uncached through the fetch
 * Next.js patched and the tagged read is keyed by the fresh answer's digest.
 */
import { createClient } from '@cms/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SdkHarness, startSdkServer } from './sdk-fixtures.js';

interface Call {
  url: string;
  step: string | null;
  digest: boolean;
  tags: string[] | undefined;
}

let h: SdkHarness;
const ids = { ada: '', grace: '', first: '', second: '' };
const TYPE = 'cms:default:production:post';
const doc = (id: string) => `cms:document:${id}`;

/** A client whose fetch records calls and keeps lookups as Next's data cache would. */
function recordingClient() {
  const calls: Call[] = [];
  const lookups = new Map<string, string>();
  const fetchImpl = async (input: string | URL | Request, init: RequestInit & { next?: { tags?: string[] } } = {}) => {
    const headers = new Headers(init.headers);
    const step = headers.get('x-cms-cache-step');
    calls.push({ url: String(input), step, digest: headers.has('x-cms-answer-digest'), tags: init.next?.tags });
    const cached = step === 'lookup' ? lookups.get(String(input)) : undefined;
    if (cached) return new Response(cached, { headers: { 'content-type': 'application/json' } });
    const response = await fetch(input, init);
    const text = await response.text();
    if (step === 'lookup') lookups.set(String(input), text);
    return new Response(text, { status: response.status, headers: response.headers });
  };
  const cms = createClient({
    baseUrl: h.server.url,
    apiKey: h.server.adminKey,
    project: 'default',
    environment: 'production',
    fetch: fetchImpl as typeof fetch,
  });
  return { cms, calls, lookups };
}

async function created(type: string, path: string, frontmatter: Record<string, unknown>): Promise<string> {
  const cms = h.client();
  const made = await cms.content.create({ type, path, frontmatter });
  await cms.content.publish(made.documentId);
  return made.documentId;
}

beforeAll(async () => {
  h = await startSdkServer();
  ids.ada = await created('author', 'ada', { name: 'Ada' });
  ids.grace = await created('author', 'grace', { name: 'Grace' });
  ids.first = await created('post', 'first', { title: 'First', slug: 'one', author: ids.ada });
  ids.second = await created('post', 'second', { title: 'Second', slug: 'two', author: ids.grace });
}, 120_000);
afterAll(() => h.server.close());
afterEach(() => {
  delete process.env.NEXT_PHASE;
  delete (globalThis.fetch as { _nextOriginalFetch?: unknown })._nextOriginalFetch;
});

const NEXT = { next: { revalidate: 60 } };

describe('reads cached by Next.js, tagged by their answers', () => {
  it('tags a read by slug with the document it found, and an empty one with the type', async () => {
    const { cms, calls } = recordingClient();
    const page = await cms.content.list({ type: 'post', slug: 'one' }, NEXT);
    expect(page.data.map((d) => d.documentId)).toEqual([ids.first]);
    expect(calls.map((c) => [c.step, c.tags])).toEqual([
      ['lookup', []],
      [null, [doc(ids.first)]],
    ]);
    calls.length = 0;
    expect((await cms.content.list({ type: 'post', slug: 'none' }, NEXT)).data).toEqual([]);
    expect(calls.at(-1)?.tags).toEqual([TYPE]);
  });

  it('tags a read by path with the path and the document, and a read with resolve with the resolved ones', async () => {
    const { cms, calls } = recordingClient();
    await cms.content.list({ type: 'post', path: 'first', resolve: ['author'] }, NEXT);
    const byPath = `${TYPE}:path:first`;
    expect(calls.map((c) => c.tags)).toEqual([[byPath], [byPath, doc(ids.first), doc(ids.ada)]]);
    calls.length = 0;
    await cms.content.get(ids.second, { resolve: ['author'], ...NEXT });
    expect(calls.map((c) => c.tags)).toEqual([[doc(ids.second)], [doc(ids.second), doc(ids.grace)]]);
    calls.length = 0;
    await cms.content.list({ type: 'post', resolve: ['author'], sort: 'path' }, NEXT);
    expect(calls.at(-1)?.tags).toEqual([TYPE, doc(ids.ada), doc(ids.grace)]);
  });

  it('keeps one tagged fetch for reads whose tags are known before (a get, a plain list)', async () => {
    const { cms, calls } = recordingClient();
    await cms.content.get(ids.first, NEXT);
    await cms.content.list({ type: 'post' }, NEXT);
    expect(calls.map((c) => [c.step, c.tags])).toEqual([
      [null, [doc(ids.first)]],
      [null, [TYPE]],
    ]);
  });

  it('rechecks with the type when the cached lookup is older than the read (the slug moved)', async () => {
    const { cms, calls } = recordingClient();
    await cms.content.list({ type: 'post', slug: 'one' }, NEXT);
    // The slug moves from the first post to the second; the lookup stays cached, as until a tag is revalidated.
    const writer = h.client();
    for (const [id, slug] of [
      [ids.first, 'moved'],
      [ids.second, 'one'],
    ] as const) {
      const current = await writer.content.get(id, { draft: true });
      await writer.content.update(id, {
        frontmatter: { ...current.frontmatter, slug },
        body: '',
        draftRevision: current.draftRevision,
      });
      await writer.content.publish(id);
    }
    calls.length = 0;
    const page = await cms.content.list({ type: 'post', slug: 'one' }, NEXT);
    expect(page.data.map((d) => d.documentId)).toEqual([ids.second]);
    expect(calls.map((c) => c.step)).toEqual(['lookup', null, 'recheck']);
    expect(calls[2]?.tags).toEqual([doc(ids.second), TYPE]);
  });

  it('in next build reads the lookup uncached and keys the tagged read by the fresh answer', async () => {
    const { cms, calls } = recordingClient();
    const uncached: string[] = [];
    process.env.NEXT_PHASE = 'phase-production-build';
    (globalThis.fetch as { _nextOriginalFetch?: typeof fetch })._nextOriginalFetch = (input, init) => {
      uncached.push(String(input));
      return fetch(input, init);
    };
    const page = await cms.content.list({ type: 'post', path: 'second' }, NEXT);
    expect(page.data.map((d) => d.documentId)).toEqual([ids.second]);
    expect(uncached).toHaveLength(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ step: null, digest: true, tags: [`${TYPE}:path:second`, doc(ids.second)] });
    calls.length = 0;
    await cms.content.get(ids.first, NEXT);
    expect(uncached).toHaveLength(2);
    expect(calls.map((c) => [c.digest, c.tags])).toEqual([[true, [doc(ids.first)]]]);
  });
});
