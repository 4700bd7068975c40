import { createHash } from 'node:crypto';
import pg from 'pg';
import { isTransientConflict, retryOnConflict } from './conflict-retry.js';
import { createContentAnnouncer } from './content-announcer.js';
import {
  CONTENT_CHANGE_CHANNEL,
  CONTENT_CHANGED_QUERY,
  contentChangePayloads,
  RECORD_CONTENT_CHANGES_QUERY,
  type RecordedContentChanges,
} from './content-changes.js';
import type { Db, QueryOptions, QueryResult, Transaction } from './db.js';
import { createPostgresListener } from './postgres-listener.js';

// Keep int8 (counts, sums) as JavaScript numbers; every int8 we read fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * Opens a pooled node-postgres connection to DATABASE_URL, plus one connection outside the pool
 * for LISTEN (storage/postgres-listener.ts). Transactions and single statements that PostgreSQL
 * aborts as a deadlock victim or on a serialization failure run again (storage/conflict-retry.ts).
 */
export async function openPostgresDb(options: { connectionString: string; max: number }): Promise<Db> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max });
  // An idle client that loses its connection emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  const listener = createPostgresListener(options.connectionString);
  const announcer = createContentAnnouncer(
    { query: async (sql, params) => toResult(await pool.query(sql, params as unknown[] | undefined)) },
    CONTENT_CHANGE_CHANNEL,
  );

  // Migration 0017's table, absent until the migrations of a new database reach it: until then the
  // transactions record no announcement (and look again before each one).
  const hasAnnouncementsTable = async () =>
    (await pool.query<{ present: boolean }>("select to_regclass('content_announcements') is not null as present"))
      .rows[0]?.present === true;
  let durableAnnouncements = await hasAnnouncementsTable();

  const statements = createStatementNames();
  const toConfig = (sql: string, params: readonly unknown[] | undefined, options: QueryOptions | undefined) => {
    const name = options?.prepare ? statements.nameOf(sql) : undefined;
    return { text: sql, values: params as unknown[] | undefined, ...(name ? { name } : {}) };
  };

  const toResult = <T>(result: pg.QueryResult): QueryResult<T> => ({
    rows: result.rows as T[],
    rowCount: result.rowCount ?? result.rows.length,
  });

  /** One attempt: begin, fn, commit; rolled back on any error. */
  const attempt = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    durableAnnouncements ||= await hasAnnouncementsTable();
    const recordChanges = durableAnnouncements ? RECORD_CONTENT_CHANGES_QUERY : CONTENT_CHANGED_QUERY;
    const client = await pool.connect();
    // A conflict aborts the whole transaction even when fn catches it (COMMIT would then quietly
    // roll back), so it is remembered here and decides the outcome.
    let conflict: unknown = null;
    const run = async (sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      try {
        return await client.query(toConfig(sql, params, options));
      } catch (error: unknown) {
        if (isTransientConflict(error)) conflict ??= error;
        throw error;
      }
    };
    try {
      // Migration 0019: the triggers of this transaction record what changed and leave the NOTIFY to
      // `announcer`, after COMMIT (a NOTIFY inside it would serialise concurrent commits).
      await client.query(BEGIN_ANNOUNCING_AFTER_COMMIT);
      const tx: Transaction = {
        inTransaction: true,
        query: async (sql, params, options) => toResult(await run(sql, params, options)),
        exec: async (sql) => {
          await run(sql);
        },
      };
      const result = await fn(tx);
      if (conflict !== null) throw conflict;
      // One round trip reads what the triggers of migration 0015 recorded, writes the announcement
      // owed to other processes (migration 0017: it outlives this process), then commits.
      const [recorded] = (await run(`${recordChanges}; commit`)) as unknown as pg.QueryResult[];
      const changes = recorded?.rows[0] as RecordedContentChanges | undefined;
      const payloads = contentChangePayloads(changes?.changed);
      // This process hears them now, before the write returns; the others through LISTEN, from
      // `announcer`'s NOTIFY, sent once committed and batched with other transactions' payloads (or,
      // should this process die first, by another process's sweep of the announcement row).
      for (const payload of payloads) listener.deliver(CONTENT_CHANGE_CHANNEL, payload);
      announcer.announce(payloads, changes?.announcement);
      return result;
    } catch (error: unknown) {
      await client.query('rollback').catch(() => undefined);
      throw conflict ?? error;
    } finally {
      client.release();
    }
  };

  return {
    engine: 'postgres',
    // Outside a transaction a statement is its own transaction: after a conflict nothing of it remains.
    query: (sql, params, options) =>
      retryOnConflict(async () => toResult(await pool.query(toConfig(sql, params, options)))),
    transaction: (fn) =>
      retryOnConflict(async () => {
        try {
          return await attempt(fn);
        } catch (error: unknown) {
          // The table went away under us (a schema dropped and migrated again): run it without.
          if (!isMissingAnnouncementsTable(error)) throw error;
          durableAnnouncements = false;
          return attempt(fn);
        }
      }),
    listen: (channel, handler, onEvent) => {
      // A process that listens keeps caches: it sweeps the announcements other processes never sent.
      announcer.startSweeping();
      return listener.listen(channel, handler, onEvent);
    },
    // pg_notify inside a transaction is delivered only when it commits.
    notify: async (queryable, channel, payload) => {
      await queryable.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      await announcer.flush();
      await listener.close();
      await pool.end();
    },
  };
}

/** The error of a statement that names migration 0017's table where it does not exist. */
function isMissingAnnouncementsTable(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === '42P01' &&
    error.message.includes('content_announcements')
  );
}

/**
 * Opens a transaction whose content triggers (migration 0019) record changed environments without
 * NOTIFYing: the server announces them after COMMIT. Statements outside `transaction` keep the
 * triggers' NOTIFY.
 */
const BEGIN_ANNOUNCING_AFTER_COMMIT = "begin; set local cms.announce_after_commit = 'on'";

/** Most distinct prepared statement texts; past it statements run unnamed (each connection keeps its own). */
const MAX_PREPARED_STATEMENTS = 500;

/** Names of prepared statements by text: the same text always gets the same name on every connection. */
function createStatementNames() {
  const names = new Map<string, string>();
  return {
    nameOf(sql: string): string | undefined {
      let name = names.get(sql);
      if (name === undefined && names.size < MAX_PREPARED_STATEMENTS) {
        name = `cms_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
        names.set(sql, name);
      }
      return name;
    },
  };
}
