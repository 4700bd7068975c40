/**
 * Gathers the three sides of a sync (manifest, files, server) and classifies them. The schema's
 * types come from the config (the environment's effective schema), else from the server.
 */
import type { CmsApi } from '../api/cms-api.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { closestNames } from '../cli/suggest.js';
import { BaseStore } from './base-store.js';
import { classify, type RemoteEntry, type SyncItem } from './classify.js';
import { type FileType, fileNameOf, parseFileName } from './file-naming.js';
import { type LocalFile, type StatCache, scanLocalFiles } from './local-files.js';
import { type Manifest, manifestPath, readManifest } from './manifest.js';
import { assertDistinctPaths, assertFreeOnServer, type PlaceOf } from './path-collisions.js';
import { readRemote, readServerPaths } from './remote-state.js';
import { TranslationGroups } from './translation-groups.js';

export interface SyncState {
  api: CmsApi;
  root: string;
  manifestFile: string;
  manifest: Manifest;
  types: FileType[];
  typeByName: Map<string, FileType>;
  /** The server's schema hash, asked once when a write needs it. */
  schemaHash(): Promise<string>;
  local: LocalFile[];
  remote: RemoteEntry[] | undefined;
  items: SyncItem[];
  defaultLocale: string | undefined;
  /** The texts of the last sync (bases of diffs and merges). */
  bases: BaseStore;
  /** Translation groups of the tracked documents, by type and path (kept current by writes). */
  groups: TranslationGroups;
  /** True when the scan learned stats for the manifest's stat cache (worth writing the manifest). */
  statsLearned: boolean;
}

export { remoteEntry } from './remote-state.js';

export async function loadSyncState(
  ctx: Context,
  options: { remote: boolean; published?: boolean; typeFilter?: string[]; preflight?: boolean },
): Promise<SyncState> {
  const { serverUrl, project, environment } = ctx.target();
  const api = await ctx.api();
  const root = ctx.config?.contentRoot ?? ctx.cwd;
  const manifestFile = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
  const manifest = await readManifest(manifestFile, { project, environment, serverUrl });
  // With a config and nothing to read remotely, the server is not asked anything until a write needs it.
  let server: Promise<{ types: FileType[]; schemaHash: string }> | undefined;
  const serverSchema = () => {
    server ??= api.schema.get();
    return server;
  };
  const types = ctx.config ? ctx.config.localTypes(environment) : (await serverSchema()).types;
  if (types.length === 0) {
    throw new CliError('NO_TYPES', 'No content types: neither the config nor the server defines any.', {
      exitCode: EXIT.usage,
      hint: 'Define types in cms.config.ts and run `cms schema sync`, or run `cms init`.',
    });
  }
  const selected = options.typeFilter?.length ? types.filter((t) => options.typeFilter?.includes(t.name)) : types;
  const selectedNames = new Set(selected.map((t) => t.name));
  const typeByName = new Map(types.map((t) => [t.name, t]));
  const defaultLocale = ctx.config?.locales[0];
  // Every type's files are named (the longest type directory wins, and paths are unique across
  // types); only the selected types' files are read.
  const scanned = await scanLocalFiles(root, types, defaultLocale, statCacheOf(manifest), selectedNames);
  const statsLearned = learnStats(manifest, scanned.files);
  const unresolved = scanned.errors.filter((e) => e.markers);
  if (unresolved.length > 0) {
    throw new CliError(
      'UNRESOLVED_CONFLICT',
      `${unresolved.length} file(s) still hold conflict markers:\n${unresolved.map((e) => `  ${e.file}:${e.line}`).join('\n')}`,
      {
        exitCode: EXIT.conflict,
        hint: 'Edit each file to keep what it should say between <<<<<<< local and >>>>>>> server (markers removed), then run the command again; to take the server version instead, delete the file and run `cms pull --theirs <path>`.',
        details: { files: unresolved.map((e) => ({ file: e.file, line: e.line })) },
      },
    );
  }
  if (scanned.errors.length > 0) {
    throw new CliError(
      'FRONTMATTER_INVALID',
      `Cannot read the frontmatter of ${scanned.errors.length} file(s):\n${scanned.errors
        .map((e) => `  ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`)
        .join('\n')}`,
      { hint: 'Fix the YAML between the --- lines and run the command again.', details: { files: scanned.errors } },
    );
  }
  // Two files that would be one document, whatever their types: refused before anything is sent.
  if (options.preflight) assertDistinctPaths([...scanned.files, ...scanned.named]);
  let remote: RemoteEntry[] | undefined;
  if (options.remote) {
    const lists = await readRemote(ctx, api, manifest, selected, { published: Boolean(options.published) });
    remote = lists.map((entry) => keepTrackedName(entry, manifest, selected, defaultLocale));
  }
  const entries = Object.values(manifest.documents).filter((e) => selectedNames.has(e.type));
  const items = classify({ entries, local: scanned.files, ...(remote ? { remote } : {}) });
  if (options.preflight) {
    const present = new Set([...scanned.files, ...scanned.named].map((f) => f.file));
    await assertPathsFreeOnServer(api, items, placeOn(manifest, typeByName, present));
  }
  return {
    api,
    root,
    manifestFile,
    manifest,
    types,
    typeByName,
    schemaHash: async () => (await serverSchema()).schemaHash,
    local: scanned.files,
    remote,
    items,
    defaultLocale,
    statsLearned,
    groups: new TranslationGroups(Object.values(manifest.documents)),
    bases: BaseStore.of(manifestFile),
  };
}

/**
 * The preflight against the server: a file that would take a path (new, or moved) must not take the
 * path and locale of another document there, of any type. One digest request, only when a file would.
 */
async function assertPathsFreeOnServer(api: CmsApi, items: readonly SyncItem[], placeOf: PlaceOf): Promise<void> {
  const claims = items.flatMap((item) =>
    (item.status === 'new-local' || item.status === 'moved-local') && item.local
      ? [{ file: item.file, key: item.local.key, ...(item.id ? { id: item.id } : {}) }]
      : [],
  );
  if (claims.length === 0) return;
  const documents = await readServerPaths(api);
  if (documents) assertFreeOnServer(claims, documents, placeOf);
}

/** Where a server document is here: its tracked file (gone or not), else the file a pull would write. */
function placeOn(manifest: Manifest, typeByName: ReadonlyMap<string, FileType>, present: ReadonlySet<string>): PlaceOf {
  return (doc) => {
    const tracked = manifest.documents[doc.documentId];
    if (tracked) return { file: tracked.file, gone: !present.has(tracked.file) };
    const type = typeByName.get(doc.type);
    return type ? { file: fileNameOf(type, doc) } : {};
  };
}

/** A file's size and mtime are trusted only when older than this (an edit within the clock's tick). */
const RACY_MS = 2000;

function statCacheOf(manifest: Manifest): StatCache {
  const cache = new Map<string, { size: number; mtimeMs: number; hash: string }>();
  for (const entry of Object.values(manifest.documents)) {
    if (entry.stat) cache.set(entry.file, { ...entry.stat, hash: entry.hash });
  }
  return cache;
}

/** Records the stat of each file read whose content is the manifest's: the next scan need not read it. */
function learnStats(manifest: Manifest, files: readonly LocalFile[], now = Date.now()): boolean {
  const byFile = new Map(Object.values(manifest.documents).map((e) => [e.file, e]));
  let learned = false;
  for (const file of files) {
    if (file.cached || !file.stat) continue;
    const entry = byFile.get(file.file);
    if (!entry || entry.hash !== file.hash || now - file.stat.mtimeMs < RACY_MS) continue;
    if (entry.stat?.size === file.stat.size && entry.stat.mtimeMs === file.stat.mtimeMs) continue;
    entry.stat = { size: file.stat.size, mtimeMs: file.stat.mtimeMs };
    learned = true;
  }
  return learned;
}

/**
 * A tracked document keeps the file name it has when that name means the same document (a file of
 * the default locale may omit its locale suffix): only a real change of path or locale is a move.
 */
function keepTrackedName(
  entry: RemoteEntry,
  manifest: Manifest,
  types: readonly FileType[],
  defaultLocale: string | undefined,
): RemoteEntry {
  const tracked = manifest.documents[entry.doc.documentId];
  if (!tracked || tracked.file === entry.file) return entry;
  const key = parseFileName(tracked.file, types, defaultLocale);
  const { doc } = entry;
  if (key && key.type === doc.type && key.path === doc.path && key.locale === doc.locale && key.format === doc.format) {
    return { ...entry, file: tracked.file };
  }
  return entry;
}

/** The counts by status, for summaries. */
export function countByStatus(items: readonly SyncItem[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.status] = (counts[item.status] ?? 0) + 1;
  return counts;
}

/** A path matcher for --theirs/--ours: no paths means all; a path matches its file or any file under it. */
export function pathMatcher(paths: string[] | boolean | undefined): (file: string) => boolean {
  if (paths === undefined || paths === false) return () => false;
  if (paths === true || paths.length === 0) return () => true;
  const wanted = paths.map((p) => p.normalize('NFC').replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, ''));
  // '' is the content root itself (`--theirs .`): every file.
  return (file) => wanted.some((p) => p === '' || file === p || file.startsWith(`${p}/`));
}

/**
 * Each path given to --theirs/--ours must name a document file or a folder of them (tracked, here
 * or on the server): a typo would otherwise resolve nothing and leave the conflict as it was.
 */
export function assertKnownPaths(
  flag: '--theirs' | '--ours',
  paths: string[] | boolean | undefined,
  items: readonly SyncItem[],
): void {
  if (!Array.isArray(paths) || paths.length === 0) return;
  const files = new Set(items.flatMap((i) => (i.previousFile ? [i.file, i.previousFile] : [i.file])));
  const unknown = paths.filter((path) => ![...files].some(pathMatcher([path])));
  if (unknown.length === 0) return;
  const folders = [...files].flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  );
  const near = unknown.flatMap((path) => closestNames(path, [...files, ...folders]));
  throw new CliError(
    'UNKNOWN_PATH',
    `${flag} ${unknown.join(' ')}: no document file is at ${unknown.length === 1 ? 'this path' : 'these paths'} or under ${unknown.length === 1 ? 'it' : 'them'}.`,
    {
      exitCode: EXIT.usage,
      hint: `${near.length > 0 ? `Did you mean ${near.join(', ')}? ` : ''}Paths are files or folders relative to this folder; \`cms status\` lists the documents.`,
      details: { flag, paths: unknown },
    },
  );
}
