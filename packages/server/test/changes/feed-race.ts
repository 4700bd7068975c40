/**
 * One round of the feed race: a release of `releaseSize` drafts published while `singles` documents are
 * published one by one in parallel, and a reader follows the published feed from the cursor it held
 * before, during the writes and to the end after them. Shared by the API test and the reliability run.
 */
import { expect } from 'vitest';
import { hashHeader, postFrontmatter } from '../content/fixtures.js';
import { type FeedEntry, followFeed, type Requester } from './change-fixtures.js';

/** What the reader saw against what was published. */
export interface RaceOutcome {
  missing: string[];
  repeated: string[];
  unexpected: string[];
  readsWhileWriting: number;
}

const BATCH = 100;

/** Creates `count` post drafts through the batch route, 100 per request, in parallel; returns their ids. */
export async function createDrafts(t: Requester, count: number, prefix: string): Promise<string[]> {
  const batches = Array.from({ length: Math.ceil(count / BATCH) }, (_, b) =>
    Array.from({ length: Math.min(BATCH, count - b * BATCH) }, (_, i) => ({
      op: 'create',
      type: 'post',
      path: `${prefix}/${b * BATCH + i}`,
      frontmatter: postFrontmatter({ title: `Post ${b * BATCH + i}` }),
    })),
  );
  const answers = await Promise.all(
    batches.map((operations) =>
      t.request('POST', '/api/v1/content/batch', { body: { operations }, headers: hashHeader() }),
    ),
  );
  return answers.flatMap((answer) => {
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data.results.map((result: { document: { documentId: string } }) => result.document.documentId);
  });
}

/** A release publishing these documents; returns its id. */
async function createRelease(t: Requester, title: string, ids: readonly string[]): Promise<string> {
  const created = await t.request('POST', '/api/v1/releases', { body: { title } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.id as string;
  const items = ids.map((documentId) => ({ documentId, action: 'publish' }));
  const added = await t.request('POST', `/api/v1/releases/${id}/items`, { body: { items } });
  expect(added.status, added.text).toBe(200);
  return id;
}

/**
 * Publishes the release and the single documents all at once while a reader follows the published feed;
 * with several servers (processes on one database) the reader alternates between them and the single
 * publishes spread over them.
 */
export async function raceReleaseAndPublishes(
  servers: readonly Requester[],
  options: { releaseSize: number; singles: number; round: number; pageSize?: number },
): Promise<RaceOutcome> {
  const on = (index: number) => servers[index % servers.length] as Requester;
  const first = on(0);
  const stamp = `${Date.now().toString(36)}-${options.round}`;
  const inRelease = await createDrafts(first, options.releaseSize, `race/${stamp}/release`);
  const single = await createDrafts(first, options.singles, `race/${stamp}/single`);
  const release = await createRelease(first, `Race ${stamp}`, inRelease);
  let { cursor } = await followFeed(first);

  const seen: FeedEntry[] = [];
  let writing = true;
  let readsWhileWriting = 0;
  const reader = (async () => {
    while (writing) {
      const page = await followFeed(on(readsWhileWriting), cursor, { limit: options.pageSize ?? 50 });
      seen.push(...page.entries);
      cursor = page.cursor;
      readsWhileWriting += 1;
    }
  })();
  const writes = Promise.all([
    first.request('POST', `/api/v1/releases/${release}/publish`),
    ...single.map((id, index) => on(index + 1).request('POST', `/api/v1/content/${id}/publish`, { body: {} })),
  ]);
  const answers = await writes.finally(() => {
    writing = false;
  });
  await reader;
  for (const answer of answers) expect(answer.status, answer.text).toBe(200);
  expect(answers[0]?.body.data.status).toBe('published');
  seen.push(...(await followFeed(on(readsWhileWriting), cursor)).entries);

  const expected = new Set([...inRelease, ...single].map((id) => `${id}:published:1`));
  const counts = new Map<string, number>();
  for (const entry of seen) {
    const key = `${entry.documentId}:${entry.change}:${entry.version}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return {
    missing: [...expected].filter((key) => !counts.has(key)),
    repeated: [...counts].filter(([, count]) => count > 1).map(([key]) => key),
    unexpected: [...counts.keys()].filter((key) => !expected.has(key)),
    readsWhileWriting,
  };
}
