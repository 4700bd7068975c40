/**
 * Benchmark settings, read once from environment variables (documented in docs/benchmarks.md).
 */

/**
 * @typedef {object} BenchSettings
 * @property {number} durationSeconds Measured time per endpoint (BENCH_DURATION).
 * @property {number} warmupSeconds Unmeasured load before each measurement (BENCH_WARMUP).
 * @property {number} readConnections Concurrent connections for reads and ceilings (BENCH_CONNECTIONS).
 * @property {number} writeConnections Concurrent connections for writes and uploads (BENCH_WRITE_CONNECTIONS).
 * @property {number[]} sizes Published posts per scenario (BENCH_SIZES, comma separated).
 * @property {Array<'pglite' | 'postgres'>} engines (BENCH_ENGINES, comma separated).
 * @property {string} adminDatabaseUrl PostgreSQL server to create the benchmark databases on (BENCH_DATABASE_URL).
 * @property {number} poolMax DATABASE_POOL_MAX of the server and the ceiling (BENCH_POOL_MAX).
 * @property {number} updatePoolSize Published posts the update benchmark rotates over (BENCH_UPDATE_POOL).
 * @property {string[] | null} endpoints Only these endpoint names, or all (BENCH_ENDPOINTS).
 * @property {string} logLevel LOG_LEVEL of the server under test; its log goes to a file (BENCH_LOG_LEVEL).
 * @property {boolean} cpuProfile Run the server with `node --cpu-prof` (BENCH_CPU_PROF=1).
 * @property {boolean} appendDocs Append the results to docs/benchmarks.md (BENCH_APPEND_DOCS=0 to skip).
 */

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 */
function readNumber(env, name, fallback, min) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 */
function readList(env, name) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * Reads and checks every setting; throws naming the bad variable.
 * @param {Record<string, string | undefined>} env
 * @returns {BenchSettings}
 */
export function readSettings(env = process.env) {
  const engines = readList(env, 'BENCH_ENGINES') ?? ['pglite', 'postgres'];
  for (const engine of engines) {
    if (engine !== 'pglite' && engine !== 'postgres') {
      throw new Error(`BENCH_ENGINES must list pglite and/or postgres, got "${engine}"`);
    }
  }
  const sizes = (readList(env, 'BENCH_SIZES') ?? ['1000', '100000']).map((size) => {
    const value = Number(size.replace(/k$/i, '000'));
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`BENCH_SIZES must list positive integers, got "${size}"`);
    return value;
  });
  return {
    durationSeconds: readNumber(env, 'BENCH_DURATION', 5, 1),
    warmupSeconds: readNumber(env, 'BENCH_WARMUP', 2, 0),
    readConnections: readNumber(env, 'BENCH_CONNECTIONS', 50, 1),
    writeConnections: readNumber(env, 'BENCH_WRITE_CONNECTIONS', 10, 1),
    sizes,
    engines: /** @type {Array<'pglite' | 'postgres'>} */ (engines),
    adminDatabaseUrl: env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    poolMax: readNumber(env, 'BENCH_POOL_MAX', 10, 1),
    updatePoolSize: readNumber(env, 'BENCH_UPDATE_POOL', 1000, 1),
    endpoints: readList(env, 'BENCH_ENDPOINTS'),
    logLevel: env.BENCH_LOG_LEVEL || 'info',
    cpuProfile: env.BENCH_CPU_PROF === '1',
    appendDocs: env.BENCH_APPEND_DOCS !== '0',
  };
}
