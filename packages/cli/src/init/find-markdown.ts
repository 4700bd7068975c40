/** The markdown files under a folder with their frontmatter (unreadable frontmatter counts as none). */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { frontmatterOf, splitFile } from '../sync/frontmatter.js';
import type { ScannedFile } from './infer-schema.js';

const SKIP = new Set(['.cms', '.git', 'node_modules', 'dist', 'build', '.next', '.astro', '.cache']);

export async function findMarkdown(root: string): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && /\.mdx?$/.test(entry.name)) {
        let frontmatter: Record<string, unknown> = {};
        try {
          frontmatter = frontmatterOf(splitFile(await readFile(full, 'utf8')));
        } catch {
          frontmatter = {};
        }
        out.push({ file: relative(root, full).split(sep).join('/').normalize('NFC'), frontmatter });
      }
    }
  };
  await walk(root);
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}
