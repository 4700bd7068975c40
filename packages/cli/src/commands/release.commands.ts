/** `cms release create|add|list|show|schedule|publish|revert|run-due` (docs/cli.md "Releases"). */
import { followOperation } from '../api/follow.js';
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import type { CommandResult } from '../cli/run-command.js';
import { manifestPath, readManifest } from '../sync/manifest.js';
import { selectDocuments } from '../sync/select-documents.js';
import { publishFollower, revertFollower } from './long-operations.js';
import { localTimeZone, parseInstant, printRelease, releaseExit } from './release-output.js';

/** Document ids of tracked files or folders, server paths or ids (as `cms publish` names them). */
async function documentIdsOf(ctx: Context, paths: string[]): Promise<string[]> {
  const { serverUrl, project, environment } = ctx.target();
  const file = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
  const manifest = await readManifest(file, { project, environment, serverUrl });
  const api = await ctx.api();
  const { entries, remote } = await selectDocuments(paths, Object.values(manifest.documents), {
    cwd: ctx.cwd,
    root: ctx.config?.contentRoot ?? ctx.cwd,
    manifestFile: file,
    digest: () => api.content.digest(),
  });
  return [...entries.map((entry) => entry.id), ...remote.map((d) => d.documentId)];
}

/** `cms release create <title>`. */
export async function releaseCreate(
  ctx: Context,
  title: string,
  opts: { description?: string },
): Promise<CommandResult> {
  const api = await ctx.api();
  const description = (opts as { description?: string }).description;
  const created = await api.releases.create({
    title: title as string,
    ...(description ? { description } : {}),
  });
  ctx.out.line(created.id);
  return { data: created };
}

/** `cms release add <id> <paths...>`. */
export async function releaseAdd(
  ctx: Context,
  id: string,
  paths: string[],
  opts: { unpublish?: boolean },
): Promise<CommandResult> {
  const api = await ctx.api();
  const ids = await documentIdsOf(ctx, paths as string[]);
  const verb = (opts as { unpublish?: boolean }).unpublish ? 'unpublish' : 'publish';
  const updated = await api.releases.addItems(
    id as string,
    ids.map((documentId) => ({ documentId, action: verb })),
  );
  printRelease(ctx, updated);
  return { data: updated };
}

/** `cms release list`. */
export async function releaseList(ctx: Context, opts: { status?: string }): Promise<CommandResult> {
  const api = await ctx.api();
  const status = (opts as { status?: string }).status as never;
  const page = await api.releases.list(status ? { status, limit: 100 } : { limit: 100 });
  for (const item of page.data) printRelease(ctx, { ...item, items: [] });
  if (page.data.length === 0) ctx.out.log('No releases.');
  return { data: page.data };
}

/** `cms release show <id>`. */
export async function releaseShow(ctx: Context, id: string): Promise<CommandResult> {
  const shown = await (await ctx.api()).releases.get(id as string);
  printRelease(ctx, shown);
  return { data: shown };
}

/** `cms release schedule <id> <time>`. */
export async function releaseSchedule(
  ctx: Context,
  id: string,
  time: string,
  opts: { timeZone?: string },
): Promise<CommandResult> {
  const api = await ctx.api();
  const scheduled = await api.releases.schedule(id as string, {
    scheduledAt: parseInstant(time as string),
    timeZone: (opts as { timeZone?: string }).timeZone ?? localTimeZone(),
  });
  printRelease(ctx, scheduled);
  return { data: scheduled };
}

/** `cms release publish <id>`. */
export async function releasePublish(ctx: Context, id: string): Promise<CommandResult> {
  const api = await ctx.api();
  const published = await followOperation(ctx, {
    ...publishFollower(api, id as string),
    start: () => api.releases.publish(id as string),
  });
  printRelease(ctx, published);
  if (published.status === 'failed') ctx.out.log('Nothing was published: fix the items above and publish again.');
  return { data: published, exitCode: releaseExit(published) };
}

/** `cms release revert <id>`. */
export async function releaseRevert(ctx: Context, id: string): Promise<CommandResult> {
  const api = await ctx.api();
  const inverse = await followOperation(ctx, {
    ...revertFollower(api, id as string),
    start: () => api.releases.revert(id as string),
  });
  printRelease(ctx, inverse);
  return { data: inverse };
}

/** `cms release run-due`. */
export async function releaseRunDue(ctx: Context): Promise<CommandResult> {
  const outcome = await (await ctx.api()).releases.runDue();
  for (const id of outcome.published) ctx.out.line(`${ctx.out.paint('green', 'published')} ${id}`);
  for (const id of outcome.failed) ctx.out.line(`${ctx.out.paint('red', 'failed')}    ${id}`);
  if (outcome.published.length + outcome.failed.length === 0) ctx.out.log('No release is due.');
  return { data: outcome, exitCode: outcome.failed.length > 0 ? EXIT.failure : EXIT.ok };
}
