import { createHash } from 'node:crypto';
import pg from 'pg';
import { createContentAnnouncer, isMissingAnnouncementsTable } from './content-announcer.js';
import {
  CONTENT_CHANGE_CHANNEL,
  CONTENT_CHANGED_QUERY,
  contentChangePayloads,
  RECORD_CONTENT_CHANGES_QUERY,
  type RecordedContentChanges,
} from './content-changes.js';
import { type Db, type QueryOptions, type QueryResult, READ_ONLY, type Transaction } from './db.js';
import { createPostgresListener } from './postgres-listener.js';
import { FailedBeforeEffect, isConnectionFailure, isTransientConflict, retryTransient } from './transient-retry.js';

// Keep int8 (counts, sums) as JavaScript numbers; every int8 we read fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/**
 * Opens a pooled node-postgres connection to DATABASE_URL, plus one connection outside the pool
 * for LISTEN (storage/postgres-listener.ts), which also sends the content announcements
 * (storage/content-announcer.ts) so that this process does not hear its own back. Work that failed without taking effect runs again
 * (storage/transient-retry.ts): transactions and statements PostgreSQL aborted as a deadlock victim
 * or on a serialization failure, work that could get no connection, transactions whose connection
 * failed before COMMIT, and read-only statements whose connection failed.
 */
export async function openPostgresDb(options: { connectionString: string; max: number }): Promise<Db> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max });
  // An idle client that loses its connection emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  // Every connection keeps an error listener of its own for life. pg-pool's listener is off while a
  // connection is checked out, and one released with an error still in its socket's buffer (PostgreSQL
  // ended every session: a restart, a failover) is handed to a waiting caller synchronously, before
  // that caller can listen: the error would be uncaught and end the process. What it records here
  // makes `lease` treat the connection as failed.
  const failedConnections = new WeakMap<pg.ClientBase, unknown>();
  pool.on('connect', (client) => {
    client.on('error', (error: Error) => {
      if (!failedConnections.has(client)) failedConnections.set(client, error);
    });
  });
  await pool.query('select 1');
  const listener = createPostgresListener(options.connectionString);
  const onPool = async <T>(sql: string, params?: readonly unknown[]) =>
    toResult<T>(await pool.query(sql, params as unknown[] | undefined));
  // The announcements go on the LISTEN connection, whose own NOTIFYs this process does not hear back
  // (it delivered them before the write returned); without one (not listening, or lost), on the pool.
  // The sweep goes on the pool: the sweeping process hears what it sends, like every other.
  const announcer = createContentAnnouncer({ query: onPool }, CONTENT_CHANGE_CHANNEL, {
    sender: {
      query: async <T>(sql: string, params?: readonly unknown[]) => {
        const sent = listener.query(sql, params);
        return sent ? toResult<T>(await sent) : onPool<T>(sql, params);
      },
    },
  });

  const statements = createStatementNames();
  const toConfig = (sql: string, params: readonly unknown[] | undefined, options: QueryOptions | undefined) => {
    const name = options?.prepare ? statements.nameOf(sql) : undefined;
    return { text: sql, values: params as unknown[] | undefined, ...(name ? { name } : {}) };
  };

  const toResult = <T>(result: pg.QueryResult): QueryResult<T> => ({
    rows: result.rows as T[],
    rowCount: result.rowCount ?? result.rows.length,
  });

  /**
   * A pooled connection, checked out. Failing to get one had no effect, so the work may run again;
   * so has getting one whose connection already failed (it is destroyed, and the caller retries).
   * An 'error' event on it (the server ended the session between two statements) is recorded by the
   * listener every connection has (above). A connection that failed is destroyed on release instead
   * of being handed to the next caller.
   */
  const lease = async () => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error: unknown) {
      throw new FailedBeforeEffect(error);
    }
    const failedAlready = failedConnections.get(client);
    if (failedAlready !== undefined) {
      client.release(true);
      throw new FailedBeforeEffect(failedAlready);
    }
    let noted: unknown = null;
    const failure = () => noted ?? failedConnections.get(client) ?? null;
    return {
      client,
      failure,
      /** Notes a statement's error when it means the connection failed. */
      note(error: unknown) {
        if (noted === null && isConnectionFailure(error)) noted = error;
      },
      release() {
        client.release(failure() !== null);
      },
    };
  };

  /** One statement outside a transaction (it commits by itself). */
  const statement = async <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
    const leased = await lease();
    try {
      return toResult<T>(await leased.client.query(toConfig(sql, params, options)));
    } catch (error: unknown) {
      leased.note(error);
      // A statement that writes nothing may run again; a write may have committed before its
      // connection failed, so that failure is the caller's to see.
      if ((options?.readOnly || options?.idempotent) && leased.failure() !== null) throw new FailedBeforeEffect(error);
      throw error;
    } finally {
      leased.release();
    }
  };

  // Migration 0017's table, absent until the migrations of a new database reach it: until then the
  // transactions record no announcement (and look again before each one).
  const hasAnnouncementsTable = async () => {
    const sql = "select to_regclass('content_announcements') is not null as present";
    return (await statement<{ present: boolean }>(sql, [], READ_ONLY)).rows[0]?.present === true;
  };
  let durableAnnouncements = await hasAnnouncementsTable();

  /** The wake-ups (`wake`) each open transaction queued. */
  const wakeUps = new WeakMap<Transaction, Array<[string, string]>>();
  /** This process's listeners now; the others' with the next announcement (its own echo is not heard). */
  const wake = (channel: string, payload: string) => {
    listener.deliver(channel, payload);
    announcer.wake(channel, payload);
  };

  /** One attempt: begin, fn, commit; rolled back on any error. */
  const attempt = async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    durableAnnouncements ||= await hasAnnouncementsTable();
    const recordChanges = durableAnnouncements ? RECORD_CONTENT_CHANGES_QUERY : CONTENT_CHANGED_QUERY;
    const leased = await lease();
    const { client } = leased;
    /** What `wake` queued in this transaction, sent once it commits. */
    const wakes: Array<[string, string]> = [];
    // A conflict aborts the whole transaction even when fn catches it (COMMIT would then quietly
    // roll back), so it is remembered here and decides the outcome; so is a failed connection.
    let conflict: unknown = null;
    let committing = false;
    const run = async (sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      try {
        return await client.query(toConfig(sql, params, options));
      } catch (error: unknown) {
        if (isTransientConflict(error)) conflict ??= error;
        leased.note(error);
        throw error;
      }
    };
    try {
      // Migration 0019: the triggers of this transaction record what changed and leave the NOTIFY to
      // `announcer`, after COMMIT (a NOTIFY inside it would serialise concurrent commits).
      await run(BEGIN_ANNOUNCING_AFTER_COMMIT);
      const tx: Transaction = {
        inTransaction: true,
        query: async (sql, params, options) => toResult(await run(sql, params, options)),
        exec: async (sql) => {
          await run(sql);
        },
      };
      wakeUps.set(tx, wakes);
      const result = await fn(tx);
      if (conflict !== null) throw conflict;
      const failure = leased.failure();
      if (failure !== null) throw failure;
      // One round trip reads what the triggers of migration 0015 recorded, writes the announcement
      // owed to other processes (migration 0017: it outlives this process), then commits.
      committing = true;
      const [recorded] = (await run(`${recordChanges}; commit`)) as unknown as pg.QueryResult[];
      const changes = recorded?.rows[0] as RecordedContentChanges | undefined;
      const payloads = contentChangePayloads(changes?.changed);
      // This process hears them now, before the write returns; the others through LISTEN, from
      // `announcer`'s NOTIFY, sent once committed and batched with other transactions' payloads (or,
      // should this process die first, by another process's sweep of the announcement row).
      for (const payload of payloads) listener.deliver(CONTENT_CHANGE_CHANNEL, payload);
      announcer.announce(payloads, changes?.announcement);
      for (const [channel, payload] of wakes) wake(channel, payload);
      return result;
    } catch (error: unknown) {
      const failure = leased.failure();
      if (failure === null) await client.query('rollback').catch(() => undefined);
      if (conflict !== null) throw conflict;
      // PostgreSQL rolls back a transaction whose connection ends before COMMIT: it may run again.
      // Once COMMIT was sent, whether it committed is not known, so that failure is the caller's.
      if (failure !== null && !committing) throw new FailedBeforeEffect(failure);
      throw error;
    } finally {
      leased.release();
    }
  };

  return {
    engine: 'postgres',
    // Outside a transaction a statement is its own transaction: after a conflict nothing of it remains.
    query: (sql, params, options) => retryTransient(() => statement(sql, params, options)),
    transaction: (fn) =>
      retryTransient(async () => {
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
    wake: async (queryable, channel, payload) => {
      const queued = wakeUps.get(queryable as Transaction);
      if (queued) queued.push([channel, payload]);
      else wake(channel, payload);
    },
    close: async () => {
      await announcer.flush();
      await listener.close();
      await pool.end();
    },
  };
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
