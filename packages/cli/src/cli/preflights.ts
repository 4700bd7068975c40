/**
 * Preflight hooks a module alias declares (`@cms/core/cli-surface`), run before its request is
 * sent: each fails with a message that names the command that fixes it, and nothing is sent.
 */
import type { CliPreflight } from '@cms/core/cli-surface';
import type { Context } from './context.js';
import { CliError, EXIT } from './exit-codes.js';

/** The config's schema for this environment is the server's; else `cms schema sync` (no config: nothing to compare). */
async function schemaHash(ctx: Context, command: string): Promise<void> {
  if (!ctx.config) return;
  const { environment } = ctx.target();
  const local = ctx.config.resolve(environment).effectiveSchemaHash;
  const server = (await (await ctx.api()).schema.get()).schemaHash;
  if (local === server) return;
  throw new CliError(
    'SCHEMA_OUT_OF_DATE',
    `The schema of environment ${environment} on the server (${server.slice(0, 12)}) is not the one of ${ctx.config.file} (${local.slice(0, 12)}): \`cms ${command}\` was not sent.`,
    {
      hint: 'Run `cms schema diff` to see the difference, then `cms schema sync`, and run the command again.',
      details: { serverHash: server, configHash: local },
    },
  );
}

/** The key has this capability here (`GET /me`); else nothing is sent. */
async function capability(ctx: Context, command: string, name: string): Promise<void> {
  const { project, environment } = ctx.target();
  const me = await (await ctx.api()).me();
  if ((me.capabilities as Record<string, boolean> | undefined)?.[name]) return;
  throw new CliError(
    'MISSING_CAPABILITY',
    `\`cms ${command}\` needs the capability ${name}, which this key lacks on ${project}/${environment}: nothing was sent.`,
    {
      exitCode: EXIT.failure,
      hint: '`cms whoami` shows what this key can do; sign in as someone who may (`cms login`) or pass a key that may (--api-key).',
      details: { capability: name },
    },
  );
}

export async function runPreflights(ctx: Context, command: string, preflights: readonly CliPreflight[]): Promise<void> {
  for (const preflight of preflights) {
    if (preflight === 'schema-hash') await schemaHash(ctx, command);
    else await capability(ctx, command, preflight.slice('capability:'.length));
  }
}
