/**
 * The releases row of `npm run bench`: runs scripts/bench/release-publish.mjs as a child process and
 * renders its JSON line as a table. BENCH_RELEASES=off skips it; BENCH_RELEASE_ENGINE passes through.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Is the row wanted? `on` (default) or `off`. */
export function releaseRowEnabled(env = process.env) {
  const mode = env.BENCH_RELEASES || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_RELEASES must be on or off, got "${mode}"`);
  return mode === 'on';
}

/** Runs the release benchmark; answers its result, or `{ error }` when it failed. */
export async function runReleaseRow(adminDatabaseUrl) {
  try {
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL('./release-publish.mjs', import.meta.url))], {
      env: { ...process.env, BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL || adminDatabaseUrl },
      maxBuffer: 1 << 24,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}

/** The markdown of the row: publish time per release size against its target. */
export function renderReleaseRow(result) {
  if (result.error) return `### Releases\n\nfailed: ${result.error}\n`;
  return [
    `### Releases (${result.engine}): one \`POST /releases/{id}/publish\``,
    '',
    '| items | add items (ms) | publish (ms) | target (ms) | met |',
    '|---|---|---|---|---|',
    ...result.rows.map(
      (r) => `| ${r.items} | ${r.addMs} | ${r.publishMs} | < ${r.targetMs} | ${r.met ? 'yes' : 'no'} |`,
    ),
    '',
  ].join('\n');
}
