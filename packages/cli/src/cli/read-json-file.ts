/** Reads a JSON file named on the command line (`cms migrate <file>`, `--body`, a module alias's body file). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

/**
 * The parsed contents of `file`, relative to the folder cms runs in. A missing file or bad JSON is a
 * usage error (exit 2) whose hint says what the file must hold (`holds`, e.g. "the request body of the action").
 */
export async function readJsonFile(ctx: { cwd: string }, file: string, holds = 'one JSON document'): Promise<unknown> {
  const full = resolve(ctx.cwd, file);
  const text = await readFile(full, 'utf8').catch(() => {
    throw new CliError('FILE_NOT_FOUND', `Cannot read ${full}.`, {
      exitCode: EXIT.usage,
      hint: 'Check the file name; it is relative to the folder you run cms in.',
    });
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError('INVALID_JSON', `${full}: ${(error as Error).message}`, {
      exitCode: EXIT.usage,
      hint: `The file must hold ${holds}.`,
    });
  }
}
