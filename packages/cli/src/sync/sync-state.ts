/**
 * Gathers the three sides of a sync (manifest, files, server) and classifies them. The schema's
 * types come from the config (the environment's effective schema), else from the server.
 */
import type { SchemaType } from '@cms/core';
import type { CmsApi, RemoteDocument } from '../api/cms-api.js';
import { mapLimit } from '../api/limiter.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT } from '../cli/exit-codes.js';
import { closestNames } from '../cli/suggest.js';
import { classify, type RemoteEntry, type SyncItem } from './classify.js';
import { contentHash } from './content-hash.js';
import { fileNameOf, parseFileName } from './file-naming.js';
import { type LocalFile, scanLocalFiles } from './local-files.js';
import { type Manifest, manifestPath, readManifest } from './manifest.js';

export interface SyncState {
  api: CmsApi;
  root: string;
  manifestFile: string;
  manifest: Manifest;
  types: SchemaType[];
  typeByName: Map<string, SchemaType>;
  /** The server's schema hash, asked once when a write needs it. */
  schemaHash(): Promise<string>;
  local: LocalFile[];
  remote: RemoteEntry[] | undefined;
  items: SyncItem[];
  defaultLocale: string | undefined;
}

export function remoteEntry(type: SchemaType, doc: RemoteDocument): RemoteEntry {
  return { doc, file: fileNameOf(type, doc), hash: contentHash(doc.frontmatter ?? {}, doc.body ?? '', doc.format) };
}

export async function loadSyncState(
  ctx: Context,
  options: { remote: boolean; published?: boolean; typeFilter?: string[] },
): Promise<SyncState> {
  const { serverUrl, project, environment } = ctx.target();
  const api = await ctx.api();
  const root = ctx.config?.contentRoot ?? ctx.cwd;
  const manifestFile = manifestPath(ctx.config?.dir ?? ctx.cwd, project, environment);
  const manifest = await readManifest(manifestFile, { project, environment, serverUrl });
  // With a config and nothing to read remotely, the server is not asked anything until a write needs it.
  let server: Promise<{ types: SchemaType[]; schemaHash: string }> | undefined;
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
  const typeByName = new Map(types.map((t) => [t.name, t]));
  const defaultLocale = ctx.config?.locales[0];
  const scanned = await scanLocalFiles(root, selected, defaultLocale);
  if (scanned.errors.length > 0) {
    throw new CliError(
      'FRONTMATTER_INVALID',
      `Cannot read the frontmatter of ${scanned.errors.length} file(s):\n${scanned.errors
        .map((e) => `  ${e.file}${e.line ? `:${e.line}` : ''}: ${e.message}`)
        .join('\n')}`,
      { hint: 'Fix the YAML between the --- lines and run the command again.', details: { files: scanned.errors } },
    );
  }
  let remote: RemoteEntry[] | undefined;
  if (options.remote) {
    ctx.out.progress('Reading the server', 0, selected.length);
    let done = 0;
    const lists = await mapLimit(selected, Math.min(4, ctx.concurrency), async (type) => {
      const docs = await api.content.listAll(type.name, { published: Boolean(options.published) });
      ctx.out.progress('Reading the server', ++done, selected.length);
      return docs.map((doc) => remoteEntry(type, doc));
    });
    remote = lists.flat().map((entry) => keepTrackedName(entry, manifest, selected, defaultLocale));
  }
  const selectedNames = new Set(selected.map((t) => t.name));
  const entries = Object.values(manifest.documents).filter((e) => selectedNames.has(e.type));
  const items = classify({ entries, local: scanned.files, ...(remote ? { remote } : {}) });
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
  };
}

/**
 * A tracked document keeps the file name it has when that name means the same document (a file of
 * the default locale may omit its locale suffix): only a real change of path or locale is a move.
 */
function keepTrackedName(
  entry: RemoteEntry,
  manifest: Manifest,
  types: readonly SchemaType[],
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
