/**
 * The search row of `npm run bench` (docs/benchmarks.md "Search at scale"; issue #33 target 3): seeds
 * BENCH_SEARCH_DOCS published posts (default 100,000 on PostgreSQL, 10,000 embedded) whose bodies are
 * drawn from a fixed word list with a skew (a few words in nearly every post, most in few), then times
 * `GET /api/v1/search` one request at a time for one- and two-word queries, common and rare, and a
 * prefix of the last word typed. Target: p99 under 100 ms on PostgreSQL, under 250 ms embedded.
 *
 *   BENCH_SEARCH_ENGINE=postgres BENCH_SEARCH_DOCS=100000 node scripts/bench/search-scale.mjs
 *
 * Seeding 100,000 posts takes 8-20 minutes here. To time again a PostgreSQL database seeded by an earlier
 * run (kept with BENCH_SEARCH_KEEP=1, which prints its url and key), pass BENCH_SEARCH_DATABASE_URL and
 * BENCH_SEARCH_API_KEY: nothing is seeded and the database is not dropped.
 *
 * Needs `npm run build` first. Prints one JSON line with the timings.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, disposeAll, probePostgres } from './databases.mjs';
import { startCms, stopAll } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

const TARGET_P99_MS = { postgres: 100, pglite: 250 };
const DEFAULT_DOCS = { postgres: 100_000, pglite: 10_000 };
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS || 200);
const WARMUP = 10;
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (message) => process.stderr.write(`[search-bench] ${message}\n`);

/** The bodies' vocabulary, most frequent first (seed.mjs skews the pick toward the start). */
const WORDS = (
  'server content document release schema publish draft editor preview search index query cache request ' +
  'response header browser build site page locale author title media image upload webhook event token ' +
  'session account project environment version history review comment workflow action plugin module route ' +
  'handler service repository storage database table column migration trigger function policy scope key ' +
  'secret password factor recovery backoff limit network proxy address domain certificate deploy container ' +
  'process memory thread worker queue stream socket signal timer clock backup restore import export archive ' +
  'folder directory file path format markdown syntax heading paragraph list table link anchor footnote ' +
  'citation glossary appendix chapter section volume edition printer binding margin gutter column ligature ' +
  'kerning serif glyph typeface baseline ascender descender hyphenation justification widow orphan ' +
  'grace lantern harbour meadow quarry thimble walrus zephyr juniper obsidian pelican saffron tundra ' +
  'vellum yarrow bramble cobalt dulcimer ember fennel gossamer hemlock indigo jasmine kestrel lichen ' +
  'marigold nutmeg oriole parsnip quince russet sorrel tamarind umber verbena wisteria xylophone yew zinnia'
).split(' ');

/** One- and two-word queries from the most common word to the rarest, and a prefix of a word typed. */
const QUERIES = [
  { name: 'one common word', q: WORDS[0] },
  { name: 'one mid word', q: WORDS[40] },
  { name: 'one rare word', q: WORDS.at(-1) },
  { name: 'two common words', q: `${WORDS[0]} ${WORDS[1]}` },
  { name: 'common and rare word', q: `${WORDS[2]} ${WORDS.at(-3)}` },
  { name: 'two rare words', q: `${WORDS.at(-2)} ${WORDS.at(-5)}` },
  { name: 'prefix of a common word', q: WORDS[3].slice(0, 3) },
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main() {
  let engine = process.env.BENCH_SEARCH_ENGINE ?? 'postgres';
  if (engine === 'postgres' && !(await probePostgres(adminUrl)).version) {
    log('PostgreSQL does not answer: using PGlite');
    engine = 'pglite';
  }
  const docs = Number(process.env.BENCH_SEARCH_DOCS || DEFAULT_DOCS[engine]);
  const targetMs = TARGET_P99_MS[engine];
  const { database, seed } = process.env.BENCH_SEARCH_DATABASE_URL
    ? await reuseDatabase()
    : await seedNew(engine, docs);
  const server = await startCms(database, {
    logLevel: 'warn',
    nodeOptions: [],
    logFile: join(database.dataDir, 'server.log'),
  });
  const headers = {
    authorization: `Bearer ${seed.apiKey}`,
    'x-cms-project': PROJECT,
    'x-cms-environment': ENVIRONMENT,
  };
  const search = async (q) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/search?${new URLSearchParams({ q })}`, { headers });
    const body = await response.json();
    const ms = performance.now() - started;
    if (!response.ok)
      throw new Error(`GET /api/v1/search?q=${q}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    return {
      ms,
      hits: body.data?.length ?? 0,
      total: body.pagination?.total ?? null,
      totalIsCapped: body.pagination?.totalIsCapped ?? null,
    };
  };
  try {
    const rows = [];
    for (const { name, q } of QUERIES) {
      let first = { hits: 0, total: null, totalIsCapped: null };
      for (let index = 0; index < WARMUP; index += 1) first = await search(q);
      const times = [];
      for (let index = 0; index < REQUESTS; index += 1) times.push((await search(q)).ms);
      times.sort((a, b) => a - b);
      const p50 = Math.round(percentile(times, 50) * 10) / 10;
      const p99 = Math.round(percentile(times, 99) * 10) / 10;
      log(
        `${engine} ${name} "${q}": total ${first.total} (capped ${first.totalIsCapped}), p50 ${p50} ms, p99 ${p99} ms`,
      );
      rows.push({
        name,
        q,
        hits: first.hits,
        total: first.total,
        totalIsCapped: first.totalIsCapped,
        p50,
        p99,
        targetMs,
        met: p99 < targetMs,
      });
    }
    process.stdout.write(
      `${JSON.stringify({ engine, docs, seedMs: seed.seedMs, requests: REQUESTS, rows, met: rows.every((r) => r.met) })}\n`,
    );
  } finally {
    await server.stop();
    await database.dispose();
  }
}

/** A fresh database with `docs` posts (kept, and its url and key printed, with BENCH_SEARCH_KEEP=1). */
async function seedNew(engine, docs) {
  const database = await createBenchDatabase(engine, { adminUrl, poolMax: 10 });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts: docs, updatePoolSize: 1, bodyWords: WORDS });
  log(`${engine}: seeded ${docs} posts in ${seed.seedMs} ms`);
  await db.close();
  if (process.env.BENCH_SEARCH_KEEP === '1' && database.databaseUrl) {
    log(`kept: BENCH_SEARCH_DATABASE_URL=${database.databaseUrl} BENCH_SEARCH_API_KEY=${seed.apiKey}`);
    const dataDir = database.dataDir;
    database.dispose = () => rm(dataDir, { recursive: true, force: true });
  }
  return { database, seed };
}

/** A PostgreSQL database seeded before (BENCH_SEARCH_DATABASE_URL, BENCH_SEARCH_API_KEY); never dropped. */
async function reuseDatabase() {
  const apiKey = process.env.BENCH_SEARCH_API_KEY;
  if (!apiKey) throw new Error('BENCH_SEARCH_DATABASE_URL needs BENCH_SEARCH_API_KEY, the key its seeding printed');
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-search-'));
  const database = {
    engine: 'postgres',
    dataDir,
    databaseUrl: process.env.BENCH_SEARCH_DATABASE_URL,
    databaseName: null,
    poolMax: 10,
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
  return { database, seed: { apiKey, seedMs: null } };
}

main().catch(async (error) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stopAll();
  await disposeAll();
  process.exit(1);
});
