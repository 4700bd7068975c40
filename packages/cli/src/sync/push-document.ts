/**
 * One document of `cms push` at a time: create, update (with the manifest's revision, or the
 * server's with --ours), delete; bringing the server's answer (its defaults) into the file; and
 * recording what could not be pushed as a conflict or a failure.
 */

import { join } from 'node:path';
import { isCmsError } from '@cms/sdk';
import type { CmsApi, RemoteDocument } from '../api/cms-api.js';
import { CliError } from '../cli/exit-codes.js';
import type { SyncItem } from './classify.js';
import { DEFAULT_LOCALE } from './file-naming.js';
import { type LocalFile, readLocalText } from './local-files.js';
import { writeFileAtomic } from './manifest.js';
import type { ManifestWriter } from './manifest-writer.js';
import { entryOf, orderedFrontmatter, remoteText } from './pull-text.js';
import { remoteEntry, type SyncState } from './sync-state.js';
import { diffsOf, mergeSides, type SideDiffs } from './three-way.js';

export interface PushResult {
  file: string;
  status: string;
  outcome: 'created' | 'updated' | 'deleted' | 'skipped' | 'conflict' | 'failed' | 'planned';
  id?: string;
  code?: string;
  message?: string;
  previousFile?: string;
  /** A conflict's sides against the base (unified diffs). */
  diff?: SideDiffs;
  /** Whether `cms pull` would merge a conflict cleanly. */
  merge?: 'clean' | 'conflict';
}

export function groupIdFor(state: SyncState, file: LocalFile): string | undefined {
  return state.groups.groupFor(file.key);
}

/** After a write, the server may have added defaults: bring them into the file so both sides agree. */
export async function reconcile(state: SyncState, file: LocalFile, doc: RemoteDocument): Promise<void> {
  const type = state.typeByName.get(doc.type);
  const remote = remoteEntry(type ?? { name: doc.type, directory: '', localized: false, fields: {} }, doc);
  let text = file.text;
  if (remote.hash !== file.hash && type) {
    text = await remoteText(state.root, file.diskName, remote, type);
    await writeFileAtomic(join(state.root, file.diskName), text);
  }
  // The file's text now is what the server has: the base of later diffs and merges.
  const entry = { ...entryOf(remote), file: file.file, base: state.bases.put(text) };
  state.manifest.documents[doc.documentId] = entry;
  state.groups.record(entry);
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
      source: file.text,
      ...(groupId ? { translationGroupId: groupId } : {}),
    },
    await state.schemaHash(),
  );
}

/**
 * Records a document that could not be pushed. A stale revision whose server draft already holds
 * exactly this file (a push interrupted after the server wrote it) is no conflict: the manifest
 * takes the server's revision and nothing is sent.
 */
export async function recordFailure(
  state: SyncState,
  item: SyncItem,
  error: unknown,
  record: (r: PushResult) => void,
  writer: ManifestWriter,
): Promise<void> {
  const base = { file: item.file, status: item.status, ...(item.id ? { id: item.id } : {}) };
  if (error instanceof CliError && error.code === 'SERVER_UNREACHABLE') throw error;
  if (error instanceof CliError) {
    // A late batch the server had not shown as applied after --wait (OPERATION_PENDING): it may still be.
    record({ ...base, outcome: 'failed', code: error.code, message: `${error.message} ${error.hint ?? ''}`.trim() });
    return;
  }
  if (!isCmsError(error)) {
    record({ ...base, outcome: 'failed', code: 'INTERNAL', message: (error as Error).message });
    return;
  }
  const edited = item.status === 'changed-local' || item.status === 'changed-both';
  if (error.status === 404 && edited && item.entry) {
    // Push does not read the server first: an update of a document deleted there since the last sync.
    record({
      ...base,
      outcome: 'conflict',
      code: 'DELETED_REMOTELY',
      message: 'deleted on the server since the last sync; not created again',
    });
    return;
  }
  let message = error.message;
  // The server's message names the first invalid field "(and 2 more)"; its details name them all.
  const fields = (error.details as { fields?: Record<string, string> }).fields;
  if (error.code === 'INVALID_INPUT' && fields && Object.keys(fields).length > 0) {
    message = Object.entries(fields)
      .map(([path, problem]) => `${path.replace(/^frontmatter\./, '')}: ${problem}`)
      .join('; ');
  }
  if (error.code === 'CONFLICT' && item.local && item.entry && item.status !== 'deleted-local') {
    const current = await state.api.content.get(item.entry.id).catch(() => undefined);
    const type = state.typeByName.get(item.entry.type);
    // The server's wording ("fetch it again and reapply") is for API callers; say it in sync terms.
    message = `changed on the server since the last sync (server revision ${current?.draftRevision ?? 'newer'}, last synced ${item.entry.draftRevision}); not overwritten`;
    if (current && type && remoteEntry(type, current).hash === item.local.hash) {
      await reconcile(state, item.local, current);
      writer.changed();
      record({
        ...base,
        outcome: 'skipped',
        message: `already on the server (revision ${current.draftRevision}); recorded in the manifest`,
      });
      return;
    }
    // Both sides as diffs against the base; edits that do not overlap are merged and sent.
    if (current && type) {
      const remote = remoteEntry(type, current);
      const sides = {
        base: await state.bases.get(item.entry.base),
        local: item.local.text,
        server: await remoteText(state.root, undefined, remote, type),
        remote,
        fields: type.fields,
      };
      const merged = mergeSides(sides);
      if (merged?.clean) {
        try {
          await pushMerge(state, item, current, merged.text, record, writer);
          return;
        } catch (again) {
          // Moved on again, or refused: reported as such, the file as it was.
          if (!isCmsError(again)) throw again;
          message = `merged with the server's revision ${current.draftRevision}, but not sent: ${again.message}`;
        }
      }
      const merge = merged ? (merged.clean ? 'clean' : 'conflict') : undefined;
      record({
        ...base,
        outcome: 'conflict',
        code: error.code,
        message,
        diff: diffsOf(item.file, sides),
        ...(merge ? { merge } : {}),
      });
      return;
    }
  }
  record({ ...base, outcome: error.code === 'CONFLICT' ? 'conflict' : 'failed', code: error.code, message });
}

/**
 * A file changed on both sides whose edits do not overlap: the three-way merge (the local text with
 * the server's changes patched in, as `cms pull` writes it) is sent against the server's current
 * revision, then written into the file, which becomes the new base.
 */
async function pushMerge(
  state: SyncState,
  item: SyncItem,
  current: RemoteDocument,
  text: string,
  record: (r: PushResult) => void,
  writer: ManifestWriter,
): Promise<void> {
  const local = item.local as LocalFile;
  const entry = item.entry as NonNullable<SyncItem['entry']>;
  const merged = readLocalText(local.file, local.diskName, local.key, text);
  const type = state.typeByName.get(entry.type);
  const doc = await state.api.content.update(
    entry.id,
    {
      frontmatter: orderedFrontmatter(type, merged.frontmatter),
      body: merged.body,
      source: text,
      draftRevision: current.draftRevision,
    },
    await state.schemaHash(),
  );
  await writeFileAtomic(join(state.root, local.diskName), text);
  await reconcile(state, merged, doc);
  writer.changed();
  record({
    file: item.file,
    status: item.status,
    id: entry.id,
    outcome: 'updated',
    merge: 'clean',
    message: `merged with the server's changes (revision ${current.draftRevision})`,
  });
}

export async function pushOne(
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
    if (flags.ours) {
      const current = await api.content.get(item.entry.id).catch((error) => {
        if (isCmsError(error) && error.status === 404) return undefined;
        throw error;
      });
      if (!current) {
        // --ours on a document deleted on the server: the file wins, as a new document.
        const doc = await createDoc(api, state, item.local);
        delete manifest.documents[item.entry.id];
        state.groups.forget(item.entry);
        await reconcile(state, item.local, doc);
        writer.changed();
        record({ ...base, id: doc.documentId, outcome: 'created', message: 'deleted on the server; created again' });
        return;
      }
      revision = current.draftRevision;
    }
    const type = state.typeByName.get(item.entry.type);
    const doc = await api.content.update(
      item.entry.id,
      {
        frontmatter: orderedFrontmatter(type, item.local.frontmatter),
        body: item.local.body,
        source: item.local.text,
        draftRevision: revision,
      },
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
      if (isCmsError(error) && error.status === 404) return undefined;
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
    state.groups.forget(entry);
    writer.changed();
    if (item.status === 'deleted-local') record({ ...base, outcome: 'deleted' });
    return;
  }
  record({ ...base, outcome: 'skipped' });
}
