/**
 * Runs one command: builds the context from the merged flags, calls the handler, prints the JSON
 * document (or lets the handler print lines), maps errors to the documented exit codes.
 */
import type { Command } from 'commander';
import type { Context } from './context.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { Output } from './output.js';
import { toReport } from './render-error.js';
import type { GlobalFlags } from './settings.js';

export interface CommandResult {
  data: unknown;
  exitCode?: ExitCode;
}

// biome-ignore lint/suspicious/noExplicitAny: each command types its own arguments (command-spec.ts).
export type Handler = (ctx: Context, ...args: any[]) => Promise<CommandResult>;

export let lastExitCode: ExitCode = EXIT.ok;

/** Prints a failure (stderr text, or the JSON document) and returns its exit code. */
export function reportFailure(out: Output, error: unknown): ExitCode {
  const report = toReport(error);
  if (out.json) {
    const { exitCode, ...rest } = report;
    out.result({ ok: false, exitCode, error: rest });
  } else {
    process.stderr.write(`${out.paint('red', 'error:')} ${report.message}\n`);
    if (report.hint) process.stderr.write(`${out.paint('dim', 'hint:')} ${report.hint}\n`);
    if (report.requestId) process.stderr.write(`${out.paint('dim', `request id: ${report.requestId}`)}\n`);
  }
  return report.exitCode;
}

/**
 * Runs one command from commander's action arguments (positional arguments, options, the command):
 * the context is built from the merged flags, the command's code imported, its result printed.
 */
export async function runCommand(load: () => Promise<Handler>, args: unknown[]): Promise<void> {
  const command = args[args.length - 1] as Command;
  const flags = command.optsWithGlobals() as GlobalFlags;
  const positional = args.slice(0, -1);
  let out = new Output({ json: Boolean(flags.json) });
  try {
    const { createContext } = await import('./context.js');
    const ctx = await createContext(flags);
    out = ctx.out;
    const handler = await load();
    const result = await handler(ctx, ...positional);
    const exitCode = result.exitCode ?? EXIT.ok;
    out.result({ ok: exitCode === EXIT.ok, exitCode, data: result.data });
    lastExitCode = exitCode;
  } catch (error) {
    lastExitCode = reportFailure(out, error);
  }
}
