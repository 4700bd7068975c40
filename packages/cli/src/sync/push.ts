/**
 * `cms push`: sends local changes. Unchanged files (equal hash) cost no request; updates carry the
 * manifest's draftRevision, and a stale one stops that document only (reported as a conflict, exit 5);
 * deletions remove only documents the manifest tracks, after a confirmation, and a document changed on
 * the server since the last sync is never deleted.
 */
import { join } from 'node:path';
import { isApiError } from '../api/api-error.js';
import type { CmsApi, RemoteDocument } from '../api/cms-api.js';
import { mapLimit } from '../api/limiter.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { confirm } from '../cli/prompt.js';
import type { SyncItem } from './classify.js';
import { DEFAULT_LOCALE } from './file-naming.js';
import type { LocalFile } from './local-files.js';
import { writeFileAtomic } from './manifest.js';
import { ManifestWriter } from './manifest-writer.js';
import { entryOf, orderedFrontmatter, remoteText } from './pull.js';
import { countByStatus, loadSyncState, pathMatcher, remoteEntry, type SyncState } from './sync-state.js';

export interface PushOptions {
  dryRun?: boolean;
  force?: boolean;
  ours?: string[] | boolean;
  type?: string[];
}

export interface PushResult {
  file: string;
  status: string;
  outcome: 'created' | 'updated' | 'deleted' | 'skipped' | 'conflict' | 'failed' | 'planned';
  id?: string;
  code?: string;
  message?: string;
  previousFile?: string;
}

export interface PushReport {
  results: PushResult[];
  counts: Record<string, number>;
  summary: Record<PushResult['outcome'], number>;
  dryRun: boolean;
}

const PUSHABLE = new Set([
  'new-local',
  'changed-local',
  'moved-local',
  'deleted-local',
  'changed-both',
  'deleted-remote',
]);

function groupIdFor(state: SyncState, file: LocalFile): string | undefined {
  for (const entry of Object.values(state.manifest.documents)) {
    if (
      entry.type === file.key.type &&
      entry.path === file.key.path &&
      entry.locale !== file.key.locale &&
      entry.translationGroupId
    ) {
      return entry.translationGroupId;
    }
  }
  return undefined;
}

/** After a write, the server may have added defaults: bring them into the file so both sides agree. */
async function reconcile(state: SyncState, file: LocalFile, doc: RemoteDocument): Promise<void> {
  const type = state.typeByName.get(doc.type);
  const remote = remoteEntry(type ?? { name: doc.type, directory: '', localized: false, fields: {} }, doc);
  if (remote.hash !== file.hash && type) {
    await writeFileAtomic(join(state.root, file.diskName), await remoteText(state.root, file.diskName, remote, type));
  }
  state.manifest.documents[doc.documentId] = { ...entryOf(remote), file: file.file };
}

async function createDoc(api: CmsApi, state: SyncState, file: LocalFile): Promise<RemoteDocument> {
  const type = state.typeByName.get(file.key.type);
  const groupId = groupIdFor(state, file);
  return api.content.create(
    {
      type: file.key.type,
      path: file.key.path,
      ...(file.key.locale !== DEFAULT_LOCALE ? { locale: file.key.locale } : {}),
      format: file.key.format,
      frontmatter: orderedFrontmatter(type, file.frontmatter),
      body: file.body,
      ...(groupId ? { translationGroupId: groupId } : {}),
    },
    await state.schemaHash(),
  );
}

export async function push(ctx: Context, options: PushOptions): Promise<PushReport> {
  const state = await loadSyncState(ctx, { remote: false, ...(options.type ? { typeFilter: options.type } : {}) });
  const { manifest } = state;
  const ours = pathMatcher(options.ours);
  const items = state.items.filter((i) => PUSHABLE.has(i.status));
  const report: PushReport = {
    results: [],
    counts: countByStatus(state.items),
    summary: { created: 0, updated: 0, deleted: 0, skipped: 0, conflict: 0, failed: 0, planned: 0 },
    dryRun: Boolean(options.dryRun),
  };
  const record = (result: PushResult) => {
    report.results.push(result);
    report.summary[result.outcome]++;
  };
  if (options.dryRun) {
    for (const item of items)
      record({ file: item.file, status: item.status, outcome: 'planned', ...(item.id ? { id: item.id } : {}) });
    return report;
  }

  const deletions = items.filter((i) => i.status === 'deleted-local' || i.status === 'moved-local');
  const tracked = Object.keys(manifest.documents).length;
  let deletionsAllowed = true;
  const realDeletions = deletions.filter((d) => d.status === 'deleted-local');
  if (realDeletions.length > 0) {
    if (tracked >= 4 && realDeletions.length > tracked / 2 && !options.force) {
      throw new CliError(
        'MASS_DELETION',
        `${realDeletions.length} of the ${tracked} tracked files are gone; push would delete their documents.`,
        {
          exitCode: EXIT.cancelled,
          hint: 'Check that you are in the right folder (and on the right git branch); if this is intended, pass --force.',
          details: { files: realDeletions.map((d) => d.file) },
        },
      );
    }
    deletionsAllowed =
      Boolean(options.force) ||
      (await confirm(
        ctx.prompt,
        `Delete ${realDeletions.length} document(s) whose files are gone (${realDeletions
          .slice(0, 3)
          .map((d) => d.file)
          .join(', ')}${realDeletions.length > 3 ? ', …' : ''}) on the server?`,
        '--force',
      ));
  }

  const writer = new ManifestWriter(state.manifestFile, manifest);
  let done = 0;
  const run = async (item: SyncItem): Promise<void> => {
    try {
      await pushOne(state, item, { deletionsAllowed, ours: ours(item.file) }, record, writer);
    } catch (error) {
      if (isApiError(error)) {
        const conflict = error.code === 'CONFLICT';
        record({
          file: item.file,
          status: item.status,
          outcome: conflict ? 'conflict' : 'failed',
          code: error.code,
          message: error.message,
          ...(item.id ? { id: item.id } : {}),
        });
      } else if (error instanceof CliError && error.code === 'SERVER_UNREACHABLE') {
        throw error;
      } else {
        record({
          file: item.file,
          status: item.status,
          outcome: 'failed',
          code: 'INTERNAL',
          message: (error as Error).message,
        });
      }
    }
    ctx.out.progress('Pushing', ++done, items.length);
  };
  try {
    // Creations of translation siblings need the group id of the first: create default-locale files first.
    const creates = items.filter((i) => i.status === 'new-local');
    const others = items.filter((i) => i.status !== 'new-local');
    const firstOfGroup = new Map<string, SyncItem>();
    for (const item of creates) {
      const key = `${item.local?.key.type}\u0000${item.local?.key.path}`;
      if (!firstOfGroup.has(key) && !groupIdFor(state, item.local as LocalFile)) firstOfGroup.set(key, item);
    }
    const firsts = [...firstOfGroup.values()];
    const rest = creates.filter((i) => !firsts.includes(i));
    await mapLimit(firsts, ctx.concurrency, run);
    await mapLimit([...rest, ...others], ctx.concurrency, run);
  } finally {
    await writer.close();
  }
  return report;
}

async function pushOne(
  state: SyncState,
  item: SyncItem,
  flags: { deletionsAllowed: boolean; ours: boolean },
  record: (r: PushResult) => void,
  writer: ManifestWriter,
): Promise<void> {
  const { api, manifest } = state;
  const base = { file: item.file, status: item.status, ...(item.id ? { id: item.id } : {}) };
  if (item.status === 'deleted-remote') {
    record({ ...base, outcome: 'conflict', code: 'DELETED_REMOTELY', message: 'deleted on the server: run cms pull' });
    return;
  }
  if (item.status === 'new-local' && item.local) {
    const doc = await createDoc(api, state, item.local);
    await reconcile(state, item.local, doc);
    writer.changed();
    record({ ...base, id: doc.documentId, outcome: 'created' });
    return;
  }
  if ((item.status === 'changed-local' || item.status === 'changed-both') && item.local && item.entry) {
    let revision = item.entry.draftRevision;
    if (flags.ours) revision = (await api.content.get(item.entry.id)).draftRevision;
    const type = state.typeByName.get(item.entry.type);
    const doc = await api.content.update(
      item.entry.id,
      { frontmatter: orderedFrontmatter(type, item.local.frontmatter), body: item.local.body, draftRevision: revision },
      await state.schemaHash(),
    );
    await reconcile(state, item.local, doc);
    writer.changed();
    record({ ...base, outcome: 'updated' });
    return;
  }
  if (item.status === 'deleted-local' || item.status === 'moved-local') {
    const entry = item.entry;
    if (!entry) return;
    if (item.status === 'moved-local' && item.local) {
      // The API has no path change: the moved file becomes a new document, the old one is deleted.
      const doc = await createDoc(api, state, item.local);
      await reconcile(state, item.local, doc);
      writer.changed();
      record({
        ...base,
        id: doc.documentId,
        outcome: 'created',
        ...(item.previousFile ? { previousFile: item.previousFile } : {}),
      });
    } else if (!flags.deletionsAllowed) {
      record({ ...base, outcome: 'skipped', message: 'deletion declined' });
      return;
    }
    const current = await api.content.get(entry.id).catch((error) => {
      if (isApiError(error) && error.status === 404) return undefined;
      throw error;
    });
    if (current && current.draftRevision !== entry.draftRevision && !flags.ours) {
      record({
        ...base,
        outcome: 'conflict',
        code: 'CONFLICT',
        message: `changed on the server since the last sync (revision ${entry.draftRevision} → ${current.draftRevision}); not deleted`,
      });
      return;
    }
    if (current) await api.content.delete(entry.id);
    delete manifest.documents[entry.id];
    writer.changed();
    if (item.status === 'deleted-local') record({ ...base, outcome: 'deleted' });
    return;
  }
  record({ ...base, outcome: 'skipped' });
}
