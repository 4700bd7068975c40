/**
 * One measurement: autocannon (programmatic API) against a running server for a fixed time while the
 * server's resident memory and CPU time are sampled, and the result row it fills. Requests come
 * from a `next()` generator, so rotating writes (update, publish) never send the same document twice
 * at once.
 */
import autocannon from 'autocannon';
import { readCpuMs, readRssBytes } from './processes.mjs';

const RSS_SAMPLE_MS = 200;
/** Share of a limited write pool spent on warm-up. */
const WARMUP_POOL_SHARE = 0.15;
/** Longest wait for a server to work off requests left over from a run (PGlite queues them all). */
const DRAIN_TIMEOUT_MS = 120_000;
/** A request that takes longer than this counts as a timeout (autocannon's default). */
const REQUEST_TIMEOUT_S = 10;

/**
 * @typedef {object} BenchRequest
 * @property {string} method
 * @property {string} path Path and query, e.g. /api/v1/content?type=post
 * @property {Record<string, string>} headers
 * @property {string | Buffer} [body]
 */

/**
 * @typedef {object} Load
 * @property {string} url Base address of the server.
 * @property {number} connections
 * @property {number} durationSeconds
 * @property {() => BenchRequest} next The next request to send.
 * @property {(status: number, body: string) => void} [onResponse] Sees every response (collects created ids).
 * @property {number} [maxRequests] Stop after this many requests (a write pool that would run dry).
 * @property {number} [pid] Process whose RSS is sampled during the run.
 */

/**
 * @typedef {object} LoadResult
 * @property {number} requests Completed responses.
 * @property {number} durationSeconds
 * @property {number} rps Completed responses per second.
 * @property {number} p50 Latency in ms.
 * @property {number} p90
 * @property {number} p99
 * @property {number} max
 * @property {number} non2xx
 * @property {number} errors Connection errors and timeouts.
 * @property {Record<string, number>} statusCodes
 * @property {number | null} rssPeakBytes
 * @property {number | null} cpuUsPerRequest CPU time of the server process per completed request, in microseconds
 *   (its own work only: PostgreSQL's backends are other processes).
 */

/**
 * @typedef {object} EndpointResult
 * @property {string} name
 * @property {string} label
 * @property {'read' | 'write' | 'ceiling'} kind
 * @property {'measured' | 'skipped' | 'failed'} status
 * @property {string | null} reason Why it was skipped or failed.
 * @property {string | null} note Anything that qualifies the numbers.
 * @property {number} connections
 * @property {number | null} bodyBytes Size of one response body.
 * @property {number | null} aloneMs Median latency of a read sent on its own, with nothing queued (reads, ceilings).
 * @property {LoadResult | null} load
 * @property {number | null} vsDbCeiling req/s as a share of the database ceiling (reads).
 * @property {number | null} vsMemoryCeiling req/s as a share of the in-memory ceiling (reads).
 * @property {number | null} vsListCeiling req/s as a share of the list-of-20 ceiling (list rows).
 */

/**
 * Runs one load and summarises it.
 * @param {Load} load
 * @returns {Promise<LoadResult>}
 */
export async function runLoad(load) {
  let rssPeak = /** @type {number | null} */ (null);
  const sample = () => {
    if (load.pid === undefined) return;
    const rss = readRssBytes(load.pid);
    if (rss !== null && (rssPeak === null || rss > rssPeak)) rssPeak = rss;
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  const cpuBefore = load.pid === undefined ? null : readCpuMs(load.pid);
  const { onResponse } = load;
  try {
    const instance = autocannon({
      url: load.url,
      connections: load.connections,
      timeout: REQUEST_TIMEOUT_S,
      ...(load.maxRequests === undefined ? { duration: load.durationSeconds } : { amount: load.maxRequests }),
      requests: [
        {
          /** @param {Record<string, unknown>} request autocannon's defaults for the next request */
          setupRequest: (request) => {
            const next = load.next();
            return { ...request, method: next.method, path: next.path, headers: { ...next.headers }, body: next.body };
          },
          ...(onResponse
            ? { onResponse: (/** @type {number} */ status, /** @type {string} */ body) => onResponse(status, body) }
            : {}),
        },
      ],
    });
    // `amount` overrides the duration in autocannon; keep the time limit anyway.
    const limit =
      load.maxRequests === undefined ? null : setTimeout(() => instance.stop(), load.durationSeconds * 1000);
    /** @type {any} */
    const result = await instance;
    if (limit) clearTimeout(limit);
    sample();
    /** @type {Record<string, number>} */
    const statusCodes = {};
    for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stats.count);
    const requests = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
    const cpuAfter = load.pid === undefined ? null : readCpuMs(load.pid);
    const cpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
    return {
      requests,
      durationSeconds: result.duration,
      rps: result.duration > 0 ? requests / result.duration : 0,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      non2xx: result.non2xx,
      errors: result.errors,
      statusCodes,
      rssPeakBytes: rssPeak,
      cpuUsPerRequest: cpuMs === null || requests === 0 ? null : Math.round((cpuMs * 1000) / requests),
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Sends one request outside the load (the probe that decides whether an endpoint exists).
 * @param {string} url
 * @param {BenchRequest} request
 * @returns {Promise<{ status: number, bytes: number, text: string, json: any }>}
 */
export async function sendOnce(url, request) {
  const response = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: typeof request.body === 'string' || request.body === undefined ? request.body : new Uint8Array(request.body),
  });
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON; the status tells enough
  }
  return { status: response.status, bytes: Buffer.byteLength(text), text, json };
}

/**
 * Waits until the server has worked off what a run left behind: autocannon abandons requests in
 * flight when it stops, and the server still answers them (PGlite queues every query behind one
 * another). `/readyz` runs `select 1` through the same database queue or pool, so two answers in a
 * row mean the backlog is gone and the next run starts clean.
 * @param {string} url
 */
export async function drain(url) {
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS) });
    await response.arrayBuffer();
  }
}

/**
 * Median latency in ms of `count` requests sent one after another: the cost of one request with no
 * queueing, to read the loaded p50 against.
 * @param {string} url
 * @param {() => BenchRequest} next
 * @param {number} count
 */
export async function timeAlone(url, next, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const startedAt = performance.now();
    await sendOnce(url, next());
    times.push(performance.now() - startedAt);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10;
}

/**
 * @param {{ name: string, label: string }} endpoint
 * @param {'read' | 'write' | 'ceiling'} kind
 * @param {number} connections
 * @returns {EndpointResult}
 */
export function emptyResult(endpoint, kind, connections) {
  return {
    name: endpoint.name,
    label: endpoint.label,
    kind,
    status: 'measured',
    reason: null,
    note: null,
    connections,
    bodyBytes: null,
    aloneMs: null,
    load: null,
    vsDbCeiling: null,
    vsMemoryCeiling: null,
    vsListCeiling: null,
  };
}

/**
 * Answers that count as failures: errors and non-2xx statuses, except 304, which only the
 * revalidation rows provoke (they send `If-None-Match`) and which is their expected answer.
 * @param {LoadResult} load
 */
export function failedAnswers(load) {
  return load.non2xx - (load.statusCodes['304'] ?? 0) + load.errors;
}

/** @param {LoadResult} load */
export function describe(load) {
  const failures = failedAnswers(load);
  const notModified = load.statusCodes['304'] ? `, ${load.statusCodes['304']} × 304` : '';
  return `${Math.round(load.rps)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms${notModified}${failures ? `, ${failures} failed` : ''}`;
}

/**
 * Warm-up, then the measured run; after each, waits for the server to work off the leftovers.
 * @param {{ url: string, pid: number, connections: number, workload: import('./endpoints.mjs').Workload, settings: import('./settings.mjs').BenchSettings }} options
 * @returns {Promise<{ load: LoadResult, note: string | null }>}
 */
export async function warmAndMeasure({ url, pid, connections, workload, settings }) {
  const common = { url, pid, connections, next: workload.next, onResponse: workload.onResponse };
  const { remaining } = workload;
  if (remaining) {
    const warmup = Math.floor(remaining() * WARMUP_POOL_SHARE);
    if (settings.warmupSeconds > 0 && warmup >= connections) {
      await runLoad({ ...common, durationSeconds: settings.warmupSeconds, maxRequests: warmup });
      await drain(url);
    }
    const budget = remaining();
    if (budget < connections) throw new Error(`only ${budget} documents left to publish`);
    const load = await runLoad({ ...common, durationSeconds: settings.durationSeconds, maxRequests: budget });
    await drain(url);
    const ranDry = load.durationSeconds < settings.durationSeconds * 0.95;
    return {
      load,
      note: ranDry ? `pool of ${budget} unpublished documents used up after ${load.durationSeconds} s` : null,
    };
  }
  if (settings.warmupSeconds > 0) {
    await runLoad({ ...common, durationSeconds: settings.warmupSeconds });
    await drain(url);
  }
  const load = await runLoad({ ...common, durationSeconds: settings.durationSeconds });
  await drain(url);
  return { load, note: null };
}

/**
 * Marks a run in which no request completed: every request queued longer than the run.
 * @param {EndpointResult} row
 * @param {number} durationSeconds
 */
export function flagEmptyRun(row, durationSeconds) {
  if (!row.load || row.load.requests > 0) return;
  row.status = 'failed';
  const alone = row.aloneMs === null ? '' : ` (one request alone: ${row.aloneMs} ms)`;
  row.reason = `no response completed within ${durationSeconds} s at ${row.connections} connections${alone}`;
}
