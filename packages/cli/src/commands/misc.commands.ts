/** `cms media upload`, `cms migrate <file>`, `cms action list|run`. */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { isApiError } from '../api/api-error.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import { action } from '../cli/run-command.js';
import { closestNames } from '../cli/suggest.js';

async function readJsonFile(ctx: { cwd: string }, file: string): Promise<unknown> {
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
      hint: 'The file must hold one JSON document.',
    });
  }
}

export function registerMiscCommands(program: Command): void {
  const media = program.command('media').description('Media files');
  media
    .command('upload')
    .description('Upload files to the media library')
    .argument('<files...>')
    .action(
      action(async (ctx, files) => {
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
            if (!isApiError(error)) throw error;
            failed++;
            ctx.out.line(`${ctx.out.paint('red', 'failed')}   ${file}: ${error.code}: ${error.message}`);
            results.push({ file, outcome: 'failed', code: error.code, message: error.message });
          }
        }
        ctx.out.progress('Uploading', list.length, list.length);
        return { data: { results }, exitCode: failed ? EXIT.failure : EXIT.ok };
      }),
    );

  program
    .command('migrate')
    .description('Apply a content migration (JSON: { name, type, operations }): dry run first, then asks')
    .argument('<file>')
    .option('--dry-run', 'only show what would change')
    .action(
      action(async (ctx, file, opts) => {
        const api = await ctx.api();
        const body = (await readJsonFile(ctx, file as string)) as Record<string, unknown>;
        const preview = await api.migrations.run({ ...body, dryRun: true });
        ctx.out.line(
          `${preview.name}: ${preview.changed} of ${preview.matched} ${preview.type} document(s) would change`,
        );
        for (const s of (preview.sample as Array<{ path: string; before: unknown; after: unknown }>) ?? []) {
          ctx.out.line(`  ${s.path}: ${JSON.stringify(s.before)} -> ${JSON.stringify(s.after)}`);
        }
        if ((opts as { dryRun?: boolean }).dryRun || preview.changed === 0)
          return { data: { preview, applied: false } };
        if (!(await confirm(ctx.prompt, `Apply migration ${preview.name} to ${preview.changed} document(s)?`))) {
          return { data: { preview, applied: false, cancelled: true }, exitCode: EXIT.cancelled };
        }
        const result = await api.migrations.run({ ...body, dryRun: false });
        ctx.out.log(`Applied: ${result.changed} document(s) changed.`);
        return { data: { preview, applied: true, result } };
      }),
    );

  const actions = program.command('action').description('The server action catalog');
  actions
    .command('list')
    .description('List the actions this key may call')
    .action(
      action(async (ctx) => {
        const api = await ctx.api();
        const list = await api.actions.list();
        for (const a of list) ctx.out.line(`${String(a.id).padEnd(32)} ${String(a.method).padEnd(6)} ${a.path}`);
        return { data: list };
      }),
    );
  actions
    .command('run')
    .description('Call one action of the catalog; path parameters from --param, the body from --body <file>')
    .argument('<id>')
    .option('--body <file>', 'JSON request body')
    .option('--param <name=value...>', 'path parameters ({id} in the path) and, for GET, query parameters')
    .action(
      action(async (ctx, id, opts) => {
        const api = await ctx.api();
        const o = opts as { body?: string; param?: string[] };
        const item = await api.actions.get(id as string).catch(async (error: unknown) => {
          if (!isApiError(error) || error.code !== 'NOT_FOUND') throw error;
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
      }),
    );
}
