/**
 * PostgreSQL's autovacuum rules (`relation_needs_vacanalyze` in src/backend/postmaster/autovacuum.c,
 * PostgreSQL 18; "The Autovacuum Daemon" in the manual), applied by hand for PGlite, which runs no
 * autovacuum (docs/operations.md "Maintenance of the embedded default").
 */

/** The server's `autovacuum_*` settings, read from the database. */
export interface AutovacuumSettings {
  vacuumThreshold: number;
  vacuumScaleFactor: number;
  /** `autovacuum_vacuum_max_threshold` (PostgreSQL 18); -1 or null: no cap. */
  vacuumMaxThreshold: number | null;
  /** `autovacuum_vacuum_insert_threshold`; -1 turns insert-driven vacuums off. */
  vacuumInsertThreshold: number;
  vacuumInsertScaleFactor: number;
  analyzeThreshold: number;
  analyzeScaleFactor: number;
  freezeMaxAge: number;
}

/** What the catalog and the cumulative statistics say about one table. */
export interface TableActivity {
  /** `pg_class.reltuples`: rows at the last vacuum, analyze or index build; -1 when never. */
  reltuples: number;
  /** `pg_class.relpages` and `relallvisible`, `relallfrozen`, as of the same moment. */
  relpages: number;
  relallvisible: number;
  relallfrozen: number;
  /** Pages the table has now (`pg_relation_size` / `block_size`). */
  currentPages: number;
  /** `n_dead_tup`, `n_ins_since_vacuum`: counted since this process opened PGlite. */
  deadTuples: number;
  insertedSinceVacuum: number;
  /** `n_mod_since_analyze`, less its value at the last column-list analyze, which does not reset it. */
  modifiedSinceAnalyze: number;
  /** `age(relfrozenxid)`. */
  xidAge: number;
  /** Whether `pg_statistic` holds anything for the table: has it ever been analyzed? */
  hasStatistics: boolean;
}

/** Why a table needs a vacuum and/or an analyze; null when it does not. */
export interface MaintenanceNeed {
  vacuum: string | null;
  analyze: string | null;
}

/**
 * Decides like autovacuum: vacuum when dead rows exceed `vacuum_threshold + vacuum_scale_factor *
 * reltuples` (capped by the max threshold), when inserted rows exceed the insert threshold (scaled
 * by the unfrozen share of the table, as in PostgreSQL 18), or when `relfrozenxid` is older than
 * `autovacuum_freeze_max_age`; analyze when changed rows exceed `analyze_threshold +
 * analyze_scale_factor * reltuples`.
 *
 * PGlite keeps no cumulative statistics across a restart (they start from zero each time it opens),
 * so with `fromCatalog` (the first check after opening) the same thresholds are also applied to what
 * the catalog kept: rows on pages the visibility map does not cover count as inserted since the last
 * vacuum, and rows of a table never analyzed, or added since `reltuples` was taken, as changed.
 */
export function assessTable(
  table: TableActivity,
  settings: AutovacuumSettings,
  options: { fromCatalog: boolean },
): MaintenanceNeed {
  const reltuples = Math.max(table.reltuples, 0);
  let vacuumThreshold = settings.vacuumThreshold + settings.vacuumScaleFactor * reltuples;
  if (settings.vacuumMaxThreshold !== null && settings.vacuumMaxThreshold >= 0) {
    vacuumThreshold = Math.min(vacuumThreshold, settings.vacuumMaxThreshold);
  }
  const frozen = table.relpages > 0 ? Math.min(table.relallfrozen, table.relpages) / table.relpages : 0;
  const insertThreshold = settings.vacuumInsertThreshold + settings.vacuumInsertScaleFactor * reltuples * (1 - frozen);
  const insertsCount = settings.vacuumInsertThreshold >= 0;
  const analyzeThreshold = settings.analyzeThreshold + settings.analyzeScaleFactor * reltuples;

  let vacuum: string | null = null;
  if (table.xidAge > settings.freezeMaxAge) vacuum = `relfrozenxid age ${table.xidAge} > ${settings.freezeMaxAge}`;
  else if (table.deadTuples > vacuumThreshold)
    vacuum = `dead rows ${table.deadTuples} > ${Math.round(vacuumThreshold)}`;
  else if (insertsCount && table.insertedSinceVacuum > insertThreshold) {
    vacuum = `inserted rows ${table.insertedSinceVacuum} > ${Math.round(insertThreshold)}`;
  }
  let analyze: string | null = null;
  if (table.modifiedSinceAnalyze > analyzeThreshold) {
    analyze = `changed rows ${table.modifiedSinceAnalyze} > ${Math.round(analyzeThreshold)}`;
  }
  if (!options.fromCatalog || table.currentPages === 0) return { vacuum, analyze };

  if (table.reltuples < 0 || table.relpages === 0) {
    // Filled since it was last empty (or ever) without a vacuum or analyze: no density to count rows with.
    const reason = `${table.currentPages} pages without a row count in the catalog`;
    return { vacuum: vacuum ?? reason, analyze: analyze ?? reason };
  }
  const rowsPerPage = table.reltuples / table.relpages;
  const estimatedRows = Math.round(rowsPerPage * table.currentPages);
  const notAllVisible = Math.round(rowsPerPage * Math.max(table.currentPages - table.relallvisible, 0));
  if (vacuum === null && insertsCount && notAllVisible > insertThreshold) {
    vacuum = `about ${notAllVisible} rows on pages not all-visible > ${Math.round(insertThreshold)}`;
  }
  if (analyze === null && !table.hasStatistics && estimatedRows > analyzeThreshold) {
    analyze = `never analyzed, about ${estimatedRows} rows > ${Math.round(analyzeThreshold)}`;
  }
  const added = estimatedRows - table.reltuples;
  if (analyze === null && added > analyzeThreshold) {
    analyze = `about ${added} rows added since the last vacuum or analyze > ${Math.round(analyzeThreshold)}`;
  }
  return { vacuum, analyze };
}
