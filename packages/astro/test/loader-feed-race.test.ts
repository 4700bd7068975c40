/**
 * `cmsLoader` follows the change feed, so a release racing a single publish is never missed: in each
 * round a release of 300 posts is published and, right after it is sent, a single publish of another
 * post, while the loader loads again and again; once both have answered, one more load must leave every
 * entry on the published text and version the server answers, and a load after that must find nothing
 * to do. A loader that asked "updated since" the newest `updatedAt` it had seen missed such changes for
 * good: `updatedAt` is stamped inside the transaction, so on PostgreSQL the single publish commits with a
 * later stamp while the release is still writing, and a load between the two commits moved past the
 * release's stamps. On both engines (the embedded default runs the two transactions one after the other).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashHeader, postFrontmatter, syncSchema } from '../../server/test/content/fixtures.js';
import { createRelease } from '../../server/test/releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import { cmsLoader } from '../src/index.js';
import { loaderContext } from './support/loader-context.js';

const RELEASED = 300;
const ROUNDS = 3;
/** Largest batch of `POST /content/batch`. */
const BATCH = 100;

let t: TestServer;
let siteKey: string;
/** Document id to its current draft revision. */
const revisions = new Map<string, number>();
let releasedIds: string[] = [];
let singleId = '';

/** Sends operations in batches of 100; records each document's draft revision. */
async function batch(operations: Array<Record<string, unknown>>): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < operations.length; at += BATCH) {
    const answer = await t.request('POST', '/api/v1/content/batch', {
      headers: hashHeader(),
      body: { operations: operations.slice(at, at + BATCH) },
    });
    expect(answer.status, answer.text).toBe(200);
    for (const result of answer.body.data.results) {
      expect(result.ok, JSON.stringify(result)).toBe(true);
      revisions.set(result.document.documentId, result.document.draftRevision);
      ids.push(result.document.documentId);
    }
  }
  return ids;
}

/** New drafts of `ids`, titled and bodied for the round. */
function drafts(ids: string[], round: number) {
  return batch(
    ids.map((documentId) => ({
      op: 'update',
      documentId,
      frontmatter: postFrontmatter({ title: `Round ${round}` }),
      body: `round ${round}`,
      draftRevision: revisions.get(documentId),
    })),
  );
}

async function publishRelease(title: string, ids: string[]) {
  const release = await createRelease(t, title, Object.fromEntries(ids.map((id) => [id, 'publish'])));
  return t.request('POST', `/api/v1/releases/${release}/publish`, { body: {} });
}

/** Every published post, as the server answers it now: path to [title, version]. */
async function publishedNow(): Promise<Map<string, [unknown, unknown]>> {
  const shown = new Map<string, [unknown, unknown]>();
  for (let offset = 0; ; offset += 100) {
    const page = await t.request('GET', `/api/v1/content?type=post&limit=100&offset=${offset}`);
    for (const doc of page.body.data) shown.set(doc.path, [doc.frontmatter.title, doc.version]);
    if (!page.body.pagination.hasMore) return shown;
  }
}

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  siteKey = await t.createKey({ scopes: ['content:read', 'schema:read'] });
  const created = await batch(
    Array.from({ length: RELEASED + 1 }, (_, i) => ({
      op: 'create',
      type: 'post',
      path: `race/p-${String(i).padStart(3, '0')}`,
      frontmatter: postFrontmatter({ title: 'Round 1' }),
      body: 'round 1',
    })),
  );
  singleId = created.pop() as string;
  releasedIds = created;
  expect((await publishRelease('Round 1', [...releasedIds, singleId])).status).toBe(200);
}, 300_000);
afterAll(() => t.close());

describe('cmsLoader and the change feed', () => {
  it(`misses no change when a release of ${RELEASED} races a single publish (${ROUNDS} rounds)`, async () => {
    const { ctx, entries } = loaderContext();
    const loader = cmsLoader({
      type: 'post',
      serverUrl: t.url,
      apiKey: siteKey,
      project: 'default',
      environment: 'production',
    });
    await loader.load(ctx);
    expect(entries.size).toBe(RELEASED + 1);
    for (let round = 2; round < 2 + ROUNDS; round++) {
      await drafts([...releasedIds, singleId], round);
      let writing = true;
      const reader = (async () => {
        for (let loads = 0; writing || loads === 0; loads++) await loader.load(ctx);
      })();
      const releasing = publishRelease(`Round ${round}`, releasedIds);
      const single = t.request('POST', `/api/v1/content/${singleId}/publish`, { body: {} });
      const [releaseAnswer, singleAnswer] = await Promise.all([releasing, single]);
      writing = false;
      await reader;
      expect(releaseAnswer.status, releaseAnswer.text).toBe(200);
      expect(singleAnswer.status, singleAnswer.text).toBe(200);

      await loader.load(ctx);
      const loaded = new Map([...entries.values()].map((entry) => [entry.id, [entry.data.title, entry.data.version]]));
      expect(loaded, `round ${round}`).toEqual(await publishedNow());
      expect(new Set([...loaded.values()].map(([title]) => title)), `round ${round}`).toEqual(
        new Set([`Round ${round}`]),
      );
      await loader.load(ctx);
      expect(loader.lastReport?.mode, `round ${round}`).toBe('unchanged');
    }
  }, 900_000);
});
