/**
 * Where a release publish spends its time (docs/benchmarks.md "Releases"): seeds N posts with
 * unpublished drafts, then runs the publish's two set-based writes (version insert, documents update)
 * under EXPLAIN (ANALYZE, BUFFERS) inside a transaction that is rolled back, once as the migrations
 * leave the table and once per variant named in RELEASE_EXPLAIN_VARIANTS (comma-separated:
 * `as-0031` (the search indexes before migration 0048), `no-draft-search`, `no-published-search`,
 * `no-search`, `no-triggers`), to attribute index and trigger costs.
 *
 *   node scripts/bench/release-explain.mjs   # BENCH_RELEASE_ENGINE=postgres (default) or pglite; RELEASE_EXPLAIN_ITEMS=10000
 *
 * Needs `npm run build` first. Prints each plan and a JSON summary line.
 */
import { createBenchDatabase, probePostgres } from './databases.mjs';
import { seedDatabase } from './seed.mjs';

const ITEMS = Number(process.env.RELEASE_EXPLAIN_ITEMS ?? 10_000);
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const VARIANTS = ['as-migrated', ...(process.env.RELEASE_EXPLAIN_VARIANTS ?? '').split(',').filter(Boolean)];
const log = (message) => process.stderr.write(`[release-explain] ${message}\n`);

/** Migration 0031's indexed expression of one side (`draft` or `published`). */
function vector031(side) {
  const [fm, body] = [`${side}_frontmatter`, `${side}_body`];
  return `setweight(to_tsvector('simple'::regconfig, coalesce(${fm} ->> 'title', '')), 'A')
  || setweight(to_tsvector('simple'::regconfig, coalesce(cms_search_text(${fm}), '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, coalesce(${body}, '')), 'C')
  || setweight(to_tsvector('simple'::regconfig, cms_search_parts(coalesce(cms_search_text(${fm}), '') || ' ' || coalesce(${body}, ''))), 'D')`;
}

/** Statements that set up a variant inside the transaction (all undone by the rollback). */
const SETUP = {
  'as-migrated': [],
  'no-draft-search': ['drop index documents_search_draft'],
  'no-published-search': ['drop index documents_search_published'],
  // The search indexes as migration 0031 made them (expressions computed for every row version).
  'as-0031': [
    'drop trigger documents_search_vectors on documents',
    'drop index documents_search_draft',
    'drop index documents_search_published',
    `create index documents_search_published on documents using gin ((${vector031('published')})) where not is_deleted and published_version is not null`,
    `create index documents_search_draft on documents using gin ((${vector031('draft')})) where not is_deleted`,
  ],
  'no-search': ['drop index documents_search_draft', 'drop index documents_search_published'],
  'no-triggers': [
    'alter table documents disable trigger documents_counts_update',
    'alter table documents disable trigger documents_record_update',
  ],
};

async function main() {
  let engine = process.env.BENCH_RELEASE_ENGINE ?? 'postgres';
  if (engine === 'postgres' && !(await probePostgres(adminUrl)).version) engine = 'pglite';
  const database = await createBenchDatabase(engine, { adminUrl, poolMax: 2 });
  const db = await database.open();
  try {
    await seedDatabase(db, { posts: ITEMS, updatePoolSize: 1 });
    await db.query(`update documents set has_unpublished_changes = true where type = 'post'`);
    await db.query('vacuum analyze documents');
    const ids = (await db.query(`select id from documents where type = 'post' order by id`)).rows.map((r) => r.id);
    const scope = (await db.query(`select project_id as p, environment_id as e from documents limit 1`)).rows[0];
    const summary = {};
    for (const variant of VARIANTS) {
      const times = await db
        .transaction(async (tx) => {
          for (const statement of SETUP[variant]) await tx.query(statement);
          const plans = {};
          const explain = async (name, sql, params) => {
            const started = performance.now();
            const result = await tx.query(`explain (analyze, buffers, format text) ${sql}`, params);
            plans[name] = Math.round(performance.now() - started);
            // The id list of the filter is 10,000 UUIDs long: the plan is shown without it.
            const plan = result.rows.map((r) => r['QUERY PLAN']).filter((line) => !line.includes('Filter:'));
            log(`${variant} / ${name}:\n${plan.join('\n')}`);
          };
          await explain(
            'versions insert',
            `insert into document_versions (document_id, version, project_id, environment_id, frontmatter, body,
             published_at, published_by, change_summary)
           select d.id, d.version + 1, d.project_id, d.environment_id, d.draft_frontmatter, d.draft_body, now(), 'bench', 'explain'
           from documents d where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])`,
            [scope.p, scope.e, ids],
          );
          await explain(
            'documents update',
            `update documents as d set version = d.version + 1, published_version = d.version + 1,
             published_frontmatter = d.draft_frontmatter, published_body = d.draft_body, published_at = now(),
             has_unpublished_changes = false, updated_by = 'bench', updated_at = now()
           where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])`,
            [scope.p, scope.e, ids],
          );
          throw Object.assign(new Error('rollback'), { plans });
        })
        .catch((error) => {
          if (error?.plans) return error.plans;
          throw error;
        });
      summary[variant] = times;
    }
    process.stdout.write(`${JSON.stringify({ engine, items: ITEMS, summary })}\n`);
  } finally {
    await db.close();
    await database.dispose();
  }
}

main().catch((error) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
