/**
 * Long operations followed to their end (docs/cli.md "Long operations"): a publish of 10,000
 * documents or a content migration may take longer than `--timeout` to answer, while the server goes
 * on and finishes it. When the request's answer does not come in time, the CLI does not report a
 * failure: it asks the server for the thing it asked for (the release's state, the migration's
 * record) until that shows the result, for at most `--wait`, with a progress line. Only then does it
 * give up, saying the server may still finish and how to check.
 */
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';

/** Between two questions to the server while following. */
export const FOLLOW_INTERVAL_MS = 1000;
/** Off a terminal, how often a line says the operation is still running. */
const PROGRESS_EVERY_MS = 5000;

export interface LongOperation<T> {
  /** What is going on, for progress lines (`Publishing release 3f2…`). */
  label: string;
  /** The command that shows the result later (`cms release show 3f2…`). */
  check: string;
  /** Sends the request. */
  start: () => Promise<T>;
  /** Asks for the result: undefined while the server has not finished. */
  poll: () => Promise<T | undefined>;
}

/** A request that got no answer in time (the server may still be working on it). */
export function isTimeout(error: unknown): boolean {
  return error instanceof CliError && error.code === 'SERVER_UNREACHABLE' && error.details.cause === 'timeout';
}

/** A question that can be asked again later: no answer in time, or no connection for a moment. */
function isTransient(error: unknown): boolean {
  return error instanceof CliError && error.code === 'SERVER_UNREACHABLE';
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Runs the operation; when its answer does not come in time, follows it until it shows a result. */
export async function followOperation<T>(ctx: Context, operation: LongOperation<T>): Promise<T> {
  const { out } = ctx;
  const started = Date.now();
  try {
    return await operation.start();
  } catch (error) {
    if (!isTimeout(error)) throw error;
  }
  const { timeoutMs, waitMs } = ctx.timing;
  out.log(
    `${operation.label}: no answer within ${seconds(timeoutMs)} (--timeout); the server may still be working, following it for up to ${seconds(waitMs)} (--wait).`,
  );
  const deadline = Date.now() + waitMs;
  let lastLine = Date.now();
  while (Date.now() < deadline) {
    await pause(FOLLOW_INTERVAL_MS);
    try {
      const result = await operation.poll();
      if (result !== undefined) {
        out.log(`${operation.label}: finished on the server after ${seconds(Date.now() - started)}.`);
        return result;
      }
    } catch (error) {
      if (!isTransient(error)) throw error;
    }
    if (Date.now() - lastLine >= PROGRESS_EVERY_MS) {
      out.log(`${operation.label}: still running on the server (${seconds(Date.now() - started)})`);
      lastLine = Date.now();
    }
  }
  throw new CliError(
    'OPERATION_PENDING',
    `${operation.label}: the server has not finished after ${seconds(Date.now() - started)} (no answer within --timeout, and no result since).`,
    {
      exitCode: EXIT.failure,
      hint: `The server may still finish it: check with \`${operation.check}\`. Raise --wait (CMS_WAIT) to follow longer, or --timeout (CMS_TIMEOUT) to wait longer for each answer.`,
      details: { check: operation.check, waitedMs: Date.now() - started },
    },
  );
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
