import type { FastifyBaseLogger } from 'fastify';
import { type AutovacuumSettings, assessTable, type TableActivity } from './autovacuum-thresholds.js';
import type { Db } from './db.js';

/**
 * Columns `analyze` samples per table; other tables are analyzed whole. A whole `analyze documents`
 * also evaluates the full-text expressions of migration 0009 on every sampled row: 13 s at 100,000
 * documents, against 0.7 s for the plain columns reads filter, join and sort on (docs/benchmarks.md,
 * Findings 4). A column list skips every expression index, the `slug` ones included.
 */
export const ANALYZE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  documents: [
    'id',
    'project_id',
    'environment_id',
    'translation_group_id',
    'type',
    'locale',
    'path',
    'is_deleted',
    'published_version',
    'has_unpublished_changes',
    'created_at',
    'updated_at',
  ],
};

/** One maintenance statement that ran (or failed). */
export interface MaintenanceStep {
  table: string;
  operation: 'vacuum' | 'analyze';
  reason: string;
  durationMs: number;
  ok: boolean;
}

/** The embedded database's stand-in for autovacuum. */
export interface PgliteMaintenance {
  /** Checks now, then every interval, until `stop()`; does nothing on PostgreSQL or when turned off. */
  start(): void;
  /** Cancels the next check and waits for a running one to finish its current statement. */
  stop(): Promise<void>;
  /** One check: vacuums and analyzes what needs it; resolves to what ran (tests call it directly). */
  runOnce(): Promise<MaintenanceStep[]>;
}

export interface PgliteMaintenanceOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** Time between checks; 0 turns the worker off (`CMS_PGLITE_MAINTENANCE_INTERVAL_SECONDS`). */
  intervalMs: number;
}

interface TableRow extends TableActivity {
  relid: number;
  name: string;
  qualifiedName: string;
}

/**
 * PGlite runs PostgreSQL without background workers, so nothing vacuums or analyzes it: without
 * statistics the planner guesses, without vacuum the visibility map stays empty and index-only scans
 * read every row from the table. This worker applies autovacuum's thresholds (`assessTable`) at start
 * and then every interval. Every statement goes through the one PGlite queue and holds up requests
 * while it runs, so a check costs two small reads and only the tables over a threshold are touched.
 */
export function createPgliteMaintenance(options: PgliteMaintenanceOptions): PgliteMaintenance {
  const { db, log, intervalMs } = options;
  const enabled = db.engine === 'pglite' && intervalMs > 0;
  // A column-list analyze does not reset `n_mod_since_analyze` (only a whole-table one does), so
  // the counter's value at such an analyze is kept here and subtracted.
  const modifiedAtPartialAnalyze = new Map<number, number>();
  let checkedCatalog = false;
  let running: Promise<MaintenanceStep[]> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const runStatement = async (step: Omit<MaintenanceStep, 'durationMs' | 'ok'>, sql: string) => {
    const startedAt = performance.now();
    try {
      await db.query(sql);
      const done = { ...step, durationMs: Math.round(performance.now() - startedAt), ok: true };
      log.info(done, `pglite maintenance: ${step.operation} ${step.table}`);
      return done;
    } catch (error: unknown) {
      const failed = { ...step, durationMs: Math.round(performance.now() - startedAt), ok: false };
      log.warn({ ...failed, err: error }, `pglite maintenance: ${step.operation} ${step.table} failed`);
      return failed;
    }
  };

  const check = async (): Promise<MaintenanceStep[]> => {
    const fromCatalog = !checkedCatalog;
    const settings = await readSettings(db);
    const tables = await readTables(db);
    checkedCatalog = true;
    const steps: MaintenanceStep[] = [];
    for (const table of tables) {
      const columns = ANALYZE_COLUMNS[table.name];
      const baseline = modifiedAtPartialAnalyze.get(table.relid) ?? 0;
      const modifiedSinceAnalyze =
        table.modifiedSinceAnalyze >= baseline ? table.modifiedSinceAnalyze - baseline : table.modifiedSinceAnalyze;
      const need = assessTable({ ...table, modifiedSinceAnalyze }, settings, { fromCatalog });
      if (need.vacuum !== null && !stopped) {
        const sql = `vacuum ${table.qualifiedName}`;
        steps.push(await runStatement({ table: table.qualifiedName, operation: 'vacuum', reason: need.vacuum }, sql));
      }
      if (need.analyze !== null && !stopped) {
        const sql = `analyze ${table.qualifiedName}${columns ? ` (${columns.join(', ')})` : ''}`;
        const step = await runStatement(
          { table: table.qualifiedName, operation: 'analyze', reason: need.analyze },
          sql,
        );
        steps.push(step);
        if (step.ok && columns) modifiedAtPartialAnalyze.set(table.relid, table.modifiedSinceAnalyze);
        else if (step.ok) modifiedAtPartialAnalyze.delete(table.relid);
      }
    }
    return steps;
  };

  const runOnce = (): Promise<MaintenanceStep[]> => {
    if (!enabled) return Promise.resolve([]);
    // One check at a time: a call during a check waits for it instead of starting another.
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      runOnce()
        .catch((error: unknown) => log.warn({ err: error }, 'pglite maintenance check failed; trying again later'))
        .finally(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };

  return {
    start() {
      if (!enabled || stopped || timer !== null || running !== null) return;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
    runOnce,
  };
}

/** Asks PGlite to publish pending counters, then reads the autovacuum settings. */
async function readSettings(db: Db): Promise<AutovacuumSettings> {
  // A backend publishes its counters at most once a second, when idle; PGlite has no timer to do it
  // later, so the last writes before a quiet spell would stay unseen. This makes the next idle publish.
  await db.query('select pg_stat_force_next_flush()');
  const { rows } = await db.query<AutovacuumSettings>(
    `select current_setting('autovacuum_vacuum_threshold')::float8 as "vacuumThreshold",
       current_setting('autovacuum_vacuum_scale_factor')::float8 as "vacuumScaleFactor",
       current_setting('autovacuum_vacuum_max_threshold', true)::float8 as "vacuumMaxThreshold",
       current_setting('autovacuum_vacuum_insert_threshold')::float8 as "vacuumInsertThreshold",
       current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as "vacuumInsertScaleFactor",
       current_setting('autovacuum_analyze_threshold')::float8 as "analyzeThreshold",
       current_setting('autovacuum_analyze_scale_factor')::float8 as "analyzeScaleFactor",
       current_setting('autovacuum_freeze_max_age')::float8 as "freezeMaxAge"`,
  );
  const settings = rows[0];
  if (!settings) throw new Error('reading the autovacuum settings returned no row');
  return settings;
}

/** Every user table with its catalog sizes and cumulative counters. */
async function readTables(db: Db): Promise<TableRow[]> {
  const { rows } = await db.query<TableRow>(
    `select c.oid::int8::float8 as "relid", c.relname as "name",
       format('%I.%I', s.schemaname, s.relname) as "qualifiedName",
       c.reltuples::float8 as "reltuples", c.relpages::float8 as "relpages",
       c.relallvisible::float8 as "relallvisible", c.relallfrozen::float8 as "relallfrozen",
       (pg_relation_size(c.oid) / current_setting('block_size')::int8)::float8 as "currentPages",
       s.n_dead_tup::float8 as "deadTuples", s.n_ins_since_vacuum::float8 as "insertedSinceVacuum",
       s.n_mod_since_analyze::float8 as "modifiedSinceAnalyze", age(c.relfrozenxid)::float8 as "xidAge",
       exists (select 1 from pg_statistic st where st.starelid = c.oid) as "hasStatistics"
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     where c.relkind = 'r'
     order by s.schemaname, s.relname`,
  );
  return rows;
}
