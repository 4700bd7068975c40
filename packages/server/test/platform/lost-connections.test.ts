/**
 * PostgreSQL connections that fail under the server: a restart or failover, `pg_terminate_backend`,
 * an idle connection closed by the server or a proxy. Work that had no effect runs again on a new
 * connection, so a lightly loaded server never shows such a failure; the process never dies of one;
 * a database that stays unreachable answers 503 with the cause in the log at warn.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isCmsError } from '@cms/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import { MAX_TRANSIENT_ATTEMPTS } from '../../src/storage/transient-retry.js';
import { createDocument, hashHeader, syncSchema } from '../content/fixtures.js';
import { IS_LISTEN_BACKEND } from '../support/listen-backend.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import type { TestServer } from '../support/test-server.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Ends every backend of the connections named `name` (except LISTEN ones) and returns once they are
 * gone, without letting this process's event loop run meanwhile: the pool still holds them as idle,
 * as it does when the server ends a connection just before the pool hands it out.
 */
function endConnectionsNamed(url: string, name: string): number {
  const script = `
    const pg = require('pg');
    (async () => {
      const client = new pg.Client({ connectionString: process.argv[1] });
      await client.connect();
      const { rows } = await client.query(
        ${JSON.stringify(`select pid, pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2 and not ${IS_LISTEN_BACKEND}`)},
        [process.argv[2], process.argv[3]],
      );
      const pids = rows.map((row) => row.pid);
      while ((await client.query('select count(*)::int as n from pg_stat_activity where pid = any($1)', [pids])).rows[0].n > 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await client.end();
      process.stdout.write(String(pids.length));
    })().catch((error) => { console.error(error); process.exit(1); });`;
  // From the maintenance database, which takes connections when the test database refuses them.
  const maintenance = new URL(url);
  const databaseName = maintenance.pathname.slice(1);
  maintenance.pathname = '/postgres';
  const result = spawnSync(process.execPath, ['-e', script, maintenance.toString(), databaseName, name], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`ending connections failed: ${result.stderr}`);
  return Number(result.stdout);
}

/**
 * Signals the end of the backends of the connections named `name` (except LISTEN ones) and returns at
 * once: they end while the next requests arrive, as in a restart or failover under traffic.
 */
async function endConnectionsNow(db: Db, name: string): Promise<number> {
  const result = await db.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where datname = current_database() and application_name = $1 and not ${IS_LISTEN_BACKEND}`,
    [name],
  );
  return result.rowCount;
}

/** Lets the test database take connections or not, from the server's maintenance database. */
async function allowConnections(url: string, allow: boolean): Promise<void> {
  const parsed = new URL(url);
  const databaseName = parsed.pathname.slice(1);
  parsed.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: parsed.toString() });
  await admin.connect();
  try {
    await admin.query(`alter database ${databaseName} allow_connections ${allow}`);
  } finally {
    await admin.end();
  }
}

function namedUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

/** Log lines of a server, parsed. */
function logCollector() {
  const lines: Array<Record<string, any>> = [];
  return {
    lines,
    stream: { write: (line: string) => lines.push(JSON.parse(line)) },
    unavailable: () => lines.filter((line) => line.level === 40 && line.code === 'SERVICE_UNAVAILABLE'),
  };
}

describe.runIf(testEngine() === 'postgres')('connections PostgreSQL ends under the server', () => {
  let database: TestDatabase;
  let name = 0;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.query('create table lost_rows (attempt integer not null, step integer not null)');
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await database?.close();
  });

  /** A Db of one pooled connection, named so that only its backends are ended. */
  async function openNamedDb(): Promise<{ db: Db; name: string }> {
    name += 1;
    const applicationName = `lost-${name}`;
    const db = await openPostgresDb({ connectionString: namedUrl(database.url as string, applicationName), max: 1 });
    cleanups.push(() => db.close());
    return { db, name: applicationName };
  }

  const rows = async () =>
    (await database.db.query<{ attempt: number; step: number }>('select attempt, step from lost_rows order by step'))
      .rows;

  it('runs a read-only statement again when its pooled connection was ended', async () => {
    const { db, name } = await openNamedDb();
    expect(endConnectionsNamed(database.url as string, name)).toBe(1);
    const result = await db.query<{ one: number }>('select 1 as one', [], { readOnly: true });
    expect(result.rows).toEqual([{ one: 1 }]);
  });

  it('runs a transaction again when its connection was ended before it began', async () => {
    await database.db.query('delete from lost_rows');
    const { db, name } = await openNamedDb();
    expect(endConnectionsNamed(database.url as string, name)).toBe(1);
    let attempts = 0;
    await db.transaction(async (tx) => {
      attempts += 1;
      await tx.query('insert into lost_rows (attempt, step) values ($1, 1)', [attempts]);
    });
    // BEGIN met the ended session and ran again on a new connection, before fn ever ran.
    expect(attempts).toBe(1);
    expect(await rows()).toEqual([{ attempt: 1, step: 1 }]);
  });

  it('runs a transaction again from the start when its connection is ended between two statements', async () => {
    await database.db.query('delete from lost_rows');
    const { db, name } = await openNamedDb();
    let attempts = 0;
    const outcome = await db.transaction(async (tx) => {
      attempts += 1;
      await tx.query('insert into lost_rows (attempt, step) values ($1, 1)', [attempts]);
      if (attempts === 1) {
        expect(endConnectionsNamed(database.url as string, name)).toBe(1);
        // The end of the session arrives while no statement runs: an 'error' event on a connection
        // out of the pool, which nobody listened to before (the process died of it).
        await new Promise((resolve) => setImmediate(resolve));
      }
      await tx.query('insert into lost_rows (attempt, step) values ($1, 2)', [attempts]);
      return attempts;
    });
    expect(outcome).toBe(2);
    // Nothing of the first attempt remains: PostgreSQL rolled it back with its session.
    expect(await rows()).toEqual([
      { attempt: 2, step: 1 },
      { attempt: 2, step: 2 },
    ]);
  });

  it('does not run a write outside a transaction again (it may have committed), and drops the connection', async () => {
    await database.db.query('delete from lost_rows');
    const { db, name } = await openNamedDb();
    expect(endConnectionsNamed(database.url as string, name)).toBe(1);
    const failure = await db.query('insert into lost_rows (attempt, step) values (1, 1)').then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: '57P01' });
    expect(isCmsError(failure)).toBe(false);
    // The next statement gets a new connection, not the failed one.
    await db.query('insert into lost_rows (attempt, step) values (2, 1)');
    expect(await rows()).toEqual([{ attempt: 2, step: 1 }]);
  });

  it('runs an idempotent write again when its pooled connection was ended (lastUsedAt of API keys)', async () => {
    await database.db.query('delete from lost_rows');
    const { db, name } = await openNamedDb();
    expect(endConnectionsNamed(database.url as string, name)).toBe(1);
    await db.query('insert into lost_rows (attempt, step) values (1, 1) on conflict do nothing', [], {
      idempotent: true,
    });
    expect(await rows()).toEqual([{ attempt: 1, step: 1 }]);
  });

  it(`answers SERVICE_UNAVAILABLE with Retry-After after ${MAX_TRANSIENT_ATTEMPTS} attempts when no connection can be had`, async () => {
    const { db, name } = await openNamedDb();
    await allowConnections(database.url as string, false);
    try {
      endConnectionsNamed(database.url as string, name);
      let attempts = 0;
      const failure = await db
        .transaction(async (tx) => {
          attempts += 1;
          await tx.query('insert into lost_rows (attempt, step) values (9, 9)');
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(attempts).toBe(0);
      expect(failure).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        headers: { 'retry-after': '1' },
        // PostgreSQL's own reason, for the log: "database ... is not currently accepting connections".
        cause: { code: '55000' },
      });
      await expect(db.query('select 1', [], { readOnly: true })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await allowConnections(database.url as string, true);
    }
    expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});

describe.runIf(testEngine() === 'postgres')('a server whose pooled connections PostgreSQL ends', () => {
  let database: TestDatabase;
  let server: ServerOnDatabase;
  const log = logCollector();
  const APPLICATION = 'lost-server';
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServerOn(
      { ...database, url: namedUrl(database.url as string, APPLICATION) },
      { ownConnection: true, env: { LOG_LEVEL: 'warn' }, logStream: log.stream },
    );
    await syncSchema(server as unknown as TestServer);
  });
  afterAll(async () => {
    await server?.close();
    await database?.close();
  });

  it('answers a few requests at a time as usual while they are ended', async () => {
    // Before connections that failed were retried, about half the rounds had a 500 or a 503.
    const ROUNDS = 10;
    const doc = await createDocument(server as unknown as TestServer);
    let revision: number = doc.draftRevision;
    const answers: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // A few requests at once leave several idle connections in the pool ...
      await Promise.all(
        Array.from({ length: 4 }, () => server.request('GET', `/api/v1/content/${doc.documentId}?draft=true`)),
      );
      // ... which PostgreSQL ends (a restart, a failover, an idle timeout) as the next ones arrive.
      expect(await endConnectionsNow(database.db, APPLICATION)).toBeGreaterThan(0);
      const ready = await server.request('GET', '/readyz', { key: null });
      const published = await server.request('POST', `/api/v1/content/${doc.documentId}/publish`, {
        body: { changeSummary: `round ${round}` },
      });
      const updated = await server.request('PUT', `/api/v1/content/${doc.documentId}`, {
        headers: hashHeader(),
        body: {
          frontmatter: { title: `round ${round}`, slug: 'round' },
          body: `round ${round}`,
          draftRevision: revision,
        },
      });
      if (updated.status === 200) revision = updated.body.data.draftRevision;
      answers.push(`${ready.status} ${published.status} ${updated.status} ${updated.body?.error?.code ?? ''}`.trim());
    }
    expect(answers).toEqual(Array.from({ length: ROUNDS }, () => '200 200 200'));
    expect(log.unavailable()).toEqual([]);
    expect(log.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
  });

  it('answers 503 with Retry-After, logging the cause at warn, while the database refuses connections', async () => {
    const doc = await createDocument(server as unknown as TestServer);
    await allowConnections(database.url as string, false);
    try {
      endConnectionsNamed(database.url as string, APPLICATION);
      const ready = await server.request('GET', '/readyz', { key: null });
      const write = await server.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} });
      for (const answer of [ready, write]) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
      }
      expect(write.headers.get('retry-after')).toBe('1');
      const warned = log.unavailable();
      expect(warned.map((line) => line.url)).toEqual(
        expect.arrayContaining(['/readyz', `/api/v1/content/${doc.documentId}/publish`]),
      );
      for (const line of warned) expect(line.err).toMatchObject({ code: '55000' });
    } finally {
      await allowConnections(database.url as string, true);
    }
    expect((await server.request('GET', '/readyz', { key: null })).status).toBe(200);
  });
});
