/**
 * What a content announcement costs the process that writes (docs/performance.md "Published read
 * cache"; issue #18): one statement after COMMIT that NOTIFYs and deletes the announcement rows it
 * carries, sent on the LISTEN connection so that the writing process does not handle its own NOTIFY
 * a second time, while every other NOTIFY (its pool's, its sweep's) still reaches it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNOUNCE_INTERVAL_MS,
  ANNOUNCEMENT_ORPHAN_AGE_MS,
  createContentAnnouncer,
  SWEEP_INTERVAL_MS,
} from '../../src/storage/content-announcer.js';
import type { Db, Queryable, QueryResult } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import { INVALIDATION_CHANNEL } from '../../src/tenancy/invalidation.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitUntil = async (done: () => boolean | Promise<boolean>, limitMs: number) => {
  const start = performance.now();
  while (!(await done())) {
    if (performance.now() - start > limitMs) return false;
    await sleep(5);
  }
  return true;
};

describe('the content announcer', () => {
  it('sends each batch and deletes the rows that owed it in one statement', async () => {
    const statements: { sql: string; params: readonly unknown[] | undefined }[] = [];
    const db: Queryable = {
      query: async <T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
        statements.push({ sql, params });
        return { rows: [], rowCount: 0 };
      },
    };
    const announcer = createContentAnnouncer(db, 'cms_test');
    announcer.announce(['content:a'], 7);
    announcer.announce(['content:b'], 8);
    await announcer.flush();
    expect(statements).toHaveLength(2);
    for (const { sql } of statements) {
      expect(sql).toContain('pg_notify');
      expect(sql).toContain('delete from content_announcements');
    }
    expect(statements.map(({ params }) => params)).toEqual([
      [['cms_test'], ['content:a'], [7]],
      [['cms_test'], ['content:b'], [8]],
    ]);
  });

  it('sends the first announcement after a quiet spell at once, and coalesces what follows within the interval', async () => {
    const sent: { at: number; payloads: unknown; ids: unknown }[] = [];
    const db: Queryable = {
      query: async <T>(_sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
        sent.push({ at: performance.now(), payloads: params?.[1], ids: params?.[2] });
        return { rows: [], rowCount: 0 };
      },
    };
    const announcer = createContentAnnouncer(db, 'cms_test');
    const first = performance.now();
    announcer.announce(['content:a'], 1);
    // Writes committed while the first statement is out, and a few milliseconds later: one statement.
    announcer.announce(['content:b'], 2);
    await sleep(5);
    announcer.announce(['content:c', 'content:b'], 3);
    expect(await waitUntil(() => sent.length === 2, 2_000)).toBe(true);
    await sleep(ANNOUNCE_INTERVAL_MS * 2);
    await announcer.flush();
    expect(sent.map(({ payloads, ids }) => [payloads, ids])).toEqual([
      [['content:a'], [1]],
      [
        ['content:b', 'content:c'],
        [2, 3],
      ],
    ]);
    expect(sent[0]!.at - first).toBeLessThan(ANNOUNCE_INTERVAL_MS);
    // (Timers round to whole milliseconds, so allow 2 ms.)
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(ANNOUNCE_INTERVAL_MS - 2);
    // After a quiet spell longer than the interval the next goes at once again.
    const again = createContentAnnouncer(db, 'cms_test');
    const since = performance.now();
    again.announce(['content:d'], 4);
    expect(await waitUntil(() => sent.length === 3, 2_000)).toBe(true);
    expect(sent[2]!.at - since).toBeLessThan(ANNOUNCE_INTERVAL_MS);
    await again.flush();
  });

  it('a flush sends what waits for the interval at once', async () => {
    const sent: unknown[] = [];
    const db: Queryable = {
      query: async <T>(_sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
        sent.push(params?.[1]);
        return { rows: [], rowCount: 0 };
      },
    };
    const announcer = createContentAnnouncer(db, 'cms_test', { intervalMs: 60_000 });
    announcer.announce(['content:a'], 1);
    await waitUntil(() => sent.length === 1, 2_000);
    announcer.announce(['content:b'], 2);
    const since = performance.now();
    await announcer.flush();
    expect(performance.now() - since).toBeLessThan(1_000);
    expect(sent).toEqual([['content:a'], ['content:b']]);
  });

  it('sends wake-ups of other channels in the same statement as the announcements', async () => {
    const statements: (readonly unknown[] | undefined)[] = [];
    const db: Queryable = {
      query: async <T>(_sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
        statements.push(params);
        return { rows: [], rowCount: 0 };
      },
    };
    const announcer = createContentAnnouncer(db, 'cms_test', { intervalMs: 60_000 });
    announcer.wake('cms_queue', 'p1');
    announcer.announce(['content:a'], 7);
    announcer.wake('cms_queue', 'p1');
    announcer.wake('cms_queue', 'p2');
    await announcer.flush();
    expect(statements).toEqual([
      [['cms_queue'], ['p1']],
      [['cms_test', 'cms_queue', 'cms_queue'], ['content:a', 'p1', 'p2'], [7]],
    ]);
  });

  it('after a failed statement sends the payloads and deletes the rows again, together', async () => {
    const statements: (readonly unknown[] | undefined)[] = [];
    const db: Queryable = {
      query: async <T>(_sql: string, params?: readonly unknown[]): Promise<QueryResult<T>> => {
        statements.push(params);
        if (statements.length === 1) throw new Error('connection lost');
        return { rows: [], rowCount: 0 };
      },
    };
    const announcer = createContentAnnouncer(db, 'cms_test');
    announcer.announce(['content:a'], 7);
    await waitUntil(() => statements.length === 2, 2_000);
    await announcer.flush();
    expect(statements).toEqual([
      [['cms_test'], ['content:a'], [7]],
      [['cms_test'], ['content:a'], [7]],
    ]);
  });
});

describe.runIf(testEngine() === 'postgres')('announcements between processes on PostgreSQL', () => {
  let database: TestDatabase;
  /** Two server processes' databases: their own pools and LISTEN connections. */
  let writer: Db;
  let reader: Db;
  const heardByWriter: string[] = [];
  const heardByReader: string[] = [];
  /** Announcement rows left when the reader heard each announcement. */
  const rowsWhenHeard: Promise<number>[] = [];

  const rows = async () =>
    (await database.db.query<{ n: number }>('select count(*)::int as n from content_announcements')).rows[0]?.n ?? -1;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = database.url ?? '';
    writer = await openPostgresDb({ connectionString: url, max: 4 });
    reader = await openPostgresDb({ connectionString: url, max: 4 });
    await writer.listen(INVALIDATION_CHANNEL, (payload) => heardByWriter.push(payload));
    await reader.listen(INVALIDATION_CHANNEL, (payload) => {
      heardByReader.push(payload);
      if (payload.startsWith('content')) rowsWhenHeard.push(rows());
    });
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await database?.close();
  });

  /** A server transaction that changed content in `environment` (what migration 0019's triggers record). */
  const change = (environment: string) =>
    writer.transaction(async (tx) => {
      await tx.query('select cms_content_changed($1)', [environment]);
    });

  it('the writing process handles its announcement once; the other hears it, its row already gone', async () => {
    await change('env-once');
    // Delivered in-process before the transaction returned.
    expect(heardByWriter).toEqual(['content:env-once']);
    const since = performance.now();
    expect(await waitUntil(() => heardByReader.includes('content:env-once'), 2_000)).toBe(true);
    expect(performance.now() - since).toBeLessThan(100);
    expect(await Promise.all(rowsWhenHeard)).toEqual([0]);
    // Its own NOTIFY came back to its LISTEN connection by now, and was not handled again.
    await sleep(300);
    expect(heardByWriter).toEqual(['content:env-once']);
  });

  it('a quiet system keeps no announcement rows, and no sweep announces a write again', async () => {
    heardByReader.length = 0;
    await change('env-quiet');
    await sleep(ANNOUNCEMENT_ORPHAN_AGE_MS + 2 * SWEEP_INTERVAL_MS + 300);
    expect(await rows()).toBe(0);
    expect(heardByReader).toEqual(['content:env-quiet']);
  });

  it('a wake-up reaches the writing process when its transaction commits and the other soon after; a rollback wakes nobody', async () => {
    const writerWoken: string[] = [];
    const readerWoken: string[] = [];
    const stopWriter = await writer.listen('cms_test_queue', (payload) => writerWoken.push(payload));
    const stopReader = await reader.listen('cms_test_queue', (payload) => readerWoken.push(payload));
    try {
      await expect(
        writer.transaction(async (tx) => {
          await writer.wake(tx, 'cms_test_queue', 'rolled-back');
          throw new Error('abandoned');
        }),
      ).rejects.toThrow('abandoned');
      await writer.transaction(async (tx) => {
        await writer.wake(tx, 'cms_test_queue', 'committed');
        // Nothing is sent inside the transaction.
        expect(writerWoken).toEqual([]);
      });
      expect(writerWoken).toEqual(['committed']);
      const since = performance.now();
      expect(await waitUntil(() => readerWoken.includes('committed'), 2_000)).toBe(true);
      expect(performance.now() - since).toBeLessThan(100);
      await sleep(300);
      // Once each: the writer does not hear its own NOTIFY again, and nobody heard the rollback.
      expect(writerWoken).toEqual(['committed']);
      expect(readerWoken).toEqual(['committed']);
    } finally {
      await stopWriter();
      await stopReader();
    }
  });

  it('every other NOTIFY of the writing process still reaches it (Db.notify, the sweep)', async () => {
    heardByWriter.length = 0;
    heardByReader.length = 0;
    await writer.notify(writer, INVALIDATION_CHANNEL, 'targets:t1');
    expect(await waitUntil(() => heardByWriter.includes('targets:t1'), 2_000)).toBe(true);
    // An announcement a dead process never sent: whichever process sweeps it, both hear it.
    await database.db.query(
      `insert into content_announcements (changed, created_at) values ('env-orphan,', clock_timestamp() - interval '1 minute')`,
    );
    const heard = () => heardByWriter.includes('content:env-orphan') && heardByReader.includes('content:env-orphan');
    expect(await waitUntil(heard, 2 * SWEEP_INTERVAL_MS + 1_000)).toBe(true);
    expect(await rows()).toBe(0);
  });
});
