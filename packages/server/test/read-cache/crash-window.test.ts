/**
 * The crash window (docs/performance.md "Published read cache"): the server NOTIFYs other processes
 * after COMMIT, so a process that dies in between owes them an announcement. It is written in the
 * transaction (migration 0017) and sent by another process's sweep.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNOUNCEMENT_ORPHAN_AGE_MS,
  createContentAnnouncer,
  SWEEP_INTERVAL_MS,
} from '../../src/storage/content-announcer.js';
import { RECORD_CONTENT_CHANGES_QUERY } from '../../src/storage/content-changes.js';
import { createDocument, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import type { TestServer } from '../support/test-server.js';

const waitUntil = async (done: () => Promise<boolean>, limitMs: number) => {
  const start = performance.now();
  while (!(await done())) {
    if (performance.now() - start > limitMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
};

describe.runIf(testEngine() === 'postgres')('announcements that outlive the process that owes them', () => {
  let database: TestDatabase;
  let writer: ServerOnDatabase;
  let reader: ServerOnDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    writer = await startServerOn(database, { ownConnection: true });
    reader = await startServerOn(database, { ownConnection: true });
    await syncSchema(writer as unknown as TestServer);
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await database?.close();
  });

  const announcementRows = async () =>
    (await database.db.query<{ n: number }>('select count(*)::int as n from content_announcements')).rows[0]?.n;

  it('a write sends its announcement and deletes the row that recorded it', async () => {
    const doc = await createDocument(writer as unknown as TestServer, {
      frontmatter: postFrontmatter({ title: 'Sent' }),
    });
    await publishDocument(writer as unknown as TestServer, doc.documentId);
    expect(await waitUntil(async () => (await announcementRows()) === 0, 5_000)).toBe(true);
  });

  it('a process that dies between COMMIT and its NOTIFY: the others answer the new content all the same', async () => {
    const w = writer as unknown as TestServer;
    const doc = await createDocument(w, { frontmatter: postFrontmatter({ title: 'Before crash' }) });
    await publishDocument(w, doc.documentId);
    // The writer's own announcements (coalesced: the publish's may leave up to 20 ms after it returned)
    // are sent before the reader caches, so that only the sweep can tell it of the crashed write.
    expect(await waitUntil(async () => (await announcementRows()) === 0, 5_000)).toBe(true);
    const item = `/api/v1/content/${doc.documentId}`;
    await reader.request('GET', item);
    expect((await reader.request('GET', item)).body.data.frontmatter.title).toBe('Before crash');
    // Exactly what a server transaction sends, and then nothing: the process is gone before announcing.
    const crashed = new pg.Client({ connectionString: database.url ?? '' });
    await crashed.connect();
    try {
      await crashed.query("begin; set local cms.announce_after_commit = 'on'");
      await crashed.query(
        `update documents set published_frontmatter = published_frontmatter || '{"title": "After crash"}' where id = $1`,
        [doc.documentId],
      );
      await crashed.query(`${RECORD_CONTENT_CHANGES_QUERY}; commit`);
    } finally {
      await crashed.end();
    }
    const since = performance.now();
    const fresh = await waitUntil(
      async () => (await reader.request('GET', item)).body.data.frontmatter.title === 'After crash',
      ANNOUNCEMENT_ORPHAN_AGE_MS + 2 * SWEEP_INTERVAL_MS + 1_000,
    );
    expect(fresh, `still the old content after ${Math.round(performance.now() - since)} ms`).toBe(true);
    // Nobody announced the crashed write but a sweep, which deleted its row (it may answer a moment after
    // the reader saw the new content).
    expect(await waitUntil(async () => (await announcementRows()) === 0, 2 * SWEEP_INTERVAL_MS + 1_000)).toBe(true);
  });

  it('a sweep sends only announcements older than the orphan age, each environment once, in one transaction', async () => {
    // A database of its own, with no process sweeping it but this test.
    const own = await createTestDatabase();
    const announcer = createContentAnnouncer(own.db, 'cms_sweep_test');
    const listener = new pg.Client({ connectionString: own.url ?? '' });
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.connect();
    try {
      await listener.query('listen cms_sweep_test');
      await own.db.query(
        `insert into content_announcements (changed, created_at) values
           ('a,b,', clock_timestamp() - interval '1 minute'), ('b,', clock_timestamp() - interval '1 minute'),
           ('*,', clock_timestamp() - interval '1 minute'), ('young,', clock_timestamp())`,
      );
      expect((await announcer.sweep()).sort()).toEqual(['content', 'content:a', 'content:b']);
      expect(await waitUntil(async () => heard.length === 3, 5_000)).toBe(true);
      expect(heard.sort()).toEqual(['content', 'content:a', 'content:b']);
      const left = await own.db.query<{ changed: string }>('select changed from content_announcements');
      expect(left.rows).toEqual([{ changed: 'young,' }]);
      expect(await announcer.sweep(0)).toEqual(['content:young']);
      expect((await own.db.query('select 1 from content_announcements')).rowCount).toBe(0);
    } finally {
      await listener.end();
      await announcer.flush();
      await own.close();
    }
  });
});

// One process: nothing to announce to others, so nothing is written (and nothing would sweep it).
describe.runIf(testEngine() === 'pglite')('announcements on the embedded default', () => {
  it('writes no announcement rows', async () => {
    const database = await createTestDatabase();
    const server = await startServerOn(database);
    try {
      const t = server as unknown as TestServer;
      await syncSchema(t);
      const doc = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Embedded' }) });
      await publishDocument(t, doc.documentId);
      expect((await database.db.query('select 1 from content_announcements')).rowCount).toBe(0);
    } finally {
      await server.close();
      await database.close();
    }
  });
});
