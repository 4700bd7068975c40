/**
 * The optional `cms` rows of `npm run bench`: builds the CLI (`tsc -b packages/cli`), runs
 * scripts/bench/cli-sync.mjs (pull and push of a seeded server) and scripts/bench/cli-import.mjs
 * (push of BENCH_IMPORT_FILES new files, then status, a push with no edits and `cms publish` of them
 * all, against the targets) as child processes and renders their JSON lines as tables. BENCH_CLI=off skips both;
 * BENCH_CLI_DOCS, BENCH_IMPORT_FILES, BENCH_CLI_ENGINE and BENCH_CLI_CONCURRENCY pass through.
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

/** Runs one benchmark script; answers its last JSON line, or `{ error }` when it failed. */
async function runScript(script, adminDatabaseUrl) {
  try {
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
      cwd: ROOT,
      env: { ...process.env, BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL || adminDatabaseUrl },
      maxBuffer: 1 << 24,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}

/**
 * Runs both CLI benchmarks (the rest of the run stands when one fails): the sync row's fields, and
 * the import row's under `import`.
 */
export async function runCliRow(adminDatabaseUrl) {
  try {
    await run(
      process.execPath,
      [fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url)), '-b', 'packages/cli'],
      { cwd: ROOT },
    );
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
  const sync = await runScript('./cli-sync.mjs', adminDatabaseUrl);
  const imported = await runScript('./cli-import.mjs', adminDatabaseUrl);
  return { ...sync, import: imported };
}

/** The markdown of the import row: each timing against its target. */
function renderImportRow(result) {
  if (!result) return '';
  if (result.error) return `### \`cms\` import of a docs tree\n\nfailed: ${result.error}\n`;
  const s = (ms) => (ms / 1000).toFixed(1);
  const cell = (key) => `${s(result[key])} (target ${s(result.targets[key])}: ${result.met[key] ? 'met' : 'missed'})`;
  return [
    `### \`cms\` import of a docs tree (${result.engine}, ${result.files} new files)`,
    '',
    '| push of new files (s) | first status (s) | status (s) | push with no edits (s) | publish of the pushed files (s) |',
    '|---|---|---|---|---|',
    `| ${cell('pushMs')} | ${s(result.firstStatusMs)} | ${cell('statusMs')} | ${cell('noopPushMs')} | ${result.publishMs === undefined ? '-' : cell('publishMs')} |`,
    '',
  ].join('\n');
}

/** The markdown of the row. */
export function renderCliRow(result) {
  if (result.error) return `### \`cms\` pull and push\n\nfailed: ${result.error}\n${renderImportRow(result.import)}`;
  const s = (ms) => (ms / 1000).toFixed(1);
  return [
    `### \`cms\` pull and push (${result.engine}, ${result.documents} documents, --concurrency ${result.concurrency})`,
    '',
    '| pull (s) | push with no edits (s) | push of changed files (s) | pull after push (s) |',
    '|---|---|---|---|',
    `| ${s(result.pullMs)} | ${s(result.noopPushMs)} | ${s(result.pushMs)} (${result.updated} updates) | ${s(result.repullMs)} |`,
    '',
    renderImportRow(result.import),
  ].join('\n');
}
