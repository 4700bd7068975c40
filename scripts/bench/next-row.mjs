/**
 * The Next.js row of `npm run bench`: runs scripts/bench/next-publish.mjs as a child process and renders
 * its JSON line. BENCH_NEXT=off skips it; BENCH_NEXT_SAMPLES and BENCH_NEXT_ENGINE pass through.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Is the row wanted? `on` (default) or `off`. */
export function nextRowEnabled(env = process.env) {
  const mode = env.BENCH_NEXT || 'on';
  if (!['on', 'off'].includes(mode)) throw new Error(`BENCH_NEXT must be on or off, got "${mode}"`);
  return mode === 'on';
}

/** Runs the Next.js benchmark; answers its result, or `{ error }` when it failed. */
export async function runNextRow() {
  try {
    const { stdout } = await run(process.execPath, [fileURLToPath(new URL('./next-publish.mjs', import.meta.url))], {
      maxBuffer: 1 << 24,
      timeout: 900_000,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  } catch (error) {
    return { error: error instanceof Error ? error.message.slice(0, 500) : String(error) };
  }
}

/** The markdown of the row: publish to visible on the Next.js example site against its target. */
export function renderNextRow(result) {
  if (result.error) return `### Next.js: publish to visible\n\nfailed: ${result.error}\n`;
  return [
    `### Next.js: publish to visible (examples/next-site, ${result.engine}, ${result.samples} publishes)`,
    '',
    '| p50 (ms) | p95 (ms) | max (ms) | stale answers after the webhook | target | met |',
    '|---|---|---|---|---|---|',
    `| ${result.p50Ms} | ${result.p95Ms} | ${result.maxMs} | ${result.staleAfterAck} | p95 < ${result.targetMs} ms, none stale | ${result.met ? 'yes' : 'no'} |`,
    '',
  ].join('\n');
}
