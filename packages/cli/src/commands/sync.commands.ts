/** `cms pull`, `cms push`, `cms status`. */
import { mapLimit } from '../api/limiter.js';
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import type { CommandResult } from '../cli/run-command.js';
import type { SyncItem } from '../sync/classify.js';
import { writeManifest } from '../sync/manifest.js';
import { toRootRelative } from '../sync/paths.js';
import { type PullOptions, pull } from '../sync/pull.js';
import { type PushOptions, push } from '../sync/push.js';
import { countByStatus, loadSyncState } from '../sync/sync-state.js';
import { diffsOf, mergeSides, type SideDiffs, sidesOf } from '../sync/three-way.js';
import { publishPushed } from './push-publish.js';

const LABEL: Record<string, string> = {
  'new-remote': 'new on the server',
  'new-local': 'new locally',
  'changed-remote': 'changed on the server',
  'changed-local': 'changed locally',
  'changed-both': 'changed on both sides',
  'moved-remote': 'moved on the server',
  'moved-local': 'moved locally',
  'deleted-remote': 'deleted on the server',
  'deleted-local': 'deleted locally',
};

/** Prints each side's diff (stdout: it is the answer), indented under its file's line. */
function printDiffs(ctx: Context, diffs: SideDiffs | undefined): void {
  if (!diffs) return;
  for (const text of [diffs.local, diffs.server, diffs.serverToLocal]) {
    if (!text) continue;
    for (const line of text.replace(/\n$/, '').split('\n')) {
      const colour =
        line.startsWith('+') && !line.startsWith('+++')
          ? 'green'
          : line.startsWith('-') && !line.startsWith('---')
            ? 'red'
            : line.startsWith('@@')
              ? 'cyan'
              : undefined;
      ctx.out.line(`    ${colour ? ctx.out.paint(colour, line) : line}`);
    }
  }
}

/** What overlaps in a conflict that was merged and failed. */
function overlap(c: { keys?: string[]; bodyRegions?: number; reason?: string }): string {
  const parts: string[] = [];
  if (c.keys?.length) parts.push(`both changed ${c.keys.join(', ')}`);
  if (c.bodyRegions) parts.push(`${c.bodyRegions} body region(s) changed on both sides`);
  if (c.reason) parts.push(c.reason);
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

function rootPaths(ctx: Context, value: string[] | boolean | undefined): string[] | boolean | undefined {
  if (!Array.isArray(value)) return value;
  const root = ctx.config?.contentRoot ?? ctx.cwd;
  return value.map((p) => toRootRelative(ctx.cwd, root, p));
}

/** `cms pull`. */
export async function pullCommand(ctx: Context, opts: PullOptions): Promise<CommandResult> {
  const o = opts as PullOptions;
  const report = await pull(ctx, { ...o, theirs: rootPaths(ctx, o.theirs) });
  const { out } = ctx;
  for (const a of report.applied)
    out.line(`${out.paint('green', a.action.padEnd(14))} ${a.file}${a.previousFile ? ` (was ${a.previousFile})` : ''}`);
  for (const s of report.skipped) out.line(`${out.paint('dim', 'skipped'.padEnd(14))} ${s.file} (${s.reason})`);
  for (const c of report.conflicts) {
    out.line(
      `${out.paint('red', 'conflict'.padEnd(14))} ${c.file}: ${LABEL[c.status] ?? c.status}${c.remoteRevision ? ` (server revision ${c.remoteRevision}, last synced ${c.manifestRevision ?? 'never'}, updated ${c.updatedAt})` : ''}${overlap(c)}`,
    );
    printDiffs(ctx, c.diff);
  }
  if (report.conflicts.some((c) => c.markers)) {
    out.log(
      'Conflict markers were written: edit each file to keep what it should say between <<<<<<< local and >>>>>>> server, then `cms push`.',
    );
  } else if (report.conflicts.length > 0) {
    out.log(
      'Nothing was overwritten. Keep the server side with `cms pull --theirs <path>`, yours with `cms push --ours <path>`, or write both with conflict markers with `cms pull --merge`.',
    );
  } else if (report.applied.length === 0 && report.skipped.length > 0) {
    // Not "up to date": the files skipped hold local changes the server does not have.
    out.log(
      'Nothing pulled: the skipped files have local changes. Send them with `cms push`, or take the server version with `cms pull --theirs <path>`.',
    );
  } else if (report.applied.length === 0) out.log('Already up to date.');
  return { data: report, exitCode: report.conflicts.length > 0 ? EXIT.conflict : EXIT.ok };
}

/** `cms push`. */
export async function pushCommand(ctx: Context, opts: PushOptions & { publish?: boolean }): Promise<CommandResult> {
  const o = opts as PushOptions & { publish?: boolean };
  const report = await push(ctx, { ...o, ours: rootPaths(ctx, o.ours) });
  const { out } = ctx;
  for (const r of report.results) {
    const colour =
      r.outcome === 'conflict' || r.outcome === 'failed' ? 'red' : r.outcome === 'skipped' ? 'dim' : 'green';
    out.line(
      `${out.paint(colour, r.outcome.padEnd(9))} ${r.file}${r.message ? ` (${r.code ? `${r.code}: ` : ''}${r.message})` : ''}`,
    );
    printDiffs(ctx, r.diff);
  }
  const { summary } = report;
  if (report.results.length === 0) out.log('Nothing to push.');
  else
    out.log(
      `created ${summary.created}, updated ${summary.updated}, deleted ${summary.deleted}, skipped ${summary.skipped}, conflicts ${summary.conflict}, failed ${summary.failed}`,
    );
  if (summary.conflict > 0)
    out.log(
      'Nothing of the conflicting documents was overwritten. Keep the server side with `cms pull --theirs <path>`, or yours with `cms push --ours <path>`.',
    );
  // A conflict wins over other failures of the run: exit 5 tells a script that nothing was overwritten.
  const exitCode = summary.conflict > 0 ? EXIT.conflict : summary.failed > 0 ? EXIT.failure : EXIT.ok;
  if (!o.publish || report.dryRun) return { data: report, exitCode };
  const release = await publishPushed(ctx, report);
  const failed = release?.status === 'failed' ? EXIT.failure : exitCode;
  return { data: { ...report, release: release ? { ...release, items: undefined } : null }, exitCode: failed };
}

/** `cms status`. */
export async function status(ctx: Context, opts: { type?: string[]; diff?: boolean }): Promise<CommandResult> {
  const o = opts as { type?: string[]; diff?: boolean };
  const state = await loadSyncState(ctx, {
    remote: true,
    preflight: true,
    ...(o.type ? { typeFilter: o.type } : {}),
  });
  const drift = state.items.filter((i) => i.status !== 'unchanged');
  // Like git's index refresh: stats of files found unchanged are kept for the next run.
  if (state.statsLearned) await writeManifest(state.manifestFile, state.manifest);
  const { out } = ctx;
  const shown = new Map<SyncItem, { diff: SideDiffs; merge?: 'clean' | 'conflict' }>();
  if (o.diff) {
    await mapLimit(drift, ctx.concurrency, async (item) => {
      if (!item.entry && item.status !== 'changed-both') return;
      const sides = await sidesOf(state, item);
      const merged = item.status === 'changed-both' ? mergeSides(sides) : undefined;
      shown.set(item, {
        diff: diffsOf(item.file, sides),
        ...(merged ? { merge: merged.clean ? 'clean' : 'conflict' } : {}),
      });
    });
  }
  for (const item of drift) {
    const view = shown.get(item);
    const merge = view?.merge ? (view.merge === 'clean' ? ' (merges cleanly: cms pull)' : ' (edits overlap)') : '';
    out.line(
      `${out.paint(item.conflict ? 'red' : 'yellow', (LABEL[item.status] ?? item.status).padEnd(22))} ${item.file}${item.previousFile ? ` (was ${item.previousFile})` : ''}${item.conflict ? ' CONFLICT' : ''}${merge}`,
    );
    printDiffs(ctx, view?.diff);
  }
  if (drift.length === 0) out.log(`In sync: ${state.items.length} document(s).`);
  return {
    data: {
      inSync: drift.length === 0,
      counts: countByStatus(state.items),
      items: drift.map((i) => ({
        file: i.file,
        status: i.status,
        conflict: i.conflict,
        ...(i.id ? { id: i.id } : {}),
        ...(i.previousFile ? { previousFile: i.previousFile } : {}),
        ...(shown.get(i) ?? {}),
      })),
    },
    exitCode: drift.length === 0 ? EXIT.ok : EXIT.failure,
  };
}
