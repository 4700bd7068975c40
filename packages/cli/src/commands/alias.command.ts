/**
 * Runs a module alias (`cms settings set`): its request from the arguments and flags, its
 * preflights, the action's request, then its formatter's lines (`--json` prints the data).
 */
import type { CliAlias } from '@cms/core/cli-surface';
import type { RequestOptions } from '../api/cms-api.js';
import { type RequestParts, requestFromFlags } from '../cli/alias-flags.js';
import type { Context } from '../cli/context.js';
import { CliError } from '../cli/exit-codes.js';
import { runPreflights } from '../cli/preflights.js';
import { readJsonFile } from '../cli/read-json-file.js';
import type { CommandResult } from '../cli/run-command.js';

/** The request parts and address of an action, from core's route contracts. */
export async function routeOf(actionId: string): Promise<{ method: string; path: string; request: RequestParts }> {
  const { routes } = await import('@cms/core');
  const route = (routes as unknown as Record<string, { method: string; path: string; request?: RequestParts }>)[
    actionId
  ];
  if (!route) throw new CliError('UNKNOWN_ACTION', `No action "${actionId}" in this CLI's route contracts.`);
  return { method: route.method, path: route.path, request: route.request ?? {} };
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
          ? {
              body: await readJsonFile(
                ctx,
                positional[paramNames.length] as string,
                'one JSON document: the request body of the action',
              ),
            }
          : {};
    await runPreflights(ctx, alias.command, alias.preflight ?? []);
    const api = await ctx.api();
    const envelope = (await api.http.send(route.method, path, request as RequestOptions)) as { data?: unknown } | null;
    const data = envelope?.data ?? null;
    const lines = alias.format ? alias.format(data) : [JSON.stringify(data, null, 2)];
    for (const line of lines) ctx.out.line(line);
    return { data };
  };
}
