/**
 * The optional `cms pull` / `cms push` row of `npm run bench`: builds the CLI (`tsc -b packages/cli`),
 * runs scripts/bench/cli-sync.mjs as a child process and renders its JSON line as a table.
 * BENCH_CLI=off skips it; BENCH_CLI_DOCS, BENCH_CLI_ENGINE and BENCH_CLI_CONCURRENCY pass through.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Is the row wanted? `on` (default) or `off`. */
export function cliRowEnabled(env = process.env) {
  const mode = env.BENCH_CLI || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_CLI must be on or off, got "${mode}"`);
  return mode === 'on';
}

/** Runs the CLI benchmark; answers its result, or `{ error }` when it failed (the rest of the run stands). */
export async function runCliRow(adminDatabaseUrl) {
  try {
    await run(
      process.execPath,
      [fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url)), '-b', 'packages/cli'],
      {
        cwd: ROOT,
      },
    );
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL('./cli-sync.mjs', import.meta.url))], {
      cwd: ROOT,
      env: { ...process.env, BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL || adminDatabaseUrl },
      maxBuffer: 1 << 24,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}

/** The markdown of the row. */
export function renderCliRow(result) {
  if (result.error) return `### \`cms\` pull and push\n\nfailed: ${result.error}\n`;
  const s = (ms) => (ms / 1000).toFixed(1);
  return [
    `### \`cms\` pull and push (${result.engine}, ${result.documents} documents, --concurrency ${result.concurrency})`,
    '',
    '| pull (s) | push with no edits (s) | push of changed files (s) | pull after push (s) |',
    '|---|---|---|---|',
    `| ${s(result.pullMs)} | ${s(result.noopPushMs)} | ${s(result.pushMs)} (${result.updated} updates) | ${s(result.repullMs)} |`,
    '',
  ].join('\n');
}
