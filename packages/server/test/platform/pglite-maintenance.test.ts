import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Db } from '../../src/storage/db.js';
import { createPgliteDb } from '../../src/storage/pglite-db.js';
import { createPgliteMaintenance, type MaintenanceStep } from '../../src/storage/pglite-maintenance.js';
import { startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, testEngine } from '../support/test-database.js';

/** Enough documents for the planner to care, few enough to insert in a second or two. */
const DOCUMENTS = 3000;

/** Collects the JSON log lines a server writes. */
function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

/** Fastify's no-op logger; the worker's log lines are checked through a real server below. */
const quiet = Fastify({ logger: false }).log;

function maintenanceFor(db: Db, intervalMs = 60_000) {
  return createPgliteMaintenance({ db, log: quiet, intervalMs });
}

/** A project, an environment and `count` published posts, inserted in one statement each. */
async function insertDocuments(db: Db, count: number): Promise<{ projectId: string; environmentId: string }> {
  const project = await db.query<{ id: string }>(
    "insert into projects (id, slug, name) values (gen_random_uuid(), 'maint-' || gen_random_uuid(), 'M') returning id",
  );
  const projectId = project.rows[0]!.id;
  const environment = await db.query<{ id: string }>(
    `insert into environments (id, project_id, name, extends_id, is_default)
     values (gen_random_uuid(), $1, 'production', null, true) returning id`,
    [projectId],
  );
  const environmentId = environment.rows[0]!.id;
  await db.query(
    `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
       draft_frontmatter, draft_body, version, published_version, published_frontmatter, published_body,
       published_at, has_unpublished_changes, created_by, updated_by, created_at, updated_at)
     select gen_random_uuid(), $1, $2, gen_random_uuid(), 'post', 'posts/post-' || i, 'en', 'md',
       jsonb_build_object('title', 'Post ' || i), 'Body of post ' || i, 1, 1, jsonb_build_object('title', 'Post ' || i),
       'Body of post ' || i, now(), false, 'test', 'test', now() - make_interval(secs => i), now() - make_interval(secs => i)
     from generate_series(1, $3::int) as i`,
    [projectId, environmentId, count],
  );
  return { projectId, environmentId };
}

async function explain(db: Db, sql: string, params: readonly unknown[]): Promise<string> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, costs off, timing off, summary off) ${sql}`,
    params,
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The reference lookup of `resolve=` (documents.repository.ts): 20 documents by id. */
async function planReferenceLookup(db: Db, target: { projectId: string; environmentId: string }): Promise<string> {
  const ids = await db.query<{ id: string }>('select id from documents where environment_id = $1 limit 20', [
    target.environmentId,
  ]);
  return explain(
    db,
    'select * from documents d where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])',
    [target.projectId, target.environmentId, ids.rows.map((row) => row.id)],
  );
}

/** Heap rows fetched by a deep page of the published list, an index-only scan of migration 0006. */
async function heapFetchesOfDeepPage(db: Db, environmentId: string): Promise<number> {
  const plan = await explain(
    db,
    `select id from documents where environment_id = $1 and type = 'post' and not is_deleted
       and published_version is not null order by created_at desc, id desc limit 20 offset 1000`,
    [environmentId],
  );
  const fetches = /Heap Fetches: (\d+)/.exec(plan);
  if (!fetches) throw new Error(`expected an index-only scan, got:\n${plan}`);
  return Number(fetches[1]);
}

function stepsOn(steps: MaintenanceStep[], table: string): string[] {
  return steps.filter((step) => step.table === table && step.ok).map((step) => step.operation);
}

async function analyzedColumns(db: Db, table: string): Promise<string[]> {
  const { rows } = await db.query<{ attname: string }>(
    'select attname from pg_stats where schemaname = current_schema() and tablename = $1 order by attname',
    [table],
  );
  return rows.map((row) => row.attname);
}

// PGlite only: these read PGlite's planner and counters. The PostgreSQL run checks the no-op below.
describe.skipIf(testEngine() !== 'pglite')('PGlite maintenance (autovacuum stand-in)', () => {
  it('analyzes and vacuums a table past the thresholds: the plan and the index-only scans change', async () => {
    const database = await createTestDatabase();
    try {
      const { db } = database;
      const target = await insertDocuments(db, DOCUMENTS);
      // Without statistics the planner walks an environment-wide index instead of the primary key
      // (docs/benchmarks.md Findings 3); without vacuum every index entry visits the table.
      expect(await planReferenceLookup(db, target)).not.toContain('documents_pkey');
      expect(await heapFetchesOfDeepPage(db, target.environmentId)).toBe(1020);

      const steps = await maintenanceFor(db).runOnce();
      expect(stepsOn(steps, 'public.documents')).toEqual(['vacuum', 'analyze']);
      expect(await planReferenceLookup(db, target)).toContain('documents_pkey');
      expect(await heapFetchesOfDeepPage(db, target.environmentId)).toBe(0);
      const analyzed = await analyzedColumns(db, 'documents');
      expect(analyzed).toContain('environment_id');
      expect(analyzed).not.toContain('draft_body'); // the column list, not a whole-table analyze
      // Nor are the expression indexes (full-text, slug) analyzed: they are what makes a whole analyze slow.
      const expressions = await db.query("select 1 from pg_stats where tablename like 'documents\\_%'");
      expect(expressions.rowCount).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('does nothing below the thresholds, and counts changes from its own column-list analyze', async () => {
    const database = await createTestDatabase();
    try {
      const { db } = database;
      const target = await insertDocuments(db, DOCUMENTS);
      const maintenance = maintenanceFor(db);
      await maintenance.runOnce();
      expect(await maintenance.runOnce()).toEqual([]);

      // Analyze: 50 + 10% of 3,000 = 350 changed rows; vacuum: 50 + 20% = 650 dead rows.
      const edit = (count: number) =>
        db.query(
          `update documents set draft_body = draft_body || '!' where id in
             (select id from documents where environment_id = $1 order by random() limit $2)`,
          [target.environmentId, count],
        );
      await edit(300);
      expect(await maintenance.runOnce()).toEqual([]);
      await edit(100);
      const steps = await maintenance.runOnce();
      expect(steps.map((step) => [step.table, step.operation])).toEqual([['public.documents', 'analyze']]);
      expect(steps[0]?.reason).toBe('changed rows 400 > 350');
      expect(await maintenance.runOnce()).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('after a restart (PGlite keeps no counters), catches up from the catalog once', async () => {
    const template = new Blob([await readFile(inject('pgliteDumpFile') as string)]);
    const before = await PGlite.create({ loadDataDir: template });
    await insertDocuments(createPgliteDb(before), DOCUMENTS);
    const dump = await before.dumpDataDir('none');
    await before.close();

    const after = await PGlite.create({ loadDataDir: dump });
    const db = createPgliteDb(after);
    try {
      const counters = await db.query<{ n: number }>(
        "select n_mod_since_analyze::int as n from pg_stat_user_tables where relname = 'documents'",
      );
      expect(counters.rows[0]?.n).toBe(0);
      const maintenance = maintenanceFor(db);
      const steps = await maintenance.runOnce();
      expect(stepsOn(steps, 'public.documents')).toEqual(['vacuum', 'analyze']);
      expect(await analyzedColumns(db, 'documents')).toContain('environment_id');
      expect(await maintenance.runOnce()).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('runs at server start, logs each statement with its duration, and stops with the server', async () => {
    const database = await createTestDatabase();
    try {
      await insertDocuments(database.db, DOCUMENTS);
      const log = logCollector();
      const server = await startServerOn(database, { env: { LOG_LEVEL: 'info' }, logStream: log.stream });
      const analyzed = () =>
        log.lines.find(
          (line) => line.area === 'maintenance' && line.table === 'public.documents' && line.operation === 'analyze',
        );
      for (let waited = 0; !analyzed() && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      await server.close();
      expect(analyzed()).toMatchObject({ level: 30, ok: true, durationMs: expect.any(Number) });
      const stats = await database.db.query<{ last_analyze: Date | null }>(
        "select last_analyze from pg_stat_user_tables where relname = 'documents'",
      );
      expect(stats.rows[0]?.last_analyze).not.toBeNull();
    } finally {
      await database.close();
    }
  });
});

describe('PGlite maintenance is off', () => {
  it('on PostgreSQL, and with an interval of 0', async () => {
    const database = await createTestDatabase();
    try {
      await insertDocuments(database.db, DOCUMENTS);
      // The same data that the PGlite cases maintain: only the engine (or the setting) differs.
      const asPostgres: Db = { ...database.db, engine: 'postgres' };
      expect(await maintenanceFor(asPostgres).runOnce()).toEqual([]);
      const off = maintenanceFor(database.db, 0);
      expect(await off.runOnce()).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('reads CMS_PGLITE_MAINTENANCE_INTERVAL_SECONDS: 60 by default, 0 turns it off', () => {
    // A secret for each, so loading the config writes nothing into the (unused) data dir.
    const base = { CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32), CMS_PREVIEW_TOKEN_SECRET: 'off' };
    expect(loadConfig(base).pgliteMaintenanceIntervalSeconds).toBe(60);
    expect(loadConfig({ ...base, CMS_PGLITE_MAINTENANCE_INTERVAL_SECONDS: '0' }).pgliteMaintenanceIntervalSeconds).toBe(
      0,
    );
    expect(() => loadConfig({ ...base, CMS_PGLITE_MAINTENANCE_INTERVAL_SECONDS: '-1' })).toThrow(ConfigError);
  });
});
