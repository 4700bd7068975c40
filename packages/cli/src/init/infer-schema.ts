/**
 * `cms init` inference: which folders are types, what their fields are, and which locales the tree
 * has. The accepted locale readings (locale-layout.ts) become locales (and translation groups), never types. Sibling
 * folders whose files have the same frontmatter shape are one type at their parent (each file then
 * keeps its folder in its path), and so is a folder with a single file; folders whose files would
 * take one document path are merged the same way, so every file becomes a distinct document.
 */
import type { SchemaType } from '@cms/core';
import pluralize from 'pluralize';
import { inferFields } from './infer-fields.js';
import {
  type AcceptedLocales,
  acceptFindings,
  detectLocales,
  dirOf,
  type LogicalFile,
  logicalFile,
} from './locale-layout.js';

export { inferFields } from './infer-fields.js';

export interface ScannedFile {
  /** Relative, forward slashes. */
  file: string;
  frontmatter: Record<string, unknown>;
}

export interface Inferred {
  types: SchemaType[];
  /** The default first. */
  locales: string[];
  /** Folders holding one folder per locale (config `localeFolders`). */
  localeFolders: string[];
  /** Files that will not be imported (top-level files such as README.md). */
  ignored: string[];
  /** Files of localized types that carry no locale (outside the locale folders, or without a suffix). */
  unlocalized: string[];
}

/** `posts` → `post`, `categories` → `category`, `docs/guides` → `guide`; the content root → `page`. */
export function typeNameOf(directory: string, taken: Set<string>): string {
  const last = directory.split('/').pop() || 'pages';
  let name = last.replace(/[^a-zA-Z0-9_-]/g, '-').replace(/^[^a-zA-Z]+/, '') || 'page';
  name = pluralize.singular(name).slice(0, 64);
  let unique = name;
  for (let i = 2; taken.has(unique); i++) unique = `${name}${i}`;
  taken.add(unique);
  return unique;
}

const within = (file: string, directory: string) => directory === '' || file.startsWith(`${directory}/`);

/** Each file's type directory: the deepest of `roots` it is under (undefined: none). */
function assign(files: readonly Logical[], roots: readonly string[]): Map<string, Logical[]> {
  const sorted = [...roots].sort((a, b) => b.length - a.length);
  const out = new Map<string, Logical[]>(roots.map((r) => [r, []]));
  for (const f of files) {
    const root = sorted.find((r) => within(f.logical, r));
    if (root !== undefined) out.get(root)?.push(f);
  }
  return out;
}

interface Logical extends LogicalFile {
  frontmatter: Record<string, unknown>;
}

/** Keys held by at least half of the files. */
function shapeOf(files: readonly Logical[]): Set<string> {
  const counts = new Map<string, number>();
  for (const f of files) for (const k of Object.keys(f.frontmatter)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n * 2 >= files.length).map(([k]) => k));
}

function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const shared = [...a].filter((k) => b.has(k)).length;
  return shared / (a.size + b.size - shared);
}

function commonParent(a: string, b: string): string {
  const pa = a.split('/');
  const pb = b.split('/');
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join('/');
}

/** The document key of a logical file in a type at `directory`: its path and locale. */
function keyOf(f: Logical, directory: string): string {
  const rest = directory === '' ? f.logical : f.logical.slice(directory.length + 1);
  return `${rest.replace(/\.mdx?$/, '')}\u0000${f.locale ?? ''}`;
}

/** One merge step (siblings of one shape, single-file folders, colliding paths), or undefined when stable. */
function mergeStep(roots: string[], files: readonly Logical[]): string[] | undefined {
  const assigned = assign(files, roots);
  // Two types whose files would take one path: one type at their common parent.
  const owner = new Map<string, string>();
  for (const [root, own] of assigned) {
    for (const f of own) {
      const key = keyOf(f, root);
      const other = owner.get(key);
      if (other !== undefined && other !== root) {
        const parent = commonParent(other, root);
        return [...roots.filter((r) => r !== other && r !== root && !within(r, parent)), parent];
      }
      owner.set(key, root);
    }
  }
  const byParent = new Map<string, string[]>();
  for (const root of roots) {
    if (root === '') continue;
    const parent = dirOf(root);
    byParent.set(parent, [...(byParent.get(parent) ?? []), root]);
  }
  for (const [parent, siblings] of byParent) {
    if (siblings.length < 2 || roots.includes(parent)) continue;
    const shapes = new Map(siblings.map((s) => [s, shapeOf(assigned.get(s) ?? [])]));
    const alike = (a: string, b: string) =>
      similarity(shapes.get(a) as Set<string>, shapes.get(b) as Set<string>) >= 0.5;
    // Folders with one file, and folders shaped like a sibling, go up into one type at the parent.
    const members = siblings.filter(
      (s) => (assigned.get(s)?.length ?? 0) <= 1 || siblings.some((o) => o !== s && alike(s, o)),
    );
    if (members.length > 0) return [...roots.filter((r) => !members.includes(r)), parent];
  }
  return undefined;
}

/** The certain locale readings of a tree: what `--yes` and tests take without a question. */
export function certainLocales(files: readonly string[]): AcceptedLocales {
  return acceptFindings(detectLocales(files).findings.filter((f) => f.certain));
}

/** Types, fields and locales of the files, with these locale readings taken (by default the certain ones). */
export function inferSchema(
  scanned: readonly ScannedFile[],
  accepted: AcceptedLocales = certainLocales(scanned.map((f) => f.file)),
): Inferred {
  const files: Logical[] = scanned.map((f) => ({ ...logicalFile(f.file, accepted), frontmatter: f.frontmatter }));
  const bases = accepted.folders.map((f) => f.base);
  const inFolders = files.filter((f) => dirOf(f.logical) !== '');
  // The outermost folders holding markdown are the first guess; merging then only moves up.
  const dirs = [...new Set(inFolders.map((f) => dirOf(f.logical)))].sort((a, b) => a.length - b.length);
  let roots: string[] = [];
  for (const dir of dirs) if (!roots.some((r) => within(dir, r))) roots.push(dir);
  for (let next = mergeStep(roots, files); next; next = mergeStep(roots, files)) roots = next;
  const assigned = assign(files, roots);
  const ignored = files.filter((f) => ![...assigned.values()].some((own) => own.includes(f))).map((f) => f.file);
  const taken = new Set<string>();
  const localeCounts = new Map<string, number>();
  const types: SchemaType[] = [...assigned.entries()]
    .filter(([, own]) => own.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([directory, own]) => {
      for (const f of own) if (f.locale) localeCounts.set(f.locale, (localeCounts.get(f.locale) ?? 0) + 1);
      return {
        name: typeNameOf(directory, taken),
        directory,
        localized: own.some((f) => f.locale !== undefined),
        fields: inferFields(own.map((f) => f.frontmatter)),
      };
    });
  // The most used first; on a tie English (`en`, `en-us`), then by name.
  const english = (l: string) => l.toLowerCase().split('-')[0] === 'en';
  const locales = [...localeCounts.entries()]
    .sort((a, b) => b[1] - a[1] || Number(english(b[0])) - Number(english(a[0])) || (a[0] < b[0] ? -1 : 1))
    .map(([l]) => l);
  const used = new Set(files.filter((f) => f.base !== undefined && !ignored.includes(f.file)).map((f) => f.base));
  const unlocalized = [...assigned.values()]
    .filter((own) => own.some((f) => f.locale !== undefined))
    .flatMap((own) => own.filter((f) => f.locale === undefined).map((f) => f.file));
  return { types, locales, localeFolders: bases.filter((b) => used.has(b)), ignored, unlocalized };
}
