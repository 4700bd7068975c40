/**
 * One scenario: one engine at one collection size. Seed a fresh database, measure the ceiling
 * server on it, then start the CMS (cold start), measure every endpoint, stop, clean up.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createBenchDatabase } from './databases.mjs';
import { baseHeaders, ENDPOINTS } from './endpoints.mjs';
import { describe, emptyResult, flagEmptyRun, sendOnce, timeAlone, warmAndMeasure } from './measure.mjs';
import { readRssBytes, startCeiling, startCms } from './processes.mjs';
import { seedDatabase } from './seed.mjs';

/** Let a freshly started server settle (JIT, first GC) before its idle memory is read. */
const SETTLE_MS = 1_000;
/** Rows compared with the list-of-20 ceiling (first page, like it). */
const LIST_CEILING_ROWS = ['list', 'list-resolve', 'list-cached', 'list-resolve-cached', 'list-304'];
/** Rows answered from the CMS's published read cache: compared with the from-memory ceilings. */
const CACHED_ITEM_ROWS = ['get-one-cached', 'get-one-304'];
const CACHED_LIST_ROWS = ['list-cached', 'list-resolve-cached', 'list-304'];
/** Sequential requests whose median is the "alone" latency of a read. */
const ALONE_SAMPLES = 5;

/**
 * @typedef {import('./measure.mjs').EndpointResult} EndpointResult
 * @typedef {import('./settings.mjs').BenchSettings} BenchSettings
 * @typedef {import('./endpoints.mjs').EndpointDefinition} EndpointDefinition
 */

/**
 * @typedef {object} ScenarioResult
 * @property {'pglite' | 'postgres'} engine
 * @property {number} posts
 * @property {string | null} databaseName
 * @property {number | null} seedMs
 * @property {number | null} coldStartMs Spawn to first successful GET /readyz.
 * @property {number | null} startupLogMs `startupMs` of the server's "server listening" log line.
 * @property {number | null} rssIdleBytes Server RSS after start, before any load.
 * @property {number | null} rssPeakBytes Highest server RSS sampled under load.
 * @property {number | null} ceilingRssIdleBytes
 * @property {string[]} catalogActions Ids of `content.*` and `media.*` actions the server declares.
 * @property {EndpointResult[]} endpoints Ceilings first, then the CMS endpoints.
 * @property {string | null} profileDir Where `--cpu-prof` wrote the server's profile.
 * @property {string | null} error Set when the scenario could not finish.
 */

/** @param {string} message */
const log = (message) => process.stdout.write(`[bench] ${message}\n`);

/**
 * `METHOD /path` of every declared action, parameters as `{}`; and the content/media action ids.
 * @param {string} url
 * @param {Record<string, string>} headers
 */
async function readCatalog(url, headers) {
  const response = await sendOnce(url, { method: 'GET', path: '/api/v1/actions', headers });
  /** @type {Array<{ id: string, method: string, path: string }>} */
  const actions = Array.isArray(response.json?.data) ? response.json.data : [];
  const routes = new Set(actions.map((action) => `${action.method} ${action.path.replace(/\{[^}]*\}|:[^/]+/g, '{}')}`));
  const ids = actions.map((action) => action.id).filter((id) => /^(content|media)\./.test(id));
  return { routes, ids: ids.sort() };
}

/**
 * Measures the ceiling routes; the CMS must not hold a PGlite data dir meanwhile.
 * @param {import('./databases.mjs').BenchDatabase} database
 * @param {import('./seed.mjs').SeedResult} seed
 * @param {BenchSettings} settings
 */
async function measureCeilings(database, seed, settings) {
  const ceiling = await startCeiling(database, { documentId: seed.readDocumentId });
  try {
    const rssIdleBytes = readRssBytes(ceiling.pid);
    /** @type {EndpointResult[]} */
    const rows = [];
    for (const [name, label, path] of [
      ['ceiling-memory', 'ceiling: same JSON from memory', '/memory'],
      ['ceiling-db', 'ceiling: same JSON by primary key', `/db/${seed.readDocumentId}`],
      ['ceiling-list', 'ceiling: list of 20 by index', '/db-list'],
      ['ceiling-memory-list', 'ceiling: list of 20 from memory', '/memory-list'],
    ]) {
      const row = emptyResult({ name, label }, 'ceiling', settings.readConnections);
      const request = { method: 'GET', path, headers: {} };
      row.bodyBytes = (await sendOnce(ceiling.url, request)).bytes;
      const measured = await warmAndMeasure({
        url: ceiling.url,
        pid: ceiling.pid,
        connections: settings.readConnections,
        workload: { next: () => request },
        settings,
      });
      row.load = measured.load;
      row.aloneMs = await timeAlone(ceiling.url, () => request, ALONE_SAMPLES);
      log(`  ${label}: ${describe(measured.load)}`);
      rows.push(row);
    }
    return { rows, rssIdleBytes };
  } finally {
    await ceiling.stop();
  }
}

/**
 * Probes one endpoint, then measures it if it answers.
 * @param {EndpointDefinition} endpoint
 * @param {{ url: string, pid: number, routes: Set<string>, ctx: import('./endpoints.mjs').ScenarioContext, settings: BenchSettings }} options
 * @returns {Promise<EndpointResult>}
 */
async function measureEndpoint(endpoint, { url, pid, routes, ctx, settings }) {
  const connections = endpoint.kind === 'read' ? settings.readConnections : settings.writeConnections;
  const row = emptyResult(endpoint, endpoint.kind, connections);
  const workload = endpoint.workload(ctx);
  if (workload.remaining && workload.remaining() < connections) {
    row.status = 'skipped';
    row.reason = 'no unpublished documents to publish (create and update did not run)';
    return row;
  }
  const probe = await sendOnce(url, workload.next());
  workload.onResponse?.(probe.status, probe.text);
  row.bodyBytes = probe.bytes;
  if (probe.status < 200 || probe.status >= 300) {
    const code = probe.json?.error?.code ?? 'unknown';
    const message = probe.json?.error?.message ?? '';
    const declared = routes.has(endpoint.route);
    row.status = probe.status === 404 && code === 'NOT_FOUND' && !declared ? 'skipped' : 'failed';
    row.reason =
      row.status === 'skipped'
        ? 'not implemented yet (404 NOT_FOUND for the route)'
        : `${probe.status} ${code}: ${message}`;
    return row;
  }
  const measured = await warmAndMeasure({ url, pid, connections, workload, settings });
  row.load = measured.load;
  row.note = measured.note;
  if (endpoint.kind === 'read') row.aloneMs = await timeAlone(url, workload.next, ALONE_SAMPLES);
  if (measured.load.requests > 0 && measured.load.requests < 2 * connections) {
    row.note = `only ${measured.load.requests} responses: each request queued behind the others`;
  }
  flagEmptyRun(row, settings.durationSeconds);
  return row;
}

/**
 * Runs one engine at one size.
 * @param {'pglite' | 'postgres'} engine
 * @param {number} posts
 * @param {BenchSettings} settings
 * @param {{ profileRoot: string }} paths
 * @returns {Promise<ScenarioResult>}
 */
export async function runScenario(engine, posts, settings, paths) {
  /** @type {ScenarioResult} */
  const result = {
    engine,
    posts,
    databaseName: null,
    seedMs: null,
    coldStartMs: null,
    startupLogMs: null,
    rssIdleBytes: null,
    rssPeakBytes: null,
    ceilingRssIdleBytes: null,
    catalogActions: [],
    endpoints: [],
    profileDir: null,
    error: null,
  };
  /** @type {import('./databases.mjs').BenchDatabase | null} */
  let database = null;
  try {
    database = await createBenchDatabase(engine, { adminUrl: settings.adminDatabaseUrl, poolMax: settings.poolMax });
    result.databaseName = database.databaseName;
    log(`${engine} ${posts} posts: seeding`);
    const db = await database.open();
    /** @type {import('./seed.mjs').SeedResult} */
    let seed;
    try {
      seed = await seedDatabase(db, { posts, updatePoolSize: Math.min(settings.updatePoolSize, posts - 1) });
    } finally {
      await db.close();
    }
    result.seedMs = seed.seedMs;
    log(`${engine} ${posts} posts: seeded in ${seed.seedMs} ms; measuring the ceiling`);

    const ceilings = await measureCeilings(database, seed, settings);
    result.ceilingRssIdleBytes = ceilings.rssIdleBytes;
    result.endpoints.push(...ceilings.rows);
    const [memoryCeiling, dbCeiling, listCeiling, listMemoryCeiling] = ceilings.rows.map(
      (row) => row.load?.rps ?? null,
    );

    const nodeOptions = [];
    if (settings.cpuProfile) {
      result.profileDir = join(paths.profileRoot, `${engine}-${posts}`);
      await mkdir(result.profileDir, { recursive: true });
      nodeOptions.push('--cpu-prof', `--cpu-prof-dir=${result.profileDir}`);
    }
    const cms = await startCms(database, {
      logLevel: settings.logLevel,
      nodeOptions,
      logFile: join(database.dataDir, 'server.log'),
    });
    try {
      result.coldStartMs = cms.coldStartMs;
      result.startupLogMs = cms.startupLogMs;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      result.rssIdleBytes = readRssBytes(cms.pid);
      log(`${engine} ${posts} posts: server ready in ${cms.coldStartMs} ms (log: ${cms.startupLogMs} ms)`);

      const catalog = await readCatalog(cms.url, baseHeaders(seed));
      result.catalogActions = catalog.ids;
      /** @type {import('./endpoints.mjs').ScenarioContext} */
      const ctx = { seed, tag: randomBytes(4).toString('hex'), createdIds: [], updatedIds: new Set() };
      const selected = ENDPOINTS.filter(
        (endpoint) => !settings.endpoints || settings.endpoints.includes(endpoint.name),
      );
      for (const endpoint of selected) {
        const row = await measureEndpoint(endpoint, {
          url: cms.url,
          pid: cms.pid,
          routes: catalog.routes,
          ctx,
          settings,
        });
        if (row.status === 'measured' && row.load && endpoint.kind === 'read') {
          row.vsDbCeiling = dbCeiling ? row.load.rps / dbCeiling : null;
          row.vsMemoryCeiling = memoryCeiling ? row.load.rps / memoryCeiling : null;
          // The list ceiling reads the first page; the offset row reads another one.
          if (LIST_CEILING_ROWS.includes(endpoint.name) && listCeiling) row.vsListCeiling = row.load.rps / listCeiling;
          // Cached lists are read against the list from memory (the item ceiling for cached items, as above).
          if (CACHED_LIST_ROWS.includes(endpoint.name)) {
            row.vsMemoryCeiling = listMemoryCeiling ? row.load.rps / listMemoryCeiling : null;
          }
          if (CACHED_ITEM_ROWS.includes(endpoint.name) || CACHED_LIST_ROWS.includes(endpoint.name)) {
            row.note = [row.note, 'from the published read cache'].filter(Boolean).join('; ');
          }
        }
        if (endpoint.name === 'list-offset-5000' && posts <= 5000) {
          row.note = [row.note, 'past the last page: an empty list'].filter(Boolean).join('; ');
        }
        const peak = row.load?.rssPeakBytes ?? null;
        if (peak !== null && (result.rssPeakBytes === null || peak > result.rssPeakBytes)) result.rssPeakBytes = peak;
        log(
          `  ${endpoint.label}: ${row.status === 'measured' && row.load ? describe(row.load) : `${row.status}: ${row.reason}`}`,
        );
        result.endpoints.push(row);
      }
    } finally {
      await cms.stop();
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    log(`${engine} ${posts} posts: FAILED: ${result.error}`);
  } finally {
    await database?.dispose();
  }
  return result;
}
