import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';
import { ANALYZE_COLUMNS } from './pglite-maintenance.js';

/**
 * Rows a table must have received in bulk since the server last analyzed it: at least this many, and at
 * least `BULK_ANALYZE_SCALE` of the rows the planner believes it has (autovacuum's analyze rule, with a
 * base of one full `POST /content/batch`). Single creates, updates and publishes are never counted, so
 * they never pay for an analyze.
 */
export const BULK_ANALYZE_MIN_ROWS = 100;
export const BULK_ANALYZE_SCALE = 0.1;
/** The analyze runs once bulk writes have paused this long: a push of many batches is analyzed once. */
export const BULK_ANALYZE_QUIET_MS = 1_000;

/** Does a table need an analyze after `bulkRows` rows written in bulk, when the planner counts `reltuples`? */
export function needsBulkAnalyze(bulkRows: number, reltuples: number): boolean {
  return bulkRows >= Math.max(BULK_ANALYZE_MIN_ROWS, BULK_ANALYZE_SCALE * Math.max(reltuples, 0));
}

/**
 * Fresh planner statistics after bulk work (a `cms push` in batches, a release publish of many
 * documents). PostgreSQL's autovacuum analyzes a table a while after a bulk load, if it runs at all (it
 * can be off, and PGlite has none): until then the planner plans the search and list queries for the
 * table as it was, and a search after an import of 10,000 documents took seconds. Services tell this
 * object, after their transaction committed, how many rows they wrote to which tables; it analyzes those
 * tables in the background once the bulk work pauses (docs/operations.md "Statistics after bulk work").
 */
export interface BulkStatistics {
  /** Counts rows written in bulk and committed; an analyze follows once writes pause. */
  noteBulkWrite(tables: readonly string[], rows: number): void;
  /** Resolves when no analyze is waiting or running (tests, shutdown). */
  settled(): Promise<void>;
  /** Cancels a waiting analyze and waits for a running one. */
  stop(): Promise<void>;
}

export function createBulkStatistics(options: { db: Db; log: FastifyBaseLogger; quietMs?: number }): BulkStatistics {
  const { db, log } = options;
  const quietMs = options.quietMs ?? BULK_ANALYZE_QUIET_MS;
  const pending = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const analyzeTable = async (table: string, rows: number) => {
    const { rows: found } = await db.query<{ reltuples: number }>(
      'select reltuples::float8 as reltuples from pg_class where oid = to_regclass($1)',
      [table],
    );
    const reltuples = found[0]?.reltuples;
    if (reltuples === undefined || !needsBulkAnalyze(rows, reltuples)) return false;
    // On PGlite every statement holds up requests, so `documents` is analyzed on the columns reads
    // filter and sort on (pglite-maintenance.ts); PostgreSQL analyzes it whole, search expressions included.
    const columns = db.engine === 'pglite' ? ANALYZE_COLUMNS[table] : undefined;
    const startedAt = performance.now();
    await db.query(`analyze ${table}${columns ? ` (${columns.join(', ')})` : ''}`);
    log.info(
      { table, bulkRows: rows, durationMs: Math.round(performance.now() - startedAt) },
      `analyzed ${table} after bulk writes`,
    );
    return true;
  };

  const run = async () => {
    for (const [table, rows] of [...pending]) {
      if (stopped) return;
      try {
        if (await analyzeTable(table, rows)) pending.set(table, (pending.get(table) ?? 0) - rows);
      } catch (error: unknown) {
        log.warn({ err: error, table }, 'analyze after bulk writes failed; autovacuum or the next bulk write will');
      }
      if ((pending.get(table) ?? 0) <= 0) pending.delete(table);
    }
  };

  const schedule = () => {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (running) {
        // Writes came in during an analyze: look again once it is done.
        void running.then(schedule);
        return;
      }
      running = run().finally(() => {
        running = null;
      });
    }, quietMs);
    timer.unref();
  };

  return {
    noteBulkWrite(tables, rows) {
      if (rows <= 0 || stopped) return;
      for (const table of tables) pending.set(table, (pending.get(table) ?? 0) + rows);
      schedule();
    },
    async settled() {
      while (timer !== null || running !== null) {
        if (running) await running;
        else await new Promise((resolve) => setTimeout(resolve, quietMs / 4));
      }
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
