/**
 * The server side of a sync, read local-first: one digest request lists every live document with
 * its draft revision and no content; a document whose revision (and key) is the manifest's is
 * unchanged since the last sync and keeps the manifest's hash; only the others are fetched with
 * their content (one by one when few, by pages of their types when many). On 10,000 unchanged
 * documents that is one request of revisions instead of 10,000 bodies.
 */
import type { DigestEntry } from '@cms/core';
import { isCmsError } from '@cms/sdk';
import type { CmsApi, RemoteDocument } from '../api/cms-api.js';
import { mapLimit } from '../api/limiter.js';
import type { Context } from '../cli/context.js';
import type { RemoteEntry } from './classify.js';
import { contentHash } from './content-hash.js';
import { type FileType, fileNameOf } from './file-naming.js';
import type { Manifest } from './manifest.js';

/** Above this many documents to fetch in one type, its pages are read instead of one request each. */
const FETCH_ONE_BY_ONE = 50;

export function remoteEntry(type: FileType, doc: RemoteDocument): RemoteEntry {
  return { doc, file: fileNameOf(type, doc), hash: contentHash(doc.frontmatter ?? {}, doc.body ?? '', doc.format) };
}

/** The content of a summary entry (from the digest), fetched when a caller must write it. */
export async function withContent(api: CmsApi, entry: RemoteEntry, type: FileType): Promise<RemoteEntry> {
  if (!entry.summary) return entry;
  const full = remoteEntry(type, await api.content.get(entry.doc.documentId));
  return { ...full, file: entry.file };
}

/** Whether the manifest's record still describes this server document (same revision, same key). */
function unchangedSinceSync(manifest: Manifest, row: DigestEntry): boolean {
  const tracked = manifest.documents[row.documentId];
  return (
    tracked !== undefined &&
    tracked.draftRevision === row.draftRevision &&
    tracked.type === row.type &&
    tracked.path === row.path &&
    tracked.locale === row.locale &&
    tracked.format === row.format
  );
}

/** A digest row as a remote entry: its content is the manifest's (the hash), not at hand. */
function summaryEntry(type: FileType, row: DigestEntry, hash: string): RemoteEntry {
  const doc = row as unknown as RemoteDocument;
  return { doc, file: fileNameOf(type, row), hash, summary: true };
}

async function listAllEntries(ctx: Context, api: CmsApi, types: readonly FileType[], published: boolean) {
  let done = 0;
  ctx.out.progress('Reading the server', 0, types.length);
  const lists = await mapLimit([...types], Math.min(4, ctx.concurrency), async (type) => {
    const docs = await api.content.listAll(type.name, { published });
    ctx.out.progress('Reading the server', ++done, types.length);
    return docs.map((doc) => remoteEntry(type, doc));
  });
  return lists.flat();
}

/**
 * Every live document of the server, every type (paths are unique across all of them), without
 * content; undefined from a server without the digest route, or for a key that may not read drafts:
 * the server then refuses a taken path itself.
 */
export async function readServerPaths(api: CmsApi): Promise<DigestEntry[] | undefined> {
  try {
    return await api.content.digest();
  } catch (error) {
    if (isCmsError(error) && (error.status === 403 || error.status === 404 || error.status === 405)) return undefined;
    throw error;
  }
}

/** The server's documents of `types` as remote entries (drafts, or published content). */
export async function readRemote(
  ctx: Context,
  api: CmsApi,
  manifest: Manifest,
  types: readonly FileType[],
  options: { published: boolean },
): Promise<RemoteEntry[]> {
  // Published content is not what the manifest records (drafts): read it whole.
  if (options.published || types.length === 0) return listAllEntries(ctx, api, types, options.published);
  let rows: DigestEntry[];
  try {
    rows = await api.content.digest(types.map((t) => t.name));
  } catch (error) {
    // A server without the digest route: every document with its content, as before it existed.
    if (isCmsError(error) && (error.status === 405 || (error.status === 404 && error.code === 'NOT_FOUND'))) {
      return listAllEntries(ctx, api, types, false);
    }
    throw error;
  }
  const typeByName = new Map(types.map((t) => [t.name, t]));
  const entries: RemoteEntry[] = [];
  const stale = new Map<string, DigestEntry[]>();
  for (const row of rows) {
    const type = typeByName.get(row.type);
    if (!type) continue;
    const tracked = manifest.documents[row.documentId];
    if (tracked && unchangedSinceSync(manifest, row)) entries.push(summaryEntry(type, row, tracked.hash));
    else {
      const list = stale.get(row.type);
      if (list) list.push(row);
      else stale.set(row.type, [row]);
    }
  }
  const total = [...stale.values()].reduce((n, list) => n + list.length, 0);
  let done = 0;
  if (total > 0) ctx.out.progress('Reading changed documents', 0, total);
  for (const [name, list] of stale) {
    const type = typeByName.get(name) as FileType;
    if (list.length > FETCH_ONE_BY_ONE) {
      const wanted = new Set(list.map((row) => row.documentId));
      const docs = await api.content.listAll(name, { published: false });
      for (const doc of docs) if (wanted.has(doc.documentId)) entries.push(remoteEntry(type, doc));
      done += list.length;
      ctx.out.progress('Reading changed documents', done, total);
      continue;
    }
    const fetched = await mapLimit(list, ctx.concurrency, async (row) => {
      const doc = await api.content.get(row.documentId).catch((error: unknown) => {
        // Deleted between the digest and this read: it is gone, as the next digest will say.
        if (isCmsError(error) && error.status === 404) return undefined;
        throw error;
      });
      ctx.out.progress('Reading changed documents', ++done, total);
      return doc ? remoteEntry(type, doc) : undefined;
    });
    for (const entry of fetched) if (entry) entries.push(entry);
  }
  return entries;
}
