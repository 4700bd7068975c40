/**
 * One fresh database per scenario: a PGlite data dir in a temp directory, or a PostgreSQL database
 * `cms_bench_<random>` created on the server of BENCH_DATABASE_URL and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb } from '../../packages/server/dist/storage/open-db.js';

/** How long to wait for PostgreSQL to answer before skipping it. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * @typedef {'pglite' | 'postgres'} Engine
 * @typedef {import('../../packages/server/dist/storage/db.js').Db} Db
 */

/**
 * @typedef {object} BenchDatabase
 * @property {Engine} engine
 * @property {string} dataDir The server's CMS_DATA_DIR (PGlite lives in `{dataDir}/db`; media files in `{dataDir}/media`).
 * @property {string | null} databaseUrl PostgreSQL connection string of the fresh database, null for PGlite.
 * @property {string | null} databaseName
 * @property {number} poolMax Connections per process (the server's DATABASE_POOL_MAX).
 * @property {() => Promise<Db>} open Opens it through the server's storage module (one holder at a time for PGlite).
 * @property {() => Promise<void>} dispose Drops the database and removes the temp directory.
 */

/**
 * Asks the PostgreSQL server for its version; null (with the reason) when it does not answer.
 * @param {string} url
 * @returns {Promise<{ version: string | null, reason: string | null }>}
 */
export async function probePostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
    const result = await client.query('show server_version');
    return { version: String(result.rows[0].server_version), reason: null };
  } catch (error) {
    return { version: null, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs one statement on the administrative connection (create/drop database cannot run in a transaction).
 * @param {string} adminUrl
 * @param {string} sql
 */
async function adminQuery(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Databases not yet disposed, so an interrupted run can still drop them. */
const live = new Set();

/** Drops every database still open (Ctrl-C during a run). */
export async function disposeAll() {
  for (const database of [...live]) await database.dispose().catch(() => undefined);
}

/**
 * Creates a fresh, empty database for one scenario.
 * @param {Engine} engine
 * @param {{ adminUrl: string, poolMax: number }} options
 * @returns {Promise<BenchDatabase>}
 */
export async function createBenchDatabase(engine, options) {
  const dataDir = await mkdtemp(join(tmpdir(), `cms-bench-${engine}-`));
  /** @type {string | null} */
  let databaseUrl = null;
  /** @type {string | null} */
  let databaseName = null;
  if (engine === 'postgres') {
    databaseName = `cms_bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(options.adminUrl, `create database ${databaseName}`);
    const url = new URL(options.adminUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  /** @type {BenchDatabase} */
  const database = {
    engine,
    dataDir,
    databaseUrl,
    databaseName,
    poolMax: options.poolMax,
    open: () => openDb({ databaseUrl, databasePoolMax: options.poolMax, dataDir }),
    async dispose() {
      live.delete(database);
      if (databaseName) await adminQuery(options.adminUrl, `drop database if exists ${databaseName} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  live.add(database);
  return database;
}
