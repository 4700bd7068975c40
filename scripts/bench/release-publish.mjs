/**
 * The releases row of `npm run bench` (docs/benchmarks.md): a release of 1,000 and one of 10,000
 * posts, each published with one `POST /api/v1/releases/{id}/publish`, timed from request to answer
 * (every item checked again, one version per document, events, one transaction). Targets: 1,000 in
 * under 1 s and 10,000 in under 10 s on PostgreSQL.
 *
 *   node scripts/bench/release-publish.mjs     # BENCH_RELEASE_ENGINE=postgres (default) or pglite
 *
 * Needs `npm run build` first. Prints one JSON line with the timings.
 */
import { join } from 'node:path';
import { createBenchDatabase, disposeAll, probePostgres } from './databases.mjs';
import { startCms, stopAll } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

const SIZES = [1_000, 10_000];
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (message) => process.stderr.write(`[release-bench] ${message}\n`);

async function main() {
  let engine = process.env.BENCH_RELEASE_ENGINE ?? 'postgres';
  if (engine === 'postgres' && !(await probePostgres(adminUrl)).version) {
    log('PostgreSQL does not answer: using PGlite');
    engine = 'pglite';
  }
  const total = SIZES.reduce((sum, size) => sum + size, 0);
  const database = await createBenchDatabase(engine, { adminUrl, poolMax: 10 });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts: total, updatePoolSize: 1 });
  // Every post gets a draft that differs from its published version, so each item writes a version.
  await db.query(`update documents set has_unpublished_changes = true where type = 'post'`);
  const ids = (await db.query(`select id from documents where type = 'post' order by path`)).rows.map((r) => r.id);
  await db.close();
  const server = await startCms(database, {
    logLevel: 'warn',
    nodeOptions: [],
    logFile: join(database.dataDir, 'server.log'),
  });
  const headers = {
    authorization: `Bearer ${seed.apiKey}`,
    'content-type': 'application/json',
    'x-cms-project': PROJECT,
    'x-cms-environment': ENVIRONMENT,
  };
  const call = async (method, path, body) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json.data;
  };
  try {
    const rows = [];
    let offset = 0;
    for (const size of SIZES) {
      const items = ids.slice(offset, offset + size).map((documentId) => ({ documentId, action: 'publish' }));
      offset += size;
      const release = await call('POST', '/api/v1/releases', { title: `Bench ${size}` });
      const addStarted = performance.now();
      await call('POST', `/api/v1/releases/${release.id}/items`, { items });
      const addMs = Math.round(performance.now() - addStarted);
      const started = performance.now();
      const published = await call('POST', `/api/v1/releases/${release.id}/publish`);
      const publishMs = Math.round(performance.now() - started);
      if (published.status !== 'published') throw new Error(`release of ${size} ended ${published.status}`);
      log(`${engine}: ${size} items added in ${addMs} ms, published in ${publishMs} ms`);
      rows.push({ items: size, addMs, publishMs, targetMs: size * 1, met: publishMs < size });
    }
    process.stdout.write(`${JSON.stringify({ engine, rows })}\n`);
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
