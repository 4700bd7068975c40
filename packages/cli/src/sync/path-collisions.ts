/**
 * The preflight of `init`, `push` and `status`: paths are unique per project, environment and locale
 * across every type, so two files that map to one path and locale would be one document. They are
 * refused together, before any request, naming both files and what to change. So is a file that
 * would take the path and locale of a document the server already has under another name or type.
 */
import { CliError, EXIT } from '../cli/exit-codes.js';
import { DEFAULT_LOCALE, type DocumentKey } from './file-naming.js';

export interface PathCollision {
  path: string;
  locale: string | null;
  files: string[];
  /** The server's document the file would collide with (a collision with the server). */
  server?: ServerHolder;
}

/**
 * A document on the server as a collision names it: `file` is where it lives here (or where a pull
 * would write it); `deletedHere` when that file is deleted here and the deletion not yet pushed.
 */
export interface ServerHolder {
  id: string;
  type: string;
  path: string;
  locale: string | null;
  file?: string;
  deletedHere?: true;
}

/** A server document as the digest lists it. */
export interface ServerDocument {
  documentId: string;
  type: string;
  path: string;
  locale: string;
  format: string;
}

/** A file that would take its path and locale on the server; `id` is the document it already is. */
export interface PathClaim {
  file: string;
  key: DocumentKey;
  id?: string;
}

/** Where a server document is here: its tracked file (`gone` when deleted here), else where a pull would write it. */
export type PlaceOf = (doc: ServerDocument) => { file?: string; gone?: boolean };

/** Path and locale as the server compares them: NFC path, canonical BCP 47 tag (`pt-br` is `pt-BR`). */
function pathKey(path: string, locale: string): string {
  let canonical = locale;
  if (locale !== DEFAULT_LOCALE) {
    try {
      canonical = Intl.getCanonicalLocales(locale)[0] ?? locale;
    } catch {
      // Not a language tag: the server refuses it with its own message; compared as written.
    }
  }
  return `${path.normalize('NFC')}\u0000${canonical}`;
}

const shownLocale = (locale: string) => (locale === DEFAULT_LOCALE ? null : locale);

/** Every group of files that map to one path and locale (files sorted; groups in path order). */
export function pathCollisions(files: ReadonlyArray<{ file: string; key: DocumentKey }>): PathCollision[] {
  const byKey = new Map<string, { key: DocumentKey; files: string[] }>();
  for (const { file, key } of files) {
    const id = pathKey(key.path, key.locale);
    const group = byKey.get(id) ?? { key, files: [] };
    group.files.push(file);
    byKey.set(id, group);
  }
  return [...byKey.values()]
    .filter((g) => g.files.length > 1)
    .map((g) => ({
      path: g.key.path,
      locale: shownLocale(g.key.locale),
      files: [...g.files].sort(),
    }))
    .sort(byPath);
}

const byPath = (a: PathCollision, b: PathCollision) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Every file that would take the path and locale of another document on the server (in path order). */
export function serverCollisions(
  claims: readonly PathClaim[],
  documents: readonly ServerDocument[],
  placeOf: PlaceOf,
): PathCollision[] {
  const byKey = new Map(documents.map((doc) => [pathKey(doc.path, doc.locale), doc]));
  return claims
    .flatMap((claim) => {
      const doc = byKey.get(pathKey(claim.key.path, claim.key.locale));
      if (!doc || doc.documentId === claim.id) return [];
      const { file, gone } = placeOf(doc);
      const server: ServerHolder = {
        id: doc.documentId,
        type: doc.type,
        path: doc.path,
        locale: shownLocale(doc.locale),
        ...(file ? { file } : {}),
        ...(gone ? { deletedHere: true as const } : {}),
      };
      return [{ path: claim.key.path, locale: shownLocale(claim.key.locale), files: [claim.file], server }];
    })
    .sort(byPath);
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

/** What to change so that a file stops colliding with a document of the server. */
function serverAdviceFor(file: string, holder: ServerHolder): string {
  if (!holder.file) return `rename or move ${file} (the server's document is of a type this config does not have)`;
  if (holder.deletedHere)
    return `its file ${holder.file} is deleted here but not yet on the server: push that deletion first (move ${file} away, \`cms push\`, move it back), or rename ${file}`;
  if (holder.file === file)
    return `run \`cms pull\` to take that document as this file (if their contents differ, pull reports a conflict to resolve), or rename ${file}`;
  return `rename or move ${file}, or run \`cms pull\` to fetch that document as ${holder.file} and keep one of the two files`;
}

function describeServerCollision(c: PathCollision): string {
  const holder = c.server as ServerHolder;
  const file = c.files[0] ?? '';
  return `  ${file} would be "${c.path}"${c.locale ? ` (${c.locale})` : ''}, which the server's ${holder.type} document ${holder.id} has: ${serverAdviceFor(file, holder)}`;
}

/** Refuses, before anything is sent, files that would take the path of another document of the server. */
export function assertFreeOnServer(
  claims: readonly PathClaim[],
  documents: readonly ServerDocument[],
  placeOf: PlaceOf,
): void {
  const collisions = serverCollisions(claims, documents, placeOf);
  if (collisions.length === 0) return;
  throw new CliError(
    'PATH_COLLISION',
    `${collisions.length} file(s) would take the path of a document the server already has; nothing was sent:\n${collisions
      .map(describeServerCollision)
      .join('\n')}`,
    {
      exitCode: EXIT.failure,
      hint: 'Paths are unique per locale across all types, on the server too. Rename or move each file named, or run `cms pull` to bring the server documents into this folder first, then run the command again.',
      details: { collisions },
    },
  );
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
