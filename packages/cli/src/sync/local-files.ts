/**
 * Reads the markdown files of the type directories: name, document key, content hash, raw text.
 * A stat cache (the manifest's `stat` per file: size and mtime when its hash was last computed) lets
 * an unchanged file skip reading, parsing and hashing; its text is read only if something asks.
 */
import { readFileSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { mapLimit } from '../api/limiter.js';
import { contentHash } from './content-hash.js';
import { type DocumentKey, type FileType, parseFileName } from './file-naming.js';
import { FrontmatterError, frontmatterOf, normalizeBody, type SplitFile, splitFile } from './frontmatter.js';
import { hasConflictMarkers } from './merge.js';

export interface FileStat {
  size: number;
  mtimeMs: number;
}

export interface LocalFile {
  /** Relative to the content root, forward slashes, NFC. */
  file: string;
  /** The name as it is on disk (maybe NFD). */
  diskName: string;
  key: DocumentKey;
  text: string;
  split: SplitFile;
  frontmatter: Record<string, unknown>;
  body: string;
  hash: string;
  /** Size and mtime when scanned. */
  stat?: FileStat;
  /** True when the hash came from the stat cache (the text is read only on demand). */
  cached?: boolean;
}

export interface LocalFileError {
  file: string;
  line: number | undefined;
  message: string;
  /** True for a file with unresolved conflict markers (not a YAML error). */
  markers?: boolean;
}

/** What the manifest remembers of a file: its stat when its content had this hash. */
export type StatCache = ReadonlyMap<string, FileStat & { hash: string }>;

const SKIP = new Set(['.cms', '.git', 'node_modules']);

async function walk(dir: string, out: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await Promise.all(
    entries.map(async (entry) => {
      if (SKIP.has(entry.name)) return;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, out);
      else if (entry.isFile() && /\.mdx?$/.test(entry.name)) out.push(full);
    }),
  );
}

/** Parses one file's text (frontmatter errors reported with their line). */
export function readLocalText(file: string, diskName: string, key: DocumentKey, text: string): LocalFile {
  const split = splitFile(text);
  const frontmatter = frontmatterOf(split);
  const body = normalizeBody(split.body);
  return { file, diskName, key, text, split, frontmatter, body, hash: contentHash(frontmatter, body, key.format) };
}

/** A file the stat cache vouches for: hash known, text parsed only if a caller reads it. */
function cachedLocalFile(full: string, file: string, diskName: string, key: DocumentKey, hash: string, st: FileStat) {
  let parsed: LocalFile | undefined;
  const load = () => {
    parsed ??= readLocalText(file, diskName, key, readFileSync(full, 'utf8'));
    return parsed;
  };
  return {
    file,
    diskName,
    key,
    hash,
    stat: st,
    cached: true,
    get text() {
      return load().text;
    },
    get split() {
      return load().split;
    },
    get frontmatter() {
      return load().frontmatter;
    },
    get body() {
      return load().body;
    },
  } satisfies LocalFile;
}

/** A file of a type not selected: named (for the collision preflight), never read. */
export interface NamedFile {
  file: string;
  key: DocumentKey;
}

/**
 * The files of `types`, each named by the longest matching type directory. With `selected`, only
 * the files of those types are read; the others are listed in `named` by name and key alone.
 */
export async function scanLocalFiles(
  root: string,
  types: readonly FileType[],
  defaultLocale?: string,
  cache?: StatCache,
  selected?: ReadonlySet<string>,
): Promise<{ files: LocalFile[]; errors: LocalFileError[]; named: NamedFile[] }> {
  const paths: string[] = [];
  // A type under locale folders has files in each locale's folder: walk from the folder holding them.
  const directories = [
    ...new Set(types.map((t) => (t.localeFolder ? t.localeFolder.base : t.directory).replace(/^\.?\/+|\/+$/g, ''))),
  ].sort();
  // A folder inside another one walked already is not walked twice.
  const outer = directories.filter((d) => !directories.some((o) => o !== d && (o === '' || d.startsWith(`${o}/`))));
  for (const directory of outer) await walk(directory ? join(root, directory) : root, paths);
  const files: LocalFile[] = [];
  const errors: LocalFileError[] = [];
  const named: NamedFile[] = [];
  await mapLimit(paths, 32, async (full) => {
    const diskName = relative(root, full).split(sep).join('/');
    const file = diskName.normalize('NFC');
    const key = parseFileName(file, types, defaultLocale);
    if (!key) return;
    if (selected && !selected.has(key.type)) {
      named.push({ file, key });
      return;
    }
    // A synchronous stat: on 10,000 files the thread pool's round trips cost more than the calls.
    const st = statSync(full);
    const fileStat = { size: st.size, mtimeMs: st.mtimeMs };
    const known = cache?.get(file);
    if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) {
      files.push(cachedLocalFile(full, file, diskName, key, known.hash, fileStat));
      return;
    }
    try {
      const text = await readFile(full, 'utf8');
      if (hasConflictMarkers(text)) {
        const line = text.split('\n').findIndex((l) => l.startsWith('<<<<<<< '));
        errors.push({ file, line: line + 1, message: 'conflict markers left by `cms pull --merge`', markers: true });
        return;
      }
      files.push({ ...readLocalText(file, diskName, key, text), stat: fileStat });
    } catch (error) {
      if (error instanceof FrontmatterError) {
        errors.push({ file, line: error.line === undefined ? undefined : error.line + 1, message: error.message });
      } else throw error;
    }
  });
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  errors.sort((a, b) => (a.file < b.file ? -1 : 1));
  return { files, errors, named };
}
