import pg from 'pg';
import type { Db, NotificationHandler, QueryResult, Transaction } from './db.js';

// Keep int8 (counts, sums) as JavaScript numbers; every int8 we read fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** Opens a pooled node-postgres connection to DATABASE_URL. */
export async function openPostgresDb(options: { connectionString: string; max: number }): Promise<Db> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max });
  // An idle client that loses its connection emits here; without a listener the process would crash.
  pool.on('error', () => undefined);
  await pool.query('select 1');
  let listenClient: pg.PoolClient | null = null;
  const listeners = new Map<string, Set<NotificationHandler>>();

  const toResult = <T>(result: pg.QueryResult): QueryResult<T> => ({
    rows: result.rows as T[],
    rowCount: result.rowCount ?? result.rows.length,
  });

  const ensureListenClient = async (): Promise<pg.PoolClient> => {
    if (listenClient) return listenClient;
    const client = await pool.connect();
    client.on('notification', (message) => {
      for (const handler of listeners.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    listenClient = client;
    return client;
  };

  return {
    engine: 'postgres',
    query: async (sql, params) => toResult(await pool.query(sql, params as unknown[] | undefined)),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const tx: Transaction = {
          inTransaction: true,
          query: async (sql, params) => toResult(await client.query(sql, params as unknown[] | undefined)),
          exec: async (sql) => {
            await client.query(sql);
          },
        };
        const result = await fn(tx);
        await client.query('commit');
        return result;
      } catch (error: unknown) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    listen: async (channel, handler) => {
      const client = await ensureListenClient();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
      };
    },
    // pg_notify inside a transaction is delivered only when it commits.
    notify: async (queryable, channel, payload) => {
      await queryable.query('select pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      listenClient?.release();
      listenClient = null;
      await pool.end();
    },
  };
}
