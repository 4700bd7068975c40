import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import {
  createInvalidationBus,
  type InvalidationBus,
  type InvalidationLog,
  type InvalidationTopic,
} from '../../src/tenancy/invalidation.js';
import { IS_LISTEN_BACKEND } from '../support/listen-backend.js';
import { startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import { startTestServer } from '../support/test-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The database URL with an application name, so this connection's backends can be told apart. */
function namedUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

const LISTEN_BACKENDS = `select pid from pg_stat_activity
  where datname = current_database() and application_name = $1 and ${IS_LISTEN_BACKEND}`;

/** Ends the LISTEN backend(s) of connections named `name`, as a server restart or an operator would. */
async function terminateListener(database: TestDatabase, name: string): Promise<number[]> {
  const result = await database.db.query<{ pid: number }>(
    `select pid, pg_terminate_backend(pid) from (${LISTEN_BACKENDS}) as listening`,
    [name],
  );
  return result.rows.map((row) => row.pid);
}

/** Records every handler call of every topic, with whether the bus was live at that moment. */
function recordTopics(bus: InvalidationBus, topics: readonly InvalidationTopic[]) {
  const heard = new Map<InvalidationTopic, string[]>(topics.map((topic) => [topic, []]));
  for (const topic of topics) {
    bus.subscribe(topic, (key) => heard.get(topic)?.push(key ?? `forget (live: ${bus.isLive()})`));
  }
  return heard;
}

describe.runIf(testEngine() === 'pglite')('the invalidation bus on PGlite', () => {
  it('is always live: notifications are in-process', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const bus = await createInvalidationBus(database.db);
    expect(bus.isLive()).toBe(true);
    await bus.close();
  });
});

// A LISTEN connection exists only on PostgreSQL.
describe.runIf(testEngine() === 'postgres')('the invalidation bus after its LISTEN connection dies', () => {
  it('tells every subscriber to forget, is not live until it listens again, then hears new changes', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const name = `cms-bus-${randomBytes(4).toString('hex')}`;
    const db: Db = await openPostgresDb({ connectionString: namedUrl(database.url as string, name), max: 2 });
    cleanups.push(() => db.close());
    const lines: string[] = [];
    const log = {
      warn: (_details: object, message: string) => lines.push(`warn: ${message}`),
      info: (_details: object, message: string) => lines.push(`info: ${message}`),
    } as unknown as InvalidationLog;
    const bus = await createInvalidationBus(db, { log });
    const heard = recordTopics(bus, ['targets', 'api-keys', 'schema', 'content']);

    // Published from another pool, as another process would.
    await bus.publish(database.db, 'api-keys', 'before');
    await waitFor('the first invalidation', () => (heard.get('api-keys')?.includes('before') ? true : undefined));
    expect(bus.isLive()).toBe(true);

    expect(await terminateListener(database, name)).toHaveLength(1);
    await waitFor('the reconnection', () => (lines.length === 2 ? true : undefined));
    expect(bus.isLive()).toBe(true);
    expect(lines).toEqual([
      expect.stringMatching(/^warn: lost the database notification connection/),
      expect.stringMatching(/^info: database notifications are back/),
    ]);
    for (const topic of ['targets', 'schema', 'content'] as const) {
      expect(heard.get(topic)).toEqual(['forget (live: false)', 'forget (live: true)']);
    }

    await bus.publish(database.db, 'api-keys', 'after');
    await bus.publish(database.db, 'content', 'environment-1');
    await waitFor('invalidations after the reconnection', () =>
      heard.get('content')?.includes('environment-1') ? true : undefined,
    );
    expect(heard.get('api-keys')).toEqual(['before', 'forget (live: false)', 'forget (live: true)', 'after']);
    await bus.close();
  });

  it('lets a revocation from another process reach a cache that lost its LISTEN connection', async () => {
    const t = await startTestServer();
    cleanups.push(() => t.close());
    const name = `cms-other-${randomBytes(4).toString('hex')}`;
    const other = await startServerOn(t.database, {
      key: null,
      ownConnection: true,
      env: { DATABASE_URL: namedUrl(t.database.url as string, name) },
    });
    cleanups.push(() => other.close());
    const created = await t.request('POST', '/api/v1/api-keys', {
      body: { label: 'shared', scopes: ['content:read'], contextAllowlist: [{ project: '*', environment: '*' }] },
    });
    expect(created.status, created.text).toBe(201);
    const key = created.body.data.apiKey as string;
    expect((await other.request('GET', '/api/v1/me', { key })).status).toBe(200);

    const [terminated] = await terminateListener(t.database, name);
    expect(terminated).toBeTypeOf('number');
    await waitFor('a new LISTEN connection done listening', async () => {
      const listening = await t.db.query(`${LISTEN_BACKENDS} and pid <> $2 and state = 'idle'`, [name, terminated]);
      return listening.rowCount > 0 ? true : undefined;
    });
    // It reports `live` right after its last LISTEN: give that a moment.
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Cached again once notifications are back; only the revocation's notification can drop it now.
    expect((await other.request('GET', '/api/v1/me', { key })).status).toBe(200);

    expect((await t.request('DELETE', `/api/v1/api-keys/${created.body.data.id}`)).status).toBe(200);
    const status = await waitFor('the revocation in the other process', async () => {
      const answer = await other.request('GET', '/api/v1/me', { key });
      return answer.status === 401 ? answer.status : undefined;
    });
    expect(status).toBe(401);
  });
});
