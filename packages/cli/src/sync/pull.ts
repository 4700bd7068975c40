/**
 * `cms pull`: applies server changes to files. Never overwrites a local change (conflicts are listed,
 * exit 5, unless `--theirs`), never rewrites a file whose content equals the server's, asks before
 * deleting files and refuses to delete more than half of the tracked files without `--force`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SchemaType } from '@cms/core';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import type { RemoteEntry, SyncItem } from './classify.js';
import { caseFoldCollisions } from './file-naming.js';
import { patchFile, renderNewFile, splitFile } from './frontmatter.js';
import type { ManifestEntry } from './manifest.js';
import { writeFileAtomic } from './manifest.js';
import { ManifestWriter } from './manifest-writer.js';
import { assertKnownPaths, countByStatus, loadSyncState, pathMatcher } from './sync-state.js';
import { type FieldShape, rootShape, shapeOfItem, shapeOfKey } from './yaml-render.js';

export interface PullOptions {
  dryRun?: boolean;
  force?: boolean;
  published?: boolean;
  theirs?: string[] | boolean;
  type?: string[];
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
  }>;
  skipped: Array<{ file: string; status: string; reason: string }>;
  counts: Record<string, number>;
  dryRun: boolean;
}

/**
 * Frontmatter keys in schema order, then the rest in the server's order, at any depth (the keys of
 * object fields, also inside lists, follow their own fields): the canonical writer's order.
 */
export function orderedFrontmatter(
  type: SchemaType | undefined,
  frontmatter: Record<string, unknown>,
): Record<string, unknown> {
  return inSchemaOrder(frontmatter, rootShape(type?.fields)) as Record<string, unknown>;
}

function inSchemaOrder(value: unknown, shape: FieldShape | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => inSchemaOrder(item, shapeOfItem(shape)));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  const fields = shape?.kind === 'object' ? Object.keys(shape.fields ?? {}) : [];
  for (const key of [...fields, ...Object.keys(object)]) {
    if (key in object && !(key in ordered)) ordered[key] = inSchemaOrder(object[key], shapeOfKey(shape, key));
  }
  return ordered;
}

export function entryOf(remote: RemoteEntry): ManifestEntry {
  const { doc } = remote;
  return {
    id: doc.documentId,
    file: remote.file,
    type: doc.type,
    path: doc.path,
    locale: doc.locale,
    format: doc.format,
    translationGroupId: doc.translationGroupId,
    draftRevision: doc.draftRevision,
    publishedVersion: doc.publishedVersion,
    hash: remote.hash,
  };
}

/** The text a file should hold to carry the remote content, preserving what the user wrote where unchanged. */
export async function remoteText(
  root: string,
  existingFile: string | undefined,
  remote: RemoteEntry,
  type: SchemaType | undefined,
): Promise<string> {
  const fm = orderedFrontmatter(type, remote.doc.frontmatter ?? {});
  const body = remote.doc.body ?? '';
  if (existingFile && existsSync(join(root, existingFile))) {
    return patchFile(splitFile(await readFile(join(root, existingFile), 'utf8')), fm, body, type?.fields);
  }
  return renderNewFile(fm, body, type?.fields);
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
      report.conflicts.push({
        file: item.file,
        status: item.status,
        ...(item.id ? { id: item.id } : {}),
        ...(item.remote ? { remoteRevision: item.remote.doc.draftRevision, updatedAt: item.remote.doc.updatedAt } : {}),
        ...(item.entry ? { manifestRevision: item.entry.draftRevision } : {}),
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
    if (!options.dryRun) {
      if (!sameContent || item.status === 'moved-remote') {
        const text = await remoteText(root, source, remote, type);
        const target = join(root, item.file);
        const current = existsSync(target) ? await readFile(target, 'utf8') : undefined;
        if (current !== text) {
          await mkdir(dirname(target), { recursive: true });
          await writeFileAtomic(target, text);
          action = current === undefined ? 'created file' : 'updated file';
        }
        if (item.status === 'moved-remote' && item.previousFile && item.previousFile !== item.file) {
          await rm(join(root, item.previousFile), { force: true });
          action = 'moved file';
        }
      }
      manifest.documents[remote.doc.documentId] = entryOf(remote);
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
  }
  return report;
}
