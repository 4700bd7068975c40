import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPublishedReadCache } from '../../src/modules/domain-content/read-cache/published-read-cache.js';
import type { Db } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import { createInvalidationBus, INVALIDATION_CHANNEL } from '../../src/tenancy/invalidation.js';
import { IS_LISTEN_BACKEND } from '../support/listen-backend.js';
import { createTestDatabase, testEngine } from '../support/test-database.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function busOnTestDatabase() {
  const database = await createTestDatabase();
  cleanups.push(() => database.close());
  const bus = await createInvalidationBus(database.db);
  cleanups.push(() => bus.close());
  return { db: database.db, bus };
}

const answer = (bytes: number) => ({
  body: Buffer.alloc(bytes, 'x'),
  etag: '"e"',
  access: { permissions: ['content:read' as const] },
  logUrl: '/api/v1/content',
});
/** On PostgreSQL a NOTIFY comes back through the LISTEN connection a moment after it is sent. */
const heard = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 5 });

describe('the published read cache', () => {
  it('keeps entries within its byte budget, evicting the least recently used', async () => {
    const { bus } = await busOnTestDatabase();
    const cache = createPublishedReadCache({ bus, maxBytes: 10_000 });
    const stamp = cache.stamp();
    for (let n = 0; n < 5; n += 1) cache.store('env', `key-${n}`, stamp, answer(2_000));
    expect(cache.size()).toBeLessThanOrEqual(10_000);
    expect(cache.count()).toBe(4);
    expect(cache.get('env', 'key-0')).toBeUndefined();
    expect(cache.get('env', 'key-1')).toBeDefined(); // now the most recently used
    cache.store('env', 'key-5', stamp, answer(2_000));
    expect(cache.get('env', 'key-1')).toBeDefined();
    expect(cache.get('env', 'key-2')).toBeUndefined();
    // An answer larger than the whole budget is not kept.
    cache.store('env', 'huge', stamp, answer(20_000));
    expect(cache.get('env', 'huge')).toBeUndefined();
  });

  it('never serves an entry of an environment changed since, nor stores a read begun before a change', async () => {
    const { db, bus } = await busOnTestDatabase();
    const cache = createPublishedReadCache({ bus, maxBytes: 1_000_000 });
    const before = cache.stamp();
    cache.store('a', 'a-item', before, answer(10));
    cache.store('b', 'b-item', before, answer(10));
    await db.notify(db, INVALIDATION_CHANNEL, 'content:a');
    await heard(() => expect(cache.get('a', 'a-item')).toBeUndefined());
    expect(cache.get('b', 'b-item')).toBeDefined();
    // Read begun before the change, finished after: not stored.
    cache.store('a', 'a-late', before, answer(10));
    expect(cache.get('a', 'a-late')).toBeUndefined();
    cache.store('a', 'a-item', cache.stamp(), answer(10));
    expect(cache.get('a', 'a-item')).toBeDefined();
    // `content` without a key and any schema change: every environment.
    await db.notify(db, INVALIDATION_CHANNEL, 'schema:b');
    await heard(() => expect(cache.count()).toBe(0));
    expect(cache.get('a', 'a-item')).toBeUndefined();
  });

  it('with a budget of 0 keeps nothing', async () => {
    const { bus } = await busOnTestDatabase();
    const cache = createPublishedReadCache({ bus, maxBytes: 0 });
    cache.store('env', 'k', cache.stamp(), answer(10));
    expect(cache.get('env', 'k')).toBeUndefined();
    expect(cache.usable()).toBe(false);
  });
});

describe.runIf(testEngine() === 'postgres')('the published read cache without its LISTEN connection', () => {
  it('serves and stores nothing until notifications are back', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const name = `cms-cache-${randomBytes(4).toString('hex')}`;
    const url = new URL(database.url as string);
    url.searchParams.set('application_name', name);
    const db: Db = await openPostgresDb({ connectionString: url.toString(), max: 2 });
    cleanups.push(() => db.close());
    const bus = await createInvalidationBus(db);
    cleanups.push(() => bus.close());
    const cache = createPublishedReadCache({ bus, maxBytes: 1_000_000 });
    cache.store('env', 'k', cache.stamp(), answer(10));
    expect(cache.get('env', 'k')).toBeDefined();
    await database.db.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and application_name = $1 and ${IS_LISTEN_BACKEND}`,
      [name],
    );
    for (let n = 0; n < 200 && bus.isLive(); n += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bus.isLive()).toBe(false);
    expect(cache.usable()).toBe(false);
    expect(cache.get('env', 'k')).toBeUndefined();
    const stamp = cache.stamp();
    cache.store('env', 'k', stamp, answer(10));
    expect(cache.get('env', 'k')).toBeUndefined();
    for (let n = 0; n < 500 && !bus.isLive(); n += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bus.isLive()).toBe(true);
    // A read begun while notifications were lost is not kept once they are back.
    cache.store('env', 'k', stamp, answer(10));
    expect(cache.get('env', 'k')).toBeUndefined();
    cache.store('env', 'k', cache.stamp(), answer(10));
    expect(cache.get('env', 'k')).toBeDefined();
  });
});
