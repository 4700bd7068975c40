/** `cms pull`, `cms push`, `cms status`. */
import type { Command } from 'commander';
import type { Context } from '../cli/context.js';
import { EXIT } from '../cli/exit-codes.js';
import { action } from '../cli/run-command.js';
import { toRootRelative } from '../sync/paths.js';
import { type PullOptions, pull } from '../sync/pull.js';
import { type PushOptions, push } from '../sync/push.js';
import { countByStatus, loadSyncState } from '../sync/sync-state.js';

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

function rootPaths(ctx: Context, value: string[] | boolean | undefined): string[] | boolean | undefined {
  if (!Array.isArray(value)) return value;
  const root = ctx.config?.contentRoot ?? ctx.cwd;
  return value.map((p) => toRootRelative(ctx.cwd, root, p));
}

export function registerSyncCommands(program: Command): void {
  program
    .command('pull')
    .description('Write server content into the markdown files (never overwrites local changes)')
    .option('--dry-run', 'show what would change, write nothing')
    .option('--force', 'delete files removed on the server without asking, even many')
    .option('--published', 'pull the published versions instead of drafts')
    .option('--theirs [paths...]', 'for conflicts under these paths (all without paths), take the server side')
    .option('--type <names...>', 'only these content types')
    .action(
      action(async (ctx, opts) => {
        const o = opts as PullOptions;
        const report = await pull(ctx, { ...o, theirs: rootPaths(ctx, o.theirs) });
        const { out } = ctx;
        for (const a of report.applied)
          out.line(
            `${out.paint('green', a.action.padEnd(14))} ${a.file}${a.previousFile ? ` (was ${a.previousFile})` : ''}`,
          );
        for (const s of report.skipped) out.line(`${out.paint('dim', 'skipped'.padEnd(14))} ${s.file} (${s.reason})`);
        for (const c of report.conflicts) {
          out.line(
            `${out.paint('red', 'conflict'.padEnd(14))} ${c.file}: ${LABEL[c.status] ?? c.status}${c.remoteRevision ? ` (server revision ${c.remoteRevision}, last synced ${c.manifestRevision ?? 'never'}, updated ${c.updatedAt})` : ''}`,
          );
        }
        if (report.conflicts.length > 0) {
          out.log(
            'Nothing was overwritten. Keep the server side with `cms pull --theirs <path>`, or yours with `cms push --ours <path>`.',
          );
        } else if (report.applied.length === 0 && report.skipped.length > 0) {
          // Not "up to date": the files skipped hold local changes the server does not have.
          out.log(
            'Nothing pulled: the skipped files have local changes. Send them with `cms push`, or take the server version with `cms pull --theirs <path>`.',
          );
        } else if (report.applied.length === 0) out.log('Already up to date.');
        return { data: report, exitCode: report.conflicts.length > 0 ? EXIT.conflict : EXIT.ok };
      }),
    );

  program
    .command('push')
    .description('Send local changes to the server (creates, updates with draftRevision, deletes)')
    .option('--dry-run', 'show what would be sent, send nothing')
    .option('--force', 'delete documents whose files are gone without asking, even many')
    .option('--ours [paths...]', 'for conflicts under these paths (all without paths), overwrite the server side')
    .option('--type <names...>', 'only these content types')
    .action(
      action(async (ctx, opts) => {
        const o = opts as PushOptions;
        const report = await push(ctx, { ...o, ours: rootPaths(ctx, o.ours) });
        const { out } = ctx;
        for (const r of report.results) {
          const colour =
            r.outcome === 'conflict' || r.outcome === 'failed' ? 'red' : r.outcome === 'skipped' ? 'dim' : 'green';
          out.line(
            `${out.paint(colour, r.outcome.padEnd(9))} ${r.file}${r.message ? ` (${r.code ? `${r.code}: ` : ''}${r.message})` : ''}`,
          );
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
        const exitCode = summary.failed > 0 ? EXIT.failure : summary.conflict > 0 ? EXIT.conflict : EXIT.ok;
        return { data: report, exitCode };
      }),
    );

  program
    .command('status')
    .description('Compare files, manifest and server; exit 1 on any drift (for CI)')
    .option('--type <names...>', 'only these content types')
    .action(
      action(async (ctx, opts) => {
        const o = opts as { type?: string[] };
        const state = await loadSyncState(ctx, { remote: true, ...(o.type ? { typeFilter: o.type } : {}) });
        const drift = state.items.filter((i) => i.status !== 'unchanged');
        const { out } = ctx;
        for (const item of drift) {
          out.line(
            `${out.paint(item.conflict ? 'red' : 'yellow', (LABEL[item.status] ?? item.status).padEnd(22))} ${item.file}${item.previousFile ? ` (was ${item.previousFile})` : ''}${item.conflict ? ' CONFLICT' : ''}`,
          );
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
            })),
          },
          exitCode: drift.length === 0 ? EXIT.ok : EXIT.failure,
        };
      }),
    );
}
