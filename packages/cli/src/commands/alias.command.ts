/**
 * Runs a module alias (`cms settings set`): its request from the arguments and flags, its
 * preflights, the action's request, then its formatter's lines (`--json` prints the data).
 */
import type { CliAlias } from '@cms/core/cli-surface';
import type { CmsApi, RequestOptions } from '../api/cms-api.js';
import { followOperation } from '../api/follow.js';
import { type RequestParts, requestFromFlags } from '../cli/alias-flags.js';
import type { Context } from '../cli/context.js';
import { CliError } from '../cli/exit-codes.js';
import { runPreflights } from '../cli/preflights.js';
import { readJsonFile } from '../cli/read-json-file.js';
import type { CommandResult } from '../cli/run-command.js';
import { migrationFollower } from './long-operations.js';

/** The request parts and address of an action, from core's route contracts. */
export async function routeOf(actionId: string): Promise<{ method: string; path: string; request: RequestParts }> {
  const { routes } = await import('@cms/core');
  const route = (routes as unknown as Record<string, { method: string; path: string; request?: RequestParts }>)[
    actionId
  ];
  if (!route) throw new CliError('UNKNOWN_ACTION', `No action "${actionId}" in this CLI's route contracts.`);
  return { method: route.method, path: route.path, request: route.request ?? {} };
}

/** The JSON body of a `file` alias, with `dryRun: true` when `--dry-run` was given. */
async function fileBody(ctx: Context, file: string, options: Record<string, unknown>): Promise<unknown> {
  const body = await readJsonFile(ctx, file, 'one JSON document: the request body of the action');
  if (options.dryRun === true && body && typeof body === 'object' && !Array.isArray(body)) {
    return { ...(body as Record<string, unknown>), dryRun: true };
  }
  return body;
}

/** How to follow an action whose answer is late: a content migration, by its name's record. */
function followerOf(action: string, body: unknown, api: CmsApi) {
  const input = (body ?? {}) as { name?: unknown; dryRun?: unknown };
  if (action !== 'content.migrate' || input.dryRun === true || typeof input.name !== 'string') return undefined;
  return migrationFollower(api, input.name);
}

/** The function the command table runs for one alias. */
export function aliasRunner(alias: CliAlias) {
  return async (ctx: Context, ...input: unknown[]): Promise<CommandResult> => {
    const options = (input.pop() ?? {}) as Record<string, unknown>;
    const positional = input as string[];
    const route = await routeOf(alias.action);
    const paramNames = Object.keys(route.request.params?.properties ?? {});
    const path = route.path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) =>
      encodeURIComponent(positional[paramNames.indexOf(name)] ?? ''),
    );
    const request =
      alias.inputMode === 'flags'
        ? requestFromFlags(route.request, options)
        : alias.inputMode === 'file'
          ? { body: await fileBody(ctx, positional[paramNames.length] as string, options) }
          : {};
    await runPreflights(ctx, alias.command, alias.preflight ?? []);
    const api = await ctx.api();
    const send = async () =>
      ((await api.http.send(route.method, path, request as RequestOptions)) as { data?: unknown } | null)?.data ?? null;
    // A long operation whose answer is late is followed to its end (api/follow.ts).
    const follower = followerOf(alias.action, request.body, api);
    const data = follower ? await followOperation(ctx, { ...follower, start: send }) : await send();
    const lines = alias.format ? alias.format(data) : [JSON.stringify(data, null, 2)];
    for (const line of lines) ctx.out.line(line);
    return { data };
  };
}
