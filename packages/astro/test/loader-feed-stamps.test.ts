/**
 * `cmsLoader` reads what changed from the change feed, which orders changes by when they became
 * visible, not by the time stamped on them. The server's clock is held here so that a release is
 * stamped before a single publish that committed (and was loaded) first, as happens when the release's
 * transaction takes its clock and then commits after the publish: the next load must still bring every
 * released post to its new text. A loader that asked "updated since" the newest `updatedAt` it had seen
 * moved past the release's stamps and reported the collection unchanged, for good. Deterministic, on
 * both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashHeader, postFrontmatter, syncSchema } from '../../server/test/content/fixtures.js';
import { createRelease } from '../../server/test/releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { cmsLoader } from '../src/index.js';
import { loaderContext } from './support/loader-context.js';

let t: TestServer;
let now = new Date('2030-01-01T00:00:00Z');
const ids: string[] = [];

async function create(path: string): Promise<string> {
  const made = await t.request('POST', '/api/v1/content', {
    headers: hashHeader(),
    body: { type: 'post', path, frontmatter: postFrontmatter({ title: 'First' }), body: 'first' },
  });
  expect(made.status, made.text).toBe(201);
  const id = made.body.data.documentId as string;
  expect((await t.request('POST', `/api/v1/content/${id}/publish`, { body: {} })).status).toBe(200);
  return id;
}

async function redraft(id: string, title: string): Promise<void> {
  const current = await t.request('GET', `/api/v1/content/${id}?draft=true`);
  const saved = await t.request('PUT', `/api/v1/content/${id}`, {
    headers: hashHeader(),
    body: { frontmatter: postFrontmatter({ title }), body: title, draftRevision: current.body.data.draftRevision },
  });
  expect(saved.status, saved.text).toBe(200);
}

beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await syncSchema(t);
  for (let i = 0; i < 4; i++) ids.push(await create(`stamps/p-${i}`));
}, 180_000);
afterAll(() => t.close());

describe('cmsLoader and stamps older than commits', () => {
  it('brings a release stamped before a publish it committed after into the next load', async () => {
    const key = await t.createKey({ scopes: ['content:read', 'schema:read'] });
    const { ctx, entries } = loaderContext();
    const loader = cmsLoader({
      type: 'post',
      serverUrl: t.url,
      apiKey: key,
      project: 'default',
      environment: 'production',
    });
    await loader.load(ctx);
    const [single, ...released] = ids as [string, ...string[]];
    for (const id of released) await redraft(id, 'Released');
    const release = await createRelease(t, 'Late commit', Object.fromEntries(released.map((id) => [id, 'publish'])));

    // The single publish, stamped later, commits first; a load sees it.
    now = new Date('2030-01-01T02:00:00Z');
    await redraft(single, 'Single');
    expect((await t.request('POST', `/api/v1/content/${single}/publish`, { body: {} })).status).toBe(200);
    await loader.load(ctx);
    // The release, stamped earlier, commits after it.
    now = new Date('2030-01-01T01:00:00Z');
    expect((await t.request('POST', `/api/v1/releases/${release}/publish`, { body: {} })).status).toBe(200);

    await loader.load(ctx);
    expect(loader.lastReport).toMatchObject({ mode: 'incremental', changed: released.length });
    const titles = Object.fromEntries([...entries.values()].map((entry) => [entry.id, entry.data.title]));
    expect(titles).toEqual({
      'stamps/p-0': 'Single',
      'stamps/p-1': 'Released',
      'stamps/p-2': 'Released',
      'stamps/p-3': 'Released',
    });
  });
});
