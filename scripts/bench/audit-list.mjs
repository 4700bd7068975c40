/**
 * The audit row of `npm run bench` (docs/benchmarks.md, docs/audit.md): fills one project's audit log
 * with BENCH_AUDIT_ENTRIES generated entries (default 100,000; the target is stated for 10,000,000),
 * then times `GET /api/v1/audit` one request at a time: the first page, a filtered page (one actor, one
 * document), and a page deep in the log by cursor. Target: p99 under 50 ms for each.
 *
 *   BENCH_AUDIT_ENTRIES=10000000 node scripts/bench/audit-list.mjs   # BENCH_AUDIT_ENGINE=postgres (default) or pglite
 *
 * Needs `npm run build` first. Prints one JSON line with the timings.
 */
import { join } from 'node:path';
import { migrate } from '../../packages/server/dist/storage/migrate.js';
import { createBenchDatabase, disposeAll, probePostgres } from './databases.mjs';
import { startCms, stopAll } from './processes.mjs';
import { PROJECT, seedDatabase } from './seed.mjs';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES || 100_000);
const REQUESTS = Number(process.env.BENCH_AUDIT_REQUESTS || 300);
const TARGET_P99_MS = 50;
/** Rows generated per statement: bounded memory and WAL per statement at any size. */
const INSERT_BATCH = 250_000;
const ACTORS = 50;
const DOCUMENTS = 10_000;
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (message) => process.stderr.write(`[audit-bench] ${message}\n`);

/**
 * Entries of one chain numbered from..to: actors, actions, documents and outcomes spread evenly, one
 * a second. The hashes are not a valid chain (verification is not what this row measures).
 */
const GENERATE = `
insert into audit_entries (chain_key, seq, id, at, project_id, actor_type, actor_id, actor_label, action, target,
  environment, type_name, document_id, outcome, request_id, ip, changes, prev_hash, hash)
select $1::text, n, gen_random_uuid(), timestamptz '2025-01-01' + n * interval '1 second', $1::text::uuid, 'user',
  'actor-' || (n % ${ACTORS}), 'actor' || (n % ${ACTORS}) || '@example.test',
  (array['content.update', 'content.publish', 'content.create', 'media.upload'])[1 + n % 4],
  jsonb_build_object('project', '${PROJECT}', 'environment', 'production', 'type', 'post',
    'documentId', 'doc-' || (n % ${DOCUMENTS}), 'locale', 'en', 'id', null),
  'production', 'post', 'doc-' || (n % ${DOCUMENTS}),
  case when n % 50 = 0 then 'failure' else 'success' end, 'req-' || n, '127.0.0.1',
  '{"frontmatter":{"added":[],"removed":[],"changed":["title"]},"body":{"linesBefore":10,"linesAfter":11}}'::jsonb,
  md5(n::text), md5((n + 1)::text)
from generate_series($2::bigint, $3::bigint) as n`;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main() {
  let engine = process.env.BENCH_AUDIT_ENGINE ?? 'postgres';
  if (engine === 'postgres' && !(await probePostgres(adminUrl)).version) {
    log('PostgreSQL does not answer: using PGlite');
    engine = 'pglite';
  }
  const database = await createBenchDatabase(engine, { adminUrl, poolMax: 10 });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts: 100, updatePoolSize: 1 });
  // Every migration, the audit log's too (the seed stops at the tables it writes).
  await migrate(db);
  const fillStarted = performance.now();
  for (let from = 1; from <= ENTRIES; from += INSERT_BATCH) {
    await db.query(GENERATE, [seed.projectId, from, Math.min(ENTRIES, from + INSERT_BATCH - 1)]);
    log(`${Math.min(ENTRIES, from + INSERT_BATCH - 1)} of ${ENTRIES} entries`);
  }
  await db.query(
    `insert into audit_chain_heads (chain_key, last_seq, last_hash) values ($1, $2::bigint, md5(($2::bigint + 1)::text))`,
    [seed.projectId, ENTRIES],
  );
  await db.query('analyze audit_entries');
  const fillMs = Math.round(performance.now() - fillStarted);
  await db.close();
  const server = await startCms(database, {
    logLevel: 'warn',
    nodeOptions: [],
    logFile: join(database.dataDir, 'server.log'),
  });
  const headers = { authorization: `Bearer ${seed.apiKey}`, 'x-cms-project': PROJECT };
  const get = async (query) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/audit?${new URLSearchParams(query)}`, { headers });
    const body = await response.json();
    const ms = performance.now() - started;
    if (!response.ok)
      throw new Error(
        `GET /api/v1/audit?${new URLSearchParams(query)}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`,
      );
    return { ms, body };
  };
  try {
    // A cursor near the oldest entries: the deepest page a client can ask for.
    const deepCursor = Buffer.from(`seq:${Math.max(2, Math.floor(ENTRIES / 100))}`).toString('base64url');
    const cases = [
      { name: 'first page (50)', query: {} },
      { name: 'one actor', query: { actor: 'actor-7' } },
      { name: 'one document', query: { documentId: '00000000-0000-4000-8000-000000000000' } },
      { name: 'failures', query: { outcome: 'failure' } },
      { name: 'deep cursor', query: { cursor: deepCursor } },
    ];
    const rows = [];
    for (const { name, query } of cases) {
      for (let index = 0; index < 20; index += 1) await get(query);
      const times = [];
      for (let index = 0; index < REQUESTS; index += 1) times.push((await get(query)).ms);
      times.sort((a, b) => a - b);
      const p50 = Math.round(percentile(times, 50) * 10) / 10;
      const p99 = Math.round(percentile(times, 99) * 10) / 10;
      log(`${engine} ${name}: p50 ${p50} ms, p99 ${p99} ms`);
      rows.push({ name, p50, p99, targetMs: TARGET_P99_MS, met: p99 < TARGET_P99_MS });
    }
    process.stdout.write(`${JSON.stringify({ engine, entries: ENTRIES, fillMs, requests: REQUESTS, rows })}\n`);
  } finally {
    await server.stop();
    await database.dispose();
  }
}

main().catch(async (error) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stopAll();
  await disposeAll();
  process.exit(1);
});
