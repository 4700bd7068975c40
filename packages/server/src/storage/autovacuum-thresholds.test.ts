import { describe, expect, it } from 'vitest';
import { type AutovacuumSettings, assessTable, type TableActivity } from './autovacuum-thresholds.js';

/** PostgreSQL 18's defaults. */
const DEFAULTS: AutovacuumSettings = {
  vacuumThreshold: 50,
  vacuumScaleFactor: 0.2,
  vacuumMaxThreshold: 100_000_000,
  vacuumInsertThreshold: 1000,
  vacuumInsertScaleFactor: 0.2,
  analyzeThreshold: 50,
  analyzeScaleFactor: 0.1,
  freezeMaxAge: 200_000_000,
};

/** A table of 10,000 rows on 1,000 pages, vacuumed and analyzed, untouched since. */
const QUIET: TableActivity = {
  reltuples: 10_000,
  relpages: 1000,
  relallvisible: 1000,
  relallfrozen: 0,
  currentPages: 1000,
  deadTuples: 0,
  insertedSinceVacuum: 0,
  modifiedSinceAnalyze: 0,
  xidAge: 1000,
  hasStatistics: true,
};

const counters = { fromCatalog: false };
const catalog = { fromCatalog: true };

describe('assessTable: the counters, as autovacuum reads them', () => {
  it('leaves a table alone up to each threshold, and acts one row past it', () => {
    // vacuum: 50 + 0.2 * 10,000 = 2,050 dead rows; analyze: 50 + 0.1 * 10,000 = 1,050 changes;
    // inserts: 1,000 + 0.2 * 10,000 = 3,000.
    const at = { ...QUIET, deadTuples: 2050, modifiedSinceAnalyze: 1050, insertedSinceVacuum: 3000 };
    expect(assessTable(at, DEFAULTS, counters)).toEqual({ vacuum: null, analyze: null });
    expect(assessTable({ ...at, deadTuples: 2051 }, DEFAULTS, counters).vacuum).toBe('dead rows 2051 > 2050');
    expect(assessTable({ ...at, insertedSinceVacuum: 3001 }, DEFAULTS, counters).vacuum).toBe(
      'inserted rows 3001 > 3000',
    );
    expect(assessTable({ ...at, modifiedSinceAnalyze: 1051 }, DEFAULTS, counters)).toEqual({
      vacuum: null,
      analyze: 'changed rows 1051 > 1050',
    });
  });

  it('counts a never-vacuumed table (reltuples -1) as empty, so the base thresholds apply', () => {
    const fresh = { ...QUIET, reltuples: -1, relpages: 0, relallvisible: 0, currentPages: 0, hasStatistics: false };
    expect(assessTable({ ...fresh, modifiedSinceAnalyze: 51, insertedSinceVacuum: 51 }, DEFAULTS, counters)).toEqual({
      vacuum: null,
      analyze: 'changed rows 51 > 50',
    });
    expect(assessTable({ ...fresh, insertedSinceVacuum: 1001 }, DEFAULTS, counters).vacuum).toBe(
      'inserted rows 1001 > 1000',
    );
  });

  it('scales the insert threshold by the unfrozen share, caps the dead-row one, and vacuums old xids', () => {
    const halfFrozen = { ...QUIET, relallfrozen: 500, insertedSinceVacuum: 2001 };
    expect(assessTable(halfFrozen, DEFAULTS, counters).vacuum).toBe('inserted rows 2001 > 2000');
    const capped = { ...DEFAULTS, vacuumMaxThreshold: 100 };
    expect(assessTable({ ...QUIET, deadTuples: 101 }, capped, counters).vacuum).toBe('dead rows 101 > 100');
    expect(assessTable({ ...QUIET, xidAge: 200_000_001 }, DEFAULTS, counters).vacuum).toMatch(/^relfrozenxid age/);
    const noInsertVacuum = { ...DEFAULTS, vacuumInsertThreshold: -1 };
    expect(assessTable({ ...QUIET, insertedSinceVacuum: 1e9 }, noInsertVacuum, counters).vacuum).toBeNull();
  });
});

describe('assessTable: what the catalog kept across a restart', () => {
  it('is consulted only on the first check', () => {
    const loaded = { ...QUIET, relallvisible: 0, hasStatistics: false };
    expect(assessTable(loaded, DEFAULTS, counters)).toEqual({ vacuum: null, analyze: null });
    expect(assessTable(loaded, DEFAULTS, catalog)).toEqual({
      vacuum: 'about 10000 rows on pages not all-visible > 3000',
      analyze: 'never analyzed, about 10000 rows > 1050',
    });
  });

  it('maintains a table filled without any vacuum or analyze, but not an empty one', () => {
    const filled = { ...QUIET, reltuples: -1, relpages: 0, relallvisible: 0, currentPages: 3, hasStatistics: false };
    const reason = '3 pages without a row count in the catalog';
    expect(assessTable(filled, DEFAULTS, catalog)).toEqual({ vacuum: reason, analyze: reason });
    expect(assessTable({ ...filled, currentPages: 0 }, DEFAULTS, catalog)).toEqual({ vacuum: null, analyze: null });
  });

  it('analyzes a table grown past the threshold since reltuples was taken, and leaves a quiet one', () => {
    expect(assessTable(QUIET, DEFAULTS, catalog)).toEqual({ vacuum: null, analyze: null });
    // 1,100 pages at 10 rows a page: 1,000 rows added (not over 1,050); 1,200 pages: 2,000 rows.
    expect(assessTable({ ...QUIET, currentPages: 1100, relallvisible: 1000 }, DEFAULTS, catalog).analyze).toBeNull();
    expect(assessTable({ ...QUIET, currentPages: 1200 }, DEFAULTS, catalog)).toEqual({
      vacuum: null,
      analyze: 'about 2000 rows added since the last vacuum or analyze > 1050',
    });
  });
});
