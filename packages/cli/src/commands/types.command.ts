/** `cms types [--out <file>] [--check]`: TypeScript types of the server's schema (core's generateTypes). */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { generateTypes } from '@cms/core/schema';
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import type { CommandResult } from '../cli/run-command.js';
import { DEFAULT_TYPES_FILE } from './command-table.js';

/** `cms types`. */
export async function types(ctx: Context, raw: { out?: string; check?: boolean }): Promise<CommandResult> {
  const options = raw as { out?: string; check?: boolean };
  const file = resolve(ctx.cwd, options.out ?? DEFAULT_TYPES_FILE);
  const shown = relative(ctx.cwd, file) || file;
  const schema = await (await ctx.api()).schema.get();
  const text = generateTypes(schema);
  const current = await readFile(file, 'utf8').catch(() => null);
  const upToDate = current === text;
  const data = { file: shown, schemaHash: schema.schemaHash, types: schema.types.map((type) => type.name) };
  if (options.check) {
    if (upToDate) ctx.out.log(`${shown} matches the server schema.`);
    else
      ctx.out.log(
        `${shown} is ${current === null ? 'missing' : 'stale'}: run \`cms types${options.out ? ` --out ${shown}` : ''}\` and commit it.`,
      );
    return { data: { ...data, upToDate }, exitCode: upToDate ? EXIT.ok : EXIT.failure };
  }
  if (!upToDate) {
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, file);
  }
  ctx.out.log(`${upToDate ? 'unchanged' : 'wrote'} ${shown} (${data.types.length} types)`);
  return { data: { ...data, written: !upToDate } };
}
