/**
 * The manifest `.cms/<project>.<environment>.json`: per document id, file, type, path, locale,
 * draftRevision, publishedVersion and the content hash at the last sync. Written atomically
 * (temp file + rename, retried on Windows EPERM/EBUSY).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DEFAULT_LOCALE } from './file-naming.js';

export interface ManifestEntry {
  id: string;
  file: string;
  type: string;
  path: string;
  /**
   * The document's locale. For a type that is not localized it is the server's internal
   * `__cms_default__` here, and left out of the file (manifests written before recorded it).
   */
  locale: string;
  format: 'md' | 'mdx';
  translationGroupId?: string;
  draftRevision: number;
  publishedVersion: number | null;
  hash: string;
  /**
   * The stat cache: the file's size and mtime when its content was last seen to have `hash`. While
   * both match, commands trust the hash without reading the file.
   */
  stat?: { size: number; mtimeMs: number };
  /**
   * The base: the name of the file's text at the last sync in the base store (base-store.ts), the
   * common ancestor of a three-way merge and what `cms status --diff` compares with.
   */
  base?: string;
}

export interface Manifest {
  version: 1;
  project: string;
  environment: string;
  serverUrl: string;
  schemaHash: string | null;
  documents: Record<string, ManifestEntry>;
}

export function manifestPath(root: string, project: string, environment: string): string {
  return join(root, '.cms', `${project}.${environment}.json`);
}

export async function readManifest(
  file: string,
  fallback: Omit<Manifest, 'documents' | 'version' | 'schemaHash'>,
): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Manifest;
    const documents: Record<string, ManifestEntry> = {};
    for (const [id, entry] of Object.entries(parsed.documents ?? {})) {
      documents[id] = { ...entry, locale: entry.locale ?? DEFAULT_LOCALE };
    }
    return { ...parsed, documents };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return { version: 1, schemaHash: null, documents: {}, ...fallback };
  }
}

/** Writes any file atomically: a temp file beside it, then rename (retried when Windows holds it). */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, text);
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(temp, file);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'EPERM' || code === 'EBUSY' || code === 'EACCES') && attempt < 10) {
        await new Promise((done) => setTimeout(done, 20 * (attempt + 1)));
        continue;
      }
      await rm(temp, { force: true });
      throw error;
    }
  }
}

/** A manifest entry as the file holds it: no locale for a document of a type that is not localized. */
function entryForFile(entry: ManifestEntry): Omit<ManifestEntry, 'locale'> & { locale?: string } {
  if (entry.locale !== DEFAULT_LOCALE) return entry;
  const { locale: _internal, ...rest } = entry;
  return rest;
}

/** The manifest's text: documents sorted by file, so that it diffs well in git. */
export function renderManifest(manifest: Manifest): string {
  const documents = Object.fromEntries(
    Object.entries(manifest.documents)
      .sort(([, a], [, b]) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
      .map(([id, entry]) => [id, entryForFile(entry)]),
  );
  return `${JSON.stringify({ ...manifest, documents }, null, 2)}\n`;
}

export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(file, renderManifest(manifest));
}
