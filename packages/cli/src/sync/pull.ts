/**
 * `cms pull`: applies server changes to files. Never overwrites a local change (conflicts are listed,
 * exit 5, unless `--theirs`), never rewrites a file whose content equals the server's, asks before
 * deleting files and refuses to delete more than half of the tracked files without `--force`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import type { RemoteEntry, SyncItem } from './classify.js';
import { caseFoldCollisions } from './file-naming.js';
import type { ManifestEntry } from './manifest.js';
import { writeFileAtomic } from './manifest.js';
import { ManifestWriter } from './manifest-writer.js';
import { entryOf, remoteText } from './pull-text.js';
import { withContent } from './remote-state.js';
import { assertKnownPaths, countByStatus, loadSyncState, pathMatcher } from './sync-state.js';
import { diffsOf, mergeSides, type SideDiffs, sidesOf } from './three-way.js';

export interface PullOptions {
  dryRun?: boolean;
  force?: boolean;
  published?: boolean;
  theirs?: string[] | boolean;
  type?: string[];
  /** Write files whose edits overlap with conflict markers (still a conflict: exit 5). */
  merge?: boolean;
}

export interface PullReport {
  applied: Array<{ file: string; status: string; action: string; previousFile?: string }>;
  conflicts: Array<{
    file: string;
    status: string;
    id?: string;
    localHash?: string;
    remoteRevision?: number;
    manifestRevision?: number;
    updatedAt?: string;
    /** Each side against the base (unified diffs), or server -> local without a base. */
    diff?: SideDiffs;
    /** Frontmatter keys both sides changed differently. */
    keys?: string[];
    /** Body regions both sides changed differently. */
    bodyRegions?: number;
    /** True when --merge wrote the file with conflict markers. */
    markers?: boolean;
    /** Why no merge was tried. */
    reason?: string;
  }>;
  skipped: Array<{ file: string; status: string; reason: string }>;
  counts: Record<string, number>;
  dryRun: boolean;
}

/** A type the schema no longer has: its documents still have a file name. */
function fallbackType(remote: RemoteEntry) {
  return { name: remote.doc.type, directory: '', localized: false, fields: {} };
}

export async function pull(ctx: Context, options: PullOptions): Promise<PullReport> {
  const state = await loadSyncState(ctx, {
    remote: true,
    published: Boolean(options.published),
    ...(options.type ? { typeFilter: options.type } : {}),
  });
  const { root, manifest, items } = state;
  assertKnownPaths('--theirs', options.theirs, items);
  const theirs = pathMatcher(options.theirs);
  // `--theirs <paths…>` (named, not the bare flag) also discards an unpushed local edit or deletion
  // of those files, as `git checkout -- <path>` does: the server's version is written back.
  const restores = Array.isArray(options.theirs) && options.theirs.length > 0 ? theirs : () => false;
  const report: PullReport = {
    applied: [],
    conflicts: [],
    skipped: [],
    counts: countByStatus(items),
    dryRun: Boolean(options.dryRun),
  };

  // Case-fold collisions among the files pull would produce: refuse with the list.
  const targets = items.filter((i) => i.remote).map((i) => i.file);
  const collisions = caseFoldCollisions(new Set([...targets, ...state.local.map((f) => f.file)]));
  if (collisions.length > 0) {
    throw new CliError(
      'CASE_COLLISION',
      `These files differ only by letter case and would overwrite each other on macOS and Windows:\n${collisions.map((g) => `  ${g.join('  ')}`).join('\n')}`,
      {
        hint: 'Rename one of each pair on the server (or locally) so that paths differ by more than case.',
        details: { collisions },
      },
    );
  }

  const deletions = items.filter((i) => i.status === 'deleted-remote' && !i.conflict && i.local);
  const tracked = Object.keys(manifest.documents).length;
  if (deletions.length > 0 && !options.dryRun) {
    if (tracked >= 4 && deletions.length > tracked / 2 && !options.force) {
      throw new CliError(
        'MASS_DELETION',
        `The server no longer has ${deletions.length} of the ${tracked} tracked documents; pull would delete their files.`,
        {
          exitCode: EXIT.cancelled,
          hint: 'Check --server-url, --project and --environment; if this is intended, pass --force.',
          details: { files: deletions.map((d) => d.file) },
        },
      );
    }
    const ok =
      options.force ||
      (await confirm(
        ctx.prompt,
        `Delete ${deletions.length} file(s) removed on the server (${deletions
          .slice(0, 3)
          .map((d) => d.file)
          .join(', ')}${deletions.length > 3 ? ', …' : ''})?`,
        '--force',
      ));
    if (!ok) {
      for (const d of deletions) report.skipped.push({ file: d.file, status: d.status, reason: 'deletion declined' });
    }
  }
  const declined = new Set(report.skipped.map((s) => s.file));

  const writer = new ManifestWriter(state.manifestFile, manifest);
  /**
   * Merges a file both sides changed: a clean merge is written (the server's version becomes the
   * base, the merged file a local change to push); overlapping edits stay a conflict, the file
   * untouched unless --merge writes it with conflict markers.
   */
  const mergeItem = async (item: SyncItem): Promise<'merged' | Partial<PullReport['conflicts'][number]>> => {
    const sides = await sidesOf(state, item);
    const diffs = diffsOf(item.file, sides);
    const result = mergeSides(sides);
    if (!result || !sides.remote || sides.server === undefined) {
      return { diff: diffs, reason: sides.base === undefined ? 'no base kept for this file' : 'server side unknown' };
    }
    const write = result.clean || options.merge;
    if (write && !options.dryRun) {
      if (result.text !== sides.local)
        await writeFileAtomic(join(root, item.local?.diskName ?? item.file), result.text);
      const base = state.bases.put(sides.server);
      manifest.documents[sides.remote.doc.documentId] = { ...entryOf(sides.remote), file: item.file, base };
      writer.changed();
    }
    if (result.clean) {
      report.applied.push({ file: item.file, status: item.status, action: options.dryRun ? 'would merge' : 'merged' });
      return 'merged';
    }
    return {
      diff: diffs,
      keys: result.keys,
      bodyRegions: result.bodyRegions,
      markers: Boolean(options.merge && !options.dryRun),
    };
  };
  let done = 0;
  const work = items.filter(
    (i) =>
      i.status !== 'unchanged' ||
      (i.remote && i.id && !manifest.documents[i.id]) ||
      (i.remote &&
        i.entry &&
        (i.entry.draftRevision !== i.remote.doc.draftRevision ||
          i.entry.publishedVersion !== i.remote.doc.publishedVersion)),
  );
  const apply = async (item: SyncItem): Promise<void> => {
    const take = item.conflict && theirs(item.file);
    if (item.conflict && !take) {
      // Both sides changed the file: merged three-way against the base when it is kept.
      const merged = item.status === 'changed-both' ? await mergeItem(item) : undefined;
      if (merged === 'merged') return;
      report.conflicts.push({
        file: item.file,
        status: item.status,
        ...(item.id ? { id: item.id } : {}),
        ...(item.remote ? { remoteRevision: item.remote.doc.draftRevision, updatedAt: item.remote.doc.updatedAt } : {}),
        ...(item.entry ? { manifestRevision: item.entry.draftRevision } : {}),
        ...(merged ?? {}),
      });
      return;
    }
    const remote = item.remote;
    switch (item.status) {
      case 'changed-local':
      case 'deleted-local':
        if (remote && restores(item.file)) break;
        report.skipped.push({ file: item.file, status: item.status, reason: 'local change: run cms push' });
        return;
      case 'new-local':
      case 'moved-local':
        report.skipped.push({ file: item.file, status: item.status, reason: 'local change: run cms push' });
        return;
      case 'deleted-remote': {
        if (declined.has(item.file)) return;
        if (!options.dryRun) {
          if (item.local) await rm(join(root, item.local.diskName), { force: true });
          if (item.id) delete manifest.documents[item.id];
          writer.changed();
        }
        report.applied.push({ file: item.file, status: item.status, action: item.local ? 'deleted file' : 'forgot' });
        return;
      }
      default:
        break;
    }
    if (!remote) return;
    const type = state.typeByName.get(remote.doc.type);
    const source =
      item.status === 'moved-remote'
        ? item.previousFile
        : item.local
          ? item.local.diskName
          : existsSync(join(root, item.file))
            ? item.file
            : undefined;
    const localHash = item.local?.hash;
    const sameContent = localHash === remote.hash;
    let action = 'recorded';
    let written: string | undefined;
    if (!options.dryRun) {
      if (!sameContent || item.status === 'moved-remote') {
        const text = await remoteText(
          root,
          source,
          await withContent(state.api, remote, type ?? fallbackType(remote)),
          type,
        );
        const target = join(root, item.file);
        const current = existsSync(target) ? await readFile(target, 'utf8') : undefined;
        if (current !== text) {
          await mkdir(dirname(target), { recursive: true });
          await writeFileAtomic(target, text);
          action = current === undefined ? 'created file' : 'updated file';
        }
        written = text;
        if (item.status === 'moved-remote' && item.previousFile && item.previousFile !== item.file) {
          await rm(join(root, item.previousFile), { force: true });
          action = 'moved file';
        }
      }
      // The base: the text just written, else the file's (same content) unless it is kept already.
      const previous = manifest.documents[remote.doc.documentId];
      const entry: ManifestEntry = entryOf(remote);
      if (written !== undefined) entry.base = state.bases.put(written);
      else if (previous?.base && previous.hash === entry.hash) entry.base = previous.base;
      else if (item.local) entry.base = state.bases.put(item.local.text);
      manifest.documents[remote.doc.documentId] = entry;
      writer.changed();
    } else if (!sameContent) action = item.local ? 'would update file' : 'would create file';
    if (action !== 'recorded' || item.status !== 'unchanged') {
      report.applied.push({
        file: item.file,
        status: item.status,
        action,
        ...(item.previousFile ? { previousFile: item.previousFile } : {}),
      });
    }
    ctx.out.progress('Pulling', ++done, work.length);
  };
  for (const item of work) await apply(item);
  if (!options.dryRun) {
    manifest.schemaHash = await state.schemaHash();
    await writer.close();
    await state.bases.prune(manifest);
  }
  return report;
}
