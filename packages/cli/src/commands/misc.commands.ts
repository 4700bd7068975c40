/** `cms media upload`, `cms migrate <file>`, `cms action list|run`. */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { isCmsError } from '@cms/sdk';
import { followOperation } from '../api/follow.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import { readJsonFile } from '../cli/read-json-file.js';
import type { CommandResult } from '../cli/run-command.js';
import { closestNames } from '../cli/suggest.js';
import { migrationFollower } from './long-operations.js';

/** `cms media upload <files...>`. */
export async function mediaUpload(ctx: Context, files: string[]): Promise<CommandResult> {
  const api = await ctx.api();
  const list = files as string[];
  const results: unknown[] = [];
  let failed = 0;
  for (const [index, file] of list.entries()) {
    ctx.out.progress('Uploading', index, list.length);
    const full = resolve(ctx.cwd, file);
    try {
      await stat(full);
    } catch {
      throw new CliError('FILE_NOT_FOUND', `No such file: ${full}`, { exitCode: EXIT.usage });
    }
    try {
      const asset = await api.media.upload(new Blob([await readFile(full)]), basename(full));
      ctx.out.line(`${ctx.out.paint('green', 'uploaded')} ${file} -> ${asset.url}`);
      results.push({ file, outcome: 'uploaded', asset });
    } catch (error) {
      if (!isCmsError(error)) throw error;
      failed++;
      ctx.out.line(`${ctx.out.paint('red', 'failed')}   ${file}: ${error.code}: ${error.message}`);
      results.push({ file, outcome: 'failed', code: error.code, message: error.message });
    }
  }
  ctx.out.progress('Uploading', list.length, list.length);
  return { data: { results }, exitCode: failed ? EXIT.failure : EXIT.ok };
}

/** `cms migrate <file>`. */
export async function migrate(ctx: Context, file: string, opts: { dryRun?: boolean }): Promise<CommandResult> {
  const api = await ctx.api();
  const body = (await readJsonFile(ctx, file as string)) as Record<string, unknown>;
  const preview = await api.migrations.run({ ...body, dryRun: true });
  ctx.out.line(`${preview.name}: ${preview.changed} of ${preview.matched} ${preview.type} document(s) would change`);
  for (const s of (preview.sample as Array<{ path: string; before: unknown; after: unknown }>) ?? []) {
    ctx.out.line(`  ${s.path}: ${JSON.stringify(s.before)} -> ${JSON.stringify(s.after)}`);
  }
  if ((opts as { dryRun?: boolean }).dryRun || preview.changed === 0) return { data: { preview, applied: false } };
  if (!(await confirm(ctx.prompt, `Apply migration ${preview.name} to ${preview.changed} document(s)?`))) {
    return { data: { preview, applied: false, cancelled: true }, exitCode: EXIT.cancelled };
  }
  const result = await followOperation(ctx, {
    ...migrationFollower(api, preview.name),
    start: () => api.migrations.run({ ...body, dryRun: false }),
  });
  ctx.out.log(`Applied: ${result.changed} document(s) changed.`);
  return { data: { preview, applied: true, result } };
}

/** `cms action list`. */
export async function actionList(ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  const list = await api.actions.list();
  for (const a of list) ctx.out.line(`${String(a.id).padEnd(32)} ${String(a.method).padEnd(6)} ${a.path}`);
  return { data: list };
}

/** `cms action run <id>`. */
export async function actionRun(
  ctx: Context,
  id: string,
  opts: { body?: string; param?: string[] },
): Promise<CommandResult> {
  const api = await ctx.api();
  const o = opts as { body?: string; param?: string[] };
  const item = await api.actions.get(id as string).catch(async (error: unknown) => {
    if (!isCmsError(error) || error.code !== 'NOT_FOUND') throw error;
    const near = closestNames(
      id as string,
      (await api.actions.list()).map((a) => String(a.id)),
    );
    throw new CliError('UNKNOWN_ACTION', `No action "${id}" in the catalog of this server.`, {
      exitCode: EXIT.usage,
      hint: `${near.length > 0 ? `Did you mean ${near.join(', ')}? ` : ''}\`cms action list\` shows the actions this key may call.`,
    });
  });
  const params = new Map(
    (o.param ?? []).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const),
  );
  let path = String(item.path).replace(/[{:]([A-Za-z_]+)\}?/g, (_, name: string) => {
    const value = params.get(name);
    if (value === undefined)
      throw new CliError('MISSING_PARAM', `Action ${id} needs --param ${name}=<value>.`, {
        exitCode: EXIT.usage,
      });
    params.delete(name);
    return encodeURIComponent(value);
  });
  if (!path.startsWith('/api/')) path = `/api/v1${path.startsWith('/') ? '' : '/'}${path}`;
  const method = String(item.method).toUpperCase();
  const query = method === 'GET' ? Object.fromEntries(params) : undefined;
  const body = o.body ? await readJsonFile(ctx, o.body) : undefined;
  const envelope = await api.http.send(method, path, {
    ...(query ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
  });
  const data = (envelope as { data?: unknown } | null)?.data ?? envelope;
  ctx.out.line(JSON.stringify(envelope, null, 2));
  return { data };
}
