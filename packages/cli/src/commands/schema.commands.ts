/** `cms schema diff` and `cms schema sync`: the config's schema for the environment against the server's. */
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import type { CommandResult } from '../cli/run-command.js';
import { describeChange, describeFieldOrder, diffFieldOrder, diffSchemas } from '../config/schema-diff.js';

async function plan(ctx: Context) {
  const config = ctx.requireConfig();
  const { environment } = ctx.target();
  const api = await ctx.api();
  const server = await api.schema.get();
  const resolved = config.resolve(environment);
  const changes = diffSchemas(server.types, resolved.effectiveSchema.types);
  const reordered = diffFieldOrder(server.types, resolved.effectiveSchema.types, changes);
  // The config's locales, which the server answers from the last sync's snapshot (an older server says
  // nothing about them: nothing to compare).
  const locales = localeList(resolved.locales);
  const localesChanged = server.locales !== undefined && localeList(server.locales).join() !== locales.join();
  return {
    api,
    resolved,
    layer: resolved.resolvedSchema,
    schemaHash: resolved.schemaHash,
    effectiveHash: resolved.effectiveSchemaHash,
    serverHash: server.schemaHash,
    changes,
    reordered,
    locales,
    serverLocales: server.locales ? localeList(server.locales) : null,
    localesChanged,
  };
}

/** Locales as a list, the default first. */
function localeList(locales: { default: string; supported: readonly string[] }): string[] {
  return [locales.default, ...locales.supported.filter((locale) => locale !== locales.default)];
}

function describeLocales(locales: string[], serverLocales: string[] | null): string {
  return `~ locales ${locales.join(', ')} (server: ${serverLocales?.join(', ') || 'none'})`;
}

/** `cms schema diff`. */
export async function schemaDiff(ctx: Context): Promise<CommandResult> {
  const { changes, reordered, locales, serverLocales, localesChanged, schemaHash, serverHash } = await plan(ctx);
  for (const change of changes) ctx.out.line(describeChange(change));
  // Field order and locales alone are not drift (the hash and validation ignore them): a note, exit 0.
  for (const change of reordered) ctx.out.log(describeFieldOrder(change));
  if (localesChanged) ctx.out.log(describeLocales(locales, serverLocales));
  if (reordered.length > 0 || localesChanged)
    ctx.out.log("Field order or locales differ (not a schema change): `cms schema sync` sends the config's.");
  if (changes.length === 0) ctx.out.log('The server schema matches the config.');
  else
    ctx.out.log(
      `${changes.length} change(s) (+ added, - removed, ~ changed) between the config and the server: \`cms schema sync\` applies them.`,
    );
  return {
    data: {
      changes,
      reordered,
      locales: { config: locales, server: serverLocales, changed: localesChanged },
      schemaHash,
      serverHash,
      inSync: changes.length === 0,
    },
    exitCode: changes.length ? EXIT.failure : EXIT.ok,
  };
}

/** `cms schema sync`. */
export async function schemaSync(ctx: Context, opts: { dryRun?: boolean }): Promise<CommandResult> {
  const { api, resolved, layer, changes, reordered, locales, serverLocales, localesChanged, ...hashes } =
    await plan(ctx);
  const { schemaHash, effectiveHash, serverHash } = hashes;
  for (const change of changes) ctx.out.line(describeChange(change));
  for (const change of reordered) ctx.out.line(describeFieldOrder(change));
  if (localesChanged) ctx.out.line(describeLocales(locales, serverLocales));
  if (changes.length === 0 && reordered.length === 0 && !localesChanged && effectiveHash === serverHash) {
    ctx.out.log('The server schema matches the config: nothing to sync.');
    return { data: { synced: false, changes, schemaHash } };
  }
  if ((opts as { dryRun?: boolean }).dryRun) {
    ctx.out.log(`Dry run: ${changes.length} change(s) shown above, nothing was synced.`);
    return { data: { synced: false, dryRun: true, changes, reordered, schemaHash } };
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
  return { data: { ...result, changes, reordered } };
}
