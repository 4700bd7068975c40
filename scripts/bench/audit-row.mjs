/**
 * The audit row of `npm run bench`: runs scripts/bench/audit-list.mjs as a child process and renders
 * its JSON line. BENCH_AUDIT=off skips it; BENCH_AUDIT_ENTRIES and BENCH_AUDIT_ENGINE pass through.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Is the row wanted? `on` (default) or `off`. */
export function auditRowEnabled(env = process.env) {
  const mode = env.BENCH_AUDIT || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_AUDIT must be on or off, got "${mode}"`);
  return mode === 'on';
}

/** Runs the audit benchmark; answers its result, or `{ error }` when it failed. */
export async function runAuditRow(adminDatabaseUrl) {
  try {
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL('./audit-list.mjs', import.meta.url))], {
      env: { ...process.env, BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL || adminDatabaseUrl },
      maxBuffer: 1 << 24,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}

/** The markdown of the row: p50 and p99 of each query against the target. */
export function renderAuditRow(result) {
  if (result.error) return `### Audit log\n\nfailed: ${result.error}\n`;
  return [
    `### Audit log (${result.engine}): \`GET /api/v1/audit\` with ${result.entries.toLocaleString('en')} entries`,
    '',
    '| query | p50 (ms) | p99 (ms) | target p99 (ms) | met |',
    '|---|---|---|---|---|',
    ...result.rows.map((r) => `| ${r.name} | ${r.p50} | ${r.p99} | < ${r.targetMs} | ${r.met ? 'yes' : 'no'} |`),
    '',
  ].join('\n');
}
