import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CmsServer, createServer } from '../../src/server.js';
import type { Db } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import { testEngine } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  DRIVERS,
  type Driver,
  eventually,
  type MediaTestServer,
  startMediaServer,
  startS3rver,
  uploadOk,
} from './media-api-support.js';
import {
  breakFsObject,
  createEnvironment,
  deleteEnvironment,
  makeQueueDue,
  queueEntries,
  type SwitchableProxy,
  startSwitchableProxy,
  storageKeyOf,
} from './media-purge-support.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Is the object of `key` still in storage? */
type StoredCheck = (key: string) => Promise<boolean>;

/**
 * A server whose storage a test can break: fs breaks one object (its file turns into a directory),
 * s3 takes the whole endpoint down behind a proxy. The poll interval is 1 s.
 */
async function startBreakableServer(driver: Driver) {
  const env = { CMS_MEDIA_PURGE_INTERVAL_SECONDS: '1' };
  if (driver === 'fs') {
    const t = await startTestServer({ env });
    cleanups.push(() => t.close());
    const stored: StoredCheck = (key) =>
      stat(path.join(t.dataDir, 'media', ...key.split('/'))).then(
        () => true,
        () => false,
      );
    return { t, stored, breakStorage: (key: string) => breakFsObject(t, key) };
  }
  const s3 = await startS3rver();
  cleanups.push(() => s3.close());
  const proxy: SwitchableProxy = await startSwitchableProxy(s3.env.S3_ENDPOINT);
  cleanups.push(() => proxy.close());
  const t = await startTestServer({ env: { ...s3.env, S3_ENDPOINT: proxy.url, ...env } });
  cleanups.push(() => t.close());
  const stored: StoredCheck = async (key) => (await s3.listKeys()).includes(key);
  const breakStorage = async (_key: string) => {
    proxy.setDown(true);
    return async () => proxy.setDown(false);
  };
  return { t, stored, breakStorage };
}

describe.each(DRIVERS)('media purge when storage fails (%s driver)', (driver) => {
  it('deletes the environment anyway, keeps the failed entry with a backoff, and purges it later', async () => {
    const { t, stored, breakStorage } = await startBreakableServer(driver);
    await createEnvironment(t, 'doomed');
    const asset = await uploadOk(t, { filename: 'stuck.txt', content: 'stuck' }, { environment: 'doomed' });
    const kept = await uploadOk(t, { filename: 'kept.txt', content: 'kept' });
    const key = await storageKeyOf(t, asset.id);
    const keptKey = await storageKeyOf(t, kept.id);

    const repair = await breakStorage(key);
    await deleteEnvironment(t, 'doomed');
    expect((await t.request('GET', '/api/v1/environments', { environment: null })).body.data).toHaveLength(1);

    // A claim counts the attempt at once; the failure is recorded when the delete has failed.
    await eventually(async () => typeof (await queueEntries(t))[0]?.lastError === 'string');
    const [entry] = await queueEntries(t);
    expect(entry).toMatchObject({ storageKey: key, attempts: 1 });
    expect(entry?.dueInMs).toBeGreaterThan(1_000); // backed off beyond the 1 s poll
    await repair();
    expect(await stored(key)).toBe(driver === 's3'); // fs: the repair removed the broken object itself

    await makeQueueDue(t); // as if the backoff had passed
    await eventually(async () => (await queueEntries(t)).length === 0);
    expect(await stored(key)).toBe(false);
    expect(await stored(keptKey)).toBe(true);
  });

  it('answers a single asset delete while storage is down and purges the file later', async () => {
    const { t, stored, breakStorage } = await startBreakableServer(driver);
    const asset = await uploadOk(t, { filename: 'single.txt', content: 'single' });
    const key = await storageKeyOf(t, asset.id);

    const repair = await breakStorage(key);
    const deleted = await t.request('DELETE', `/api/v1/media/${asset.id}`);
    expect(deleted.status).toBe(200);
    expect((await t.request('GET', `/api/v1/media/${asset.id}`)).status).toBe(404);
    expect((await queueEntries(t)).map((entry) => entry.storageKey)).toEqual([key]);
    // The worker's own attempt fails too and backs off: no attempt runs across the repair below.
    await eventually(async () => typeof (await queueEntries(t))[0]?.lastError === 'string');

    await repair();
    await makeQueueDue(t);
    await eventually(async () => (await queueEntries(t)).length === 0);
    expect(await stored(key)).toBe(false);
  });
});

/** A second server on the same database, data dir and storage, as a restarted or another process. */
async function startSibling(m: MediaTestServer, db: Db, env: { intervalSeconds: number }): Promise<CmsServer> {
  const server = await createServer({ ...m.t.config, mediaPurgeIntervalSeconds: env.intervalSeconds }, { db });
  cleanups.push(() => server.close());
  await server.listen();
  return server;
}

describe.each(DRIVERS)('media purge across processes (%s driver)', (driver) => {
  /** A server that purges nothing on its own (interval 0): a process that dies right after the commit. */
  async function startNonPurging(): Promise<MediaTestServer> {
    const m = await startMediaServer(driver, { CMS_MEDIA_PURGE_INTERVAL_SECONDS: '0' });
    cleanups.push(() => m.close());
    return m;
  }

  async function deleteEnvironmentWithFiles(t: TestServer): Promise<string[]> {
    await createEnvironment(t, 'doomed');
    const assets = [
      await uploadOk(t, { filename: 'a.txt', content: 'a' }, { environment: 'doomed' }),
      await uploadOk(t, { filename: 'b.txt', content: 'b' }, { environment: 'doomed' }),
    ];
    const keys = await Promise.all(assets.map((asset) => storageKeyOf(t, asset.id)));
    await deleteEnvironment(t, 'doomed');
    return keys;
  }

  it('finishes, after a restart, a purge left in the queue', async () => {
    const m = await startNonPurging();
    const kept = await storageKeyOf(m.t, (await uploadOk(m.t, { filename: 'kept.txt', content: 'kept' })).id);
    const keys = await deleteEnvironmentWithFiles(m.t);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await queueEntries(m.t)).map((entry) => entry.storageKey)).toEqual([...keys].sort());
    expect(await m.storedKeys()).toEqual([...keys, kept].sort());

    await m.t.server.close();
    // A long poll interval: the restarted worker's first pass, at start, must do it.
    await startSibling(m, m.t.db, { intervalSeconds: 3600 });
    await eventually(async () => (await queueEntries(m.t)).length === 0);
    expect(await m.storedKeys()).toEqual([kept]);
  });

  it.skipIf(testEngine() !== 'postgres')(
    'wakes the workers of other processes when an environment is deleted (PostgreSQL NOTIFY)',
    async () => {
      const m = await startNonPurging();
      const url = m.t.database.url as string;
      const otherDb = await openPostgresDb({ connectionString: url, max: 2 });
      cleanups.push(() => otherDb.close());
      // Started before the delete, with a poll far beyond the wait below: only the notification wakes it.
      await startSibling(m, otherDb, { intervalSeconds: 3600 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await deleteEnvironmentWithFiles(m.t);
      await eventually(async () => (await queueEntries(m.t)).length === 0);
      expect(await m.storedKeys()).toEqual([]);
    },
  );
});
