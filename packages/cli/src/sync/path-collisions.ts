/**
 * The preflight of `init`, `push` and `status`: paths are unique per project, environment and locale
 * across every type, so two files that map to one path and locale would be one document. They are
 * refused together, before any request, naming both files and what to change.
 */
import { CliError, EXIT } from '../cli/exit-codes.js';
import { DEFAULT_LOCALE, type DocumentKey } from './file-naming.js';

export interface PathCollision {
  path: string;
  locale: string | null;
  files: string[];
}

/** Every group of files that map to one path and locale (files sorted; groups in path order). */
export function pathCollisions(files: ReadonlyArray<{ file: string; key: DocumentKey }>): PathCollision[] {
  const byKey = new Map<string, { key: DocumentKey; files: string[] }>();
  for (const { file, key } of files) {
    const id = `${key.path}\u0000${key.locale}`;
    const group = byKey.get(id) ?? { key, files: [] };
    group.files.push(file);
    byKey.set(id, group);
  }
  return [...byKey.values()]
    .filter((g) => g.files.length > 1)
    .map((g) => ({
      path: g.key.path,
      locale: g.key.locale === DEFAULT_LOCALE ? null : g.key.locale,
      files: [...g.files].sort(),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What to change so that the files of one collision become distinct documents. */
function adviceFor(collision: PathCollision): string {
  const [a, b] = collision.files;
  const extensions = new Set(collision.files.map((f) => f.slice(f.lastIndexOf('.'))));
  if (extensions.size > 1 && collision.files.length === 2 && a?.replace(/\.mdx?$/, '') === b?.replace(/\.mdx?$/, ''))
    return 'keep one of them (the same page as .md and .mdx)';
  const localized = collision.files.some((f) => /\.[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*\.mdx?$/.test(f));
  if (localized) return 'keep one of them, or rename one (a file without a locale suffix is the default locale)';
  return 'rename or move one of them, or give their types one directory (then each keeps its folder in its path)';
}

export function describeCollisions(collisions: readonly PathCollision[]): string {
  return collisions
    .map(
      (c) => `  ${c.files.join(' and ')} would both be "${c.path}"${c.locale ? ` (${c.locale})` : ''}: ${adviceFor(c)}`,
    )
    .join('\n');
}

export function assertDistinctPaths(files: ReadonlyArray<{ file: string; key: DocumentKey }>): void {
  const collisions = pathCollisions(files);
  if (collisions.length === 0) return;
  throw new CliError(
    'PATH_COLLISION',
    `${collisions.length} document path(s) would be taken by more than one file; nothing was sent:\n${describeCollisions(collisions)}`,
    {
      exitCode: EXIT.failure,
      hint: 'Paths are unique per locale across all types. Rename or move one file of each pair and run the command again.',
      details: { collisions },
    },
  );
}
