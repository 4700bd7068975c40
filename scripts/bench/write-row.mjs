/**
 * The write-ceiling row of `npm run bench`: runs scripts/bench/write-ceiling.mjs as a child process
 * (PostgreSQL) and renders its JSON line. BENCH_WRITE_CEILING=off skips it; BENCH_WRITE_CONCURRENCY,
 * BENCH_WRITE_PER_ROUND and BENCH_WRITE_ROUNDS pass through.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Is the row wanted? `on` (default) or `off`. */
export function writeRowEnabled(env = process.env) {
  const mode = env.BENCH_WRITE_CEILING || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_WRITE_CEILING must be on or off, got "${mode}"`);
  return mode === 'on';
}

/** Runs the write-ceiling benchmark; answers its result, or `{ error }` when it failed. */
export async function runWriteRow(adminDatabaseUrl) {
  try {
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL('./write-ceiling.mjs', import.meta.url))], {
      env: { ...process.env, BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL || adminDatabaseUrl },
      maxBuffer: 1 << 24,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}

/** The markdown of the row: creates per second of the ceiling and of the API, each round, and the median ratio. */
export function renderWriteRow(result) {
  if (result.error) return `### Write ceiling\n\nfailed: ${result.error}\n`;
  return [
    `### Write ceiling (${result.engine}): create, ${result.concurrency} writers, ${result.perRound} creates a round, alternating`,
    '',
    '| round | direct SQL, same INSERTs (creates/s) | `POST /api/v1/content` (creates/s) | API / ceiling |',
    '|---|---|---|---|',
    ...result.rounds.map((r, i) => `| ${i + 1} | ${r.ceiling} | ${r.api} | ${Math.round(r.ratio * 100)}% |`),
    '',
    `Median ratio: ${Math.round(result.medianRatio * 100)}% of the ceiling.`,
    '',
  ].join('\n');
}
