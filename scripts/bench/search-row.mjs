/**
 * The search row of `npm run bench`: runs scripts/bench/search-scale.mjs as a child process, once on
 * PostgreSQL (when it answers) and once embedded, and renders its JSON lines. BENCH_SEARCH=off skips it;
 * BENCH_SEARCH_DOCS (both engines), BENCH_SEARCH_PGLITE_DOCS and BENCH_SEARCH_REQUESTS pass through.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Is the row wanted? `on` (default) or `off`. */
export function searchRowEnabled(env = process.env) {
  const mode = env.BENCH_SEARCH || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_SEARCH must be on or off, got "${mode}"`);
  return mode === 'on';
}

/**
 * Runs the search benchmark on each engine; answers one result per engine, or `{ engine, error }`.
 * @param {string} adminDatabaseUrl
 * @param {boolean} withPostgres
 */
export async function runSearchRow(adminDatabaseUrl, withPostgres) {
  const engines = withPostgres ? ['postgres', 'pglite'] : ['pglite'];
  const results = [];
  for (const engine of engines) {
    const docs = engine === 'pglite' ? process.env.BENCH_SEARCH_PGLITE_DOCS : undefined;
    try {
      const { stdout } = await run(process.execPath, [fileURLToPath(new URL('./search-scale.mjs', import.meta.url))], {
        env: {
          ...process.env,
          BENCH_SEARCH_ENGINE: engine,
          ...(docs ? { BENCH_SEARCH_DOCS: docs } : {}),
          BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL || adminDatabaseUrl,
        },
        maxBuffer: 1 << 24,
      });
      results.push(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
    } catch (error) {
      results.push({ engine, error: error instanceof Error ? error.message.slice(0, 500) : String(error) });
    }
  }
  return results;
}

/** The markdown of the row: p50 and p99 of each query against the engine's target. */
export function renderSearchRow(results) {
  const sections = results.map((result) => {
    if (result.error) return `### Search (${result.engine})\n\nfailed: ${result.error}\n`;
    return [
      `### Search (${result.engine}): \`GET /api/v1/search\` over ${result.docs.toLocaleString('en')} posts, ${result.requests} requests a query, one at a time`,
      '',
      '| query | q | p50 (ms) | p99 (ms) | target p99 (ms) | met |',
      '|---|---|---|---|---|---|',
      ...result.rows.map(
        (r) => `| ${r.name} | \`${r.q}\` | ${r.p50} | ${r.p99} | < ${r.targetMs} | ${r.met ? 'yes' : 'no'} |`,
      ),
      '',
    ].join('\n');
  });
  return sections.join('\n');
}
