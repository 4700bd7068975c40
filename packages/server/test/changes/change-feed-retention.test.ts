/**
 * Retention of the change feed (docs/operations.md "Change feed retention"): old changes go, and a
 * cursor from before them answers CHANGES_CURSOR_EXPIRED instead of silently missing them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneChangeFeed } from '../../src/modules/domain-content/changes/change-retention.js';
import { createDocument, publishDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { feedPage, followFeed, summary } from './change-fixtures.js';

const DAY_MS = 86_400_000;
let t: TestServer;
beforeAll(async () => {
  // Retention runs only when the test calls it.
  t = await startTestServer({ env: { CMS_CHANGES_RETENTION_INTERVAL_SECONDS: '0' } });
  await syncSchema(t);
});
afterAll(() => t.close());

/** Moves every numbered change of the test's database `days` into the past. */
async function age(days: number): Promise<void> {
  await t.db.query(`update content_changes set at = at - make_interval(days => $1) where position is not null`, [days]);
}

describe('change feed retention', () => {
  it('removes changes past the retention; older cursors expire, newer ones and `since` omitted go on', async () => {
    const start = (await followFeed(t)).cursor;
    const old = await createDocument(t);
    await publishDocument(t, old.documentId);
    const middle = (await followFeed(t)).cursor;
    const alsoOld = await createDocument(t);
    await publishDocument(t, alsoOld.documentId);
    await followFeed(t);
    await age(31);
    const recent = await createDocument(t);
    await publishDocument(t, recent.documentId);
    const beforePrune = (await followFeed(t, start)).entries;
    expect(summary(beforePrune)).toContain(`${old.documentId}:published:1`);

    const removed = await pruneChangeFeed({ db: t.db, clock: () => new Date(), retentionDays: 30, batch: 1 });
    expect(removed).toBeGreaterThanOrEqual(4);

    for (const cursor of [start, middle]) {
      const expired = await t.request('GET', `/api/v1/changes?since=${cursor}`);
      expect(expired.status).toBe(410);
      expect(expired.body.error.code).toBe('CHANGES_CURSOR_EXPIRED');
      expect(expired.body.error.details.reason).toBe('retention');
      expect(expired.body.error.message).toMatch(/CMS_CHANGES_RETENTION_DAYS/);
      // Following from the cursor it names lists what comes next, not what went.
      const after = await feedPage(t, { since: expired.body.error.details.cursor });
      expect(after.data).toEqual([]);
    }
    // Without `since`, the feed starts at the oldest change kept.
    expect(summary((await followFeed(t, undefined, { draft: true })).entries)).toEqual([
      `${recent.documentId}:created:0`,
      `${recent.documentId}:published:1`,
    ]);
    // Nothing is left to remove, and a retention of 0 keeps everything.
    expect(await pruneChangeFeed({ db: t.db, clock: () => new Date(), retentionDays: 30 })).toBe(0);
    expect(
      await pruneChangeFeed({ db: t.db, clock: () => new Date(Date.now() + 400 * DAY_MS), retentionDays: 0 }),
    ).toBe(0);
  });
});
