/**
 * Classification of every document against three sides: the manifest (last sync), the files and
 * the server. Pure: the commands decide what to do with each class.
 */
import type { RemoteDocument } from '../api/cms-api.js';
import type { LocalFile } from './local-files.js';
import type { ManifestEntry } from './manifest.js';

export interface RemoteEntry {
  doc: RemoteDocument;
  file: string;
  hash: string;
  /**
   * True when only the digest was read (unchanged since the last sync: the hash is the manifest's):
   * `doc` has the key and revisions but no content; `withContent` fetches it.
   */
  summary?: boolean;
}

export type SyncStatus =
  | 'unchanged'
  | 'new-remote'
  | 'new-local'
  | 'changed-remote'
  | 'changed-local'
  | 'changed-both'
  | 'moved-remote'
  | 'moved-local'
  | 'deleted-remote'
  | 'deleted-local';

export interface SyncItem {
  status: SyncStatus;
  /** True when both sides changed the document: nothing is overwritten without --theirs/--ours. */
  conflict: boolean;
  /** The file the document lives in now (local side), or will live in. */
  file: string;
  previousFile?: string;
  id?: string;
  entry?: ManifestEntry;
  local?: LocalFile;
  remote?: RemoteEntry;
}

export interface ClassifyInput {
  entries: readonly ManifestEntry[];
  local: readonly LocalFile[];
  /** Undefined when the server was not asked (push plans from the manifest alone). */
  remote?: readonly RemoteEntry[];
}

export function classify({ entries, local, remote }: ClassifyInput): SyncItem[] {
  const items: SyncItem[] = [];
  const localByFile = new Map(local.map((file) => [file.file, file]));
  const remoteById = new Map((remote ?? []).map((entry) => [entry.doc.documentId, entry]));
  const claimedFiles = new Set<string>();
  const claimedIds = new Set<string>();
  const missing: ManifestEntry[] = [];

  for (const entry of entries) {
    claimedIds.add(entry.id);
    const file = localByFile.get(entry.file);
    const server = remote ? remoteById.get(entry.id) : undefined;
    if (file) claimedFiles.add(entry.file);
    const localChanged = file ? file.hash !== entry.hash : true;
    const remoteGone = remote !== undefined && !server;
    const remoteChanged = server ? server.hash !== entry.hash || server.file !== entry.file : false;
    const base = { id: entry.id, entry, ...(file ? { local: file } : {}), ...(server ? { remote: server } : {}) };
    if (!file) {
      missing.push(entry);
      continue;
    }
    if (remoteGone) {
      items.push({ ...base, status: 'deleted-remote', conflict: localChanged, file: entry.file });
    } else if (server && server.hash === file.hash && server.file === entry.file) {
      // Both sides hold the same content (or nothing changed): only bookkeeping may differ.
      items.push({ ...base, status: 'unchanged', conflict: false, file: entry.file });
    } else if (localChanged && remoteChanged) {
      items.push({ ...base, status: 'changed-both', conflict: true, file: entry.file });
    } else if (remoteChanged && server && server.file !== entry.file) {
      items.push({ ...base, status: 'moved-remote', conflict: false, file: server.file, previousFile: entry.file });
    } else if (remoteChanged) {
      items.push({ ...base, status: 'changed-remote', conflict: false, file: entry.file });
    } else if (localChanged) {
      items.push({ ...base, status: 'changed-local', conflict: false, file: entry.file });
    } else {
      items.push({ ...base, status: 'unchanged', conflict: false, file: entry.file });
    }
  }

  // Untracked files: a missing entry's exact content elsewhere is a local move, else a new file.
  const untracked = local.filter((file) => !claimedFiles.has(file.file));
  const untrackedByHash = new Map<string, LocalFile[]>();
  for (const file of untracked) untrackedByHash.set(file.hash, [...(untrackedByHash.get(file.hash) ?? []), file]);
  const moved = new Set<string>();
  for (const entry of missing) {
    const server = remote ? remoteById.get(entry.id) : undefined;
    const remoteGone = remote !== undefined && !server;
    const remoteChanged = server ? server.hash !== entry.hash || server.file !== entry.file : false;
    const candidates = (untrackedByHash.get(entry.hash) ?? []).filter(
      (file) => !moved.has(file.file) && file.key.type === entry.type,
    );
    const target = candidates[0];
    const base = { id: entry.id, entry, ...(server ? { remote: server } : {}) };
    if (remoteGone) {
      // Gone on both sides: only the manifest entry is left to drop.
      items.push({ ...base, status: 'deleted-remote', conflict: false, file: entry.file });
    } else if (target) {
      moved.add(target.file);
      items.push({
        ...base,
        local: target,
        status: 'moved-local',
        conflict: remoteChanged,
        file: target.file,
        previousFile: entry.file,
      });
    } else {
      items.push({ ...base, status: 'deleted-local', conflict: remoteChanged, file: entry.file });
    }
  }

  const remoteByFile = new Map<string, RemoteEntry>();
  for (const entry of remote ?? []) if (!claimedIds.has(entry.doc.documentId)) remoteByFile.set(entry.file, entry);
  for (const file of untracked) {
    if (moved.has(file.file)) continue;
    const server = remoteByFile.get(file.file);
    if (server) {
      remoteByFile.delete(file.file);
      const same = server.hash === file.hash;
      items.push({
        status: same ? 'unchanged' : 'changed-both',
        conflict: !same,
        file: file.file,
        id: server.doc.documentId,
        local: file,
        remote: server,
      });
    } else {
      items.push({ status: 'new-local', conflict: false, file: file.file, local: file });
    }
  }
  for (const server of remoteByFile.values()) {
    items.push({ status: 'new-remote', conflict: false, file: server.file, id: server.doc.documentId, remote: server });
  }
  return items.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
