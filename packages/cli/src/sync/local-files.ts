/** Reads the markdown files of the type directories: name, document key, content hash, raw text. */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { SchemaType } from '@cms/core';
import { contentHash } from './content-hash.js';
import { type DocumentKey, parseFileName } from './file-naming.js';
import { FrontmatterError, frontmatterOf, normalizeBody, type SplitFile, splitFile } from './frontmatter.js';

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
}

export interface LocalFileError {
  file: string;
  line: number | undefined;
  message: string;
}

const SKIP = new Set(['.cms', '.git', 'node_modules']);

async function walk(dir: string, out: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, out);
    else if (entry.isFile() && /\.mdx?$/.test(entry.name)) out.push(full);
  }
}

/** Parses one file's text (frontmatter errors reported with their line). */
export function readLocalText(file: string, diskName: string, key: DocumentKey, text: string): LocalFile {
  const split = splitFile(text);
  const frontmatter = frontmatterOf(split);
  const body = normalizeBody(split.body);
  return { file, diskName, key, text, split, frontmatter, body, hash: contentHash(frontmatter, body, key.format) };
}

export async function scanLocalFiles(
  root: string,
  types: readonly SchemaType[],
  defaultLocale?: string,
): Promise<{ files: LocalFile[]; errors: LocalFileError[] }> {
  const paths: string[] = [];
  const directories = new Set(types.map((t) => t.directory.replace(/^\.?\/+|\/+$/g, '')));
  if (directories.has('')) await walk(root, paths);
  else for (const directory of directories) await walk(join(root, directory), paths);
  const files: LocalFile[] = [];
  const errors: LocalFileError[] = [];
  for (const full of paths) {
    const diskName = relative(root, full).split(sep).join('/');
    const file = diskName.normalize('NFC');
    const key = parseFileName(file, types, defaultLocale);
    if (!key) continue;
    try {
      files.push(readLocalText(file, diskName, key, await readFile(full, 'utf8')));
    } catch (error) {
      if (error instanceof FrontmatterError) {
        errors.push({ file, line: error.line === undefined ? undefined : error.line + 1, message: error.message });
      } else throw error;
    }
  }
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files, errors };
}
