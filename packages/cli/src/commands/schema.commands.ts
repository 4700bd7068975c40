/** `cms schema diff` and `cms schema sync`: the config's schema for the environment against the server's. */
import type { Command } from 'commander';
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import { action } from '../cli/run-command.js';
import { describeChange, diffSchemas } from '../config/schema-diff.js';

async function plan(ctx: Context) {
  const config = ctx.requireConfig();
  const { environment } = ctx.target();
  const api = await ctx.api();
  const server = await api.schema.get();
  const resolved = config.resolve(environment);
  const changes = diffSchemas(server.types, resolved.effectiveSchema.types);
  return {
    api,
    resolved,
    layer: resolved.resolvedSchema,
    schemaHash: resolved.schemaHash,
    effectiveHash: resolved.effectiveSchemaHash,
    serverHash: server.schemaHash,
    changes,
  };
}

export function registerSchemaCommands(program: Command): void {
  const schema = program.command('schema').description('Compare and sync the content types of cms.config.ts');
  schema
    .command('diff')
    .description('Show what `cms schema sync` would change; exit 1 when it would change something')
    .action(
      action(async (ctx) => {
        const { changes, schemaHash, serverHash } = await plan(ctx);
        for (const change of changes) ctx.out.line(describeChange(change));
        if (changes.length === 0) ctx.out.log('The server schema matches the config.');
        else
          ctx.out.log(
            `${changes.length} change(s) (+ added, - removed, ~ changed) between the config and the server: \`cms schema sync\` applies them.`,
          );
        return {
          data: { changes, schemaHash, serverHash, inSync: changes.length === 0 },
          exitCode: changes.length ? EXIT.failure : EXIT.ok,
        };
      }),
    );
  schema
    .command('sync')
    .description('Push the config schema for this environment (shows the diff, asks, applies)')
    .option('--dry-run', 'show the diff only')
    .action(
      action(async (ctx, opts) => {
        const { api, resolved, layer, changes, schemaHash, effectiveHash, serverHash } = await plan(ctx);
        for (const change of changes) ctx.out.line(describeChange(change));
        if (changes.length === 0 && effectiveHash === serverHash) {
          ctx.out.log('The server schema matches the config: nothing to sync.');
          return { data: { synced: false, changes, schemaHash } };
        }
        if ((opts as { dryRun?: boolean }).dryRun) {
          ctx.out.log(`Dry run: ${changes.length} change(s) shown above, nothing was synced.`);
          return { data: { synced: false, dryRun: true, changes, schemaHash } };
        }
        const removals = changes.filter((c) => c.change === 'removed').length;
        if (
          removals > 0 &&
          !(await confirm(
            ctx.prompt,
            `Apply ${changes.length} schema change(s), ${removals} removal(s) (documents keep their data)?`,
          ))
        ) {
          return { data: { synced: false, cancelled: true, changes }, exitCode: EXIT.cancelled };
        }
        const result = await api.schema.sync({
          rawConfigSnapshot: resolved.rawConfigSnapshot,
          resolvedSchema: layer,
          schemaHash,
        });
        ctx.out.log(`Schema synced: ${result.typesCount} type(s), hash ${result.schemaHash.slice(0, 12)}.`);
        return { data: { ...result, changes } };
      }),
    );
}
