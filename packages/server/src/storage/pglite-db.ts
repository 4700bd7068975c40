import { PGlite } from '@electric-sql/pglite';
import { CONTENT_CHANGE_CHANNEL, CONTENT_CHANGED_QUERY, contentChangePayloads } from './content-changes.js';
import type { Db, NotificationHandler, Queryable, QueryResult, Transaction } from './db.js';

/**
 * PGlite runs one statement at a time in one process, and its own locks do not keep a plain query
 * from running inside another caller's open transaction. One queue serialises every query and every
 * whole transaction (ARCHITECTURE.md, "The embedded default").
 */
class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    // PGlite executes synchronously: chained straight after one another, queued statements would
    // hold the event loop for the whole queue (50 requests: ~200 ms), so sockets go unread and
    // some requests wait many rounds. Yielding first lets waiting requests join the queue in turn.
    const next = this.#tail.then(yieldToEventLoop).then(fn);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PostgreSQL settings of the embedded database's write-ahead log. PGlite keeps PostgreSQL's defaults
 * (`max_wal_size` 1 GB, `wal_level` replica), so a bulk import grew `pg_wal` towards a gigabyte beside
 * the data (docs/benchmarks.md "Disk"). A checkpoint now comes after 64 MB of WAL (PGlite, a single
 * backend, runs it in line), and `minimal` WAL (nothing replicates from PGlite) skips logging the rows
 * of tables created or truncated in the same transaction. Segments a checkpoint retires are removed, not
 * kept as 16 MB files for reuse (`wal_recycle=off`): recycling kept up to `max_wal_size` of them after
 * every bulk write, a third of the data directory after a push of 10,000 documents. New segments are not
 * zero-filled first (`wal_init_zero=off`), so a segment takes only the space written to it.
 */
export const PGLITE_WAL_SETTINGS = [
  'max_wal_size=64MB',
  'min_wal_size=32MB',
  'wal_level=minimal',
  'max_wal_senders=0',
  'wal_recycle=off',
  'wal_init_zero=off',
];

/**
 * Opens PGlite in a data directory, in memory (`dataDir` null), or from a dumped data dir.
 * `sharedBuffersMb` sets PostgreSQL's buffer cache: PGlite's 128 MB default is touched at start and
 * is most of an idle server's memory; pages it does not hold are read from the files (the OS caches them).
 */
export async function openPgliteDb(options: {
  dataDir: string | null;
  loadDataDir?: Blob;
  sharedBuffersMb?: number;
}): Promise<Db> {
  const settings = [
    ...(options.dataDir ? PGLITE_WAL_SETTINGS : []),
    ...(options.sharedBuffersMb ? [`shared_buffers=${options.sharedBuffersMb}MB`] : []),
  ];
  const pg = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(settings.length > 0
      ? { startParams: [...PGlite.defaultStartParams, ...settings.flatMap((setting) => ['-c', setting])] }
      : {}),
  });
  return createPgliteDb(pg);
}

/** Wraps an open PGlite instance as a Db. */
export function createPgliteDb(pg: PGlite): Db {
  const queue = new SerialQueue();
  const listeners = new Map<string, Set<NotificationHandler>>();
  const pendingNotifications = new WeakMap<Queryable, Array<[string, string]>>();

  const runQuery = async <T>(target: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) => {
    const result = await target.query<T>(sql, params as unknown[] | undefined);
    // PGlite reports affectedRows 0 for a SELECT; node-postgres reports the row count, so take the larger.
    return {
      rows: result.rows,
      rowCount: Math.max(result.rows.length, result.affectedRows ?? 0),
    } satisfies QueryResult<T>;
  };

  const deliver = (channel: string, payload: string) => {
    for (const handler of listeners.get(channel) ?? []) queueMicrotask(() => handler(payload));
  };

  const db: Db = {
    engine: 'pglite',
    query: (sql, params) => queue.run(() => runQuery(pg, sql, params)),
    transaction: (fn) =>
      queue.run(async () => {
        const notifications: Array<[string, string]> = [];
        const result = await pg.transaction(async (inner) => {
          const tx: Transaction = {
            inTransaction: true,
            query: (sql, params) => runQuery(inner, sql, params),
            exec: async (sql) => {
              await inner.exec(sql);
            },
          };
          pendingNotifications.set(tx, notifications);
          const value = await fn(tx);
          // What the triggers of migration 0015 announced: delivered with the other notifications.
          const changed = await runQuery<{ changed: string | null }>(inner, CONTENT_CHANGED_QUERY);
          for (const payload of contentChangePayloads(changed.rows[0]?.changed)) {
            notifications.push([CONTENT_CHANGE_CHANNEL, payload]);
          }
          return value;
        });
        for (const [channel, payload] of notifications) deliver(channel, payload);
        return result;
      }),
    // One process holds the embedded database, so notifications stay in-process.
    listen: async (channel, handler) => {
      const set = listeners.get(channel) ?? new Set();
      set.add(handler);
      listeners.set(channel, set);
      return async () => {
        set.delete(handler);
      };
    },
    notify: async (queryable, channel, payload) => {
      const pending = pendingNotifications.get(queryable);
      if (pending) pending.push([channel, payload]);
      else deliver(channel, payload);
    },
    // In-process, a notification already waits for the commit and costs it nothing.
    wake: (queryable, channel, payload) => db.notify(queryable, channel, payload),
    close: () => queue.run(() => pg.close()),
  };
  return db;
}
