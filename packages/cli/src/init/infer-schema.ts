/**
 * `cms init` inference: markdown folders become types, frontmatter values become field kinds,
 * `name.<locale>.md` suffixes become locales (the type is then localized).
 */
import type { FieldMetadata, SchemaType } from '@cms/core';

export interface ScannedFile {
  /** Relative, forward slashes. */
  file: string;
  frontmatter: Record<string, unknown>;
}

export interface Inferred {
  types: SchemaType[];
  locales: string[];
  /** Files that will not be imported (root-level files such as README.md). */
  ignored: string[];
}

const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const FIELD = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

function dirOf(file: string): string {
  const at = file.lastIndexOf('/');
  return at < 0 ? '' : file.slice(0, at);
}

/** `post.fr.md` → { stem: 'post', locale: 'fr' } when the suffix looks like a locale tag. */
export function localeOf(file: string): { stem: string; locale: string | undefined } {
  const name = file.slice(file.lastIndexOf('/') + 1).replace(/\.mdx?$/, '');
  const dot = name.lastIndexOf('.');
  const suffix = dot > 0 ? name.slice(dot + 1) : '';
  return LOCALE.test(suffix) ? { stem: name.slice(0, dot), locale: suffix } : { stem: name, locale: undefined };
}

export function typeNameOf(directory: string, taken: Set<string>): string {
  const last = directory.split('/').pop() ?? 'page';
  let name = last.replace(/[^a-zA-Z0-9_-]/g, '-').replace(/^[^a-zA-Z]+/, '') || 'page';
  if (name.length > 3 && name.endsWith('ies')) name = `${name.slice(0, -3)}y`;
  else if (name.length > 3 && name.endsWith('s') && !name.endsWith('ss')) name = name.slice(0, -1);
  name = name.slice(0, 64);
  let unique = name;
  for (let i = 2; taken.has(unique); i++) unique = `${name}${i}`;
  taken.add(unique);
  return unique;
}

type Kind = FieldMetadata['kind'];

function kindOf(value: unknown): Kind | undefined {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return DATE.test(value) ? 'date' : 'string';
  if (Array.isArray(value)) return 'array';
  if (value && typeof value === 'object') return 'object';
  return undefined;
}

function empty(kind: Kind): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [] };
}

/** The field map that fits every given frontmatter object; fields of conflicting kinds are left out. */
export function inferFields(objects: Array<Record<string, unknown>>, depth = 1): Record<string, FieldMetadata> {
  const fields: Record<string, FieldMetadata> = {};
  const keys = new Set(objects.flatMap((o) => Object.keys(o)));
  for (const key of keys) {
    if (!FIELD.test(key)) continue;
    const values = objects.map((o) => o[key]);
    const present = values.filter((v) => v !== undefined && v !== null);
    const kinds = new Set(present.map(kindOf));
    if (kinds.size === 2 && kinds.has('date') && kinds.has('string')) kinds.delete('date');
    if (kinds.size !== 1) continue;
    const kind = [...kinds][0] as Kind;
    let field = empty(kind);
    if (kind === 'array') {
      const items = present.flat() as unknown[];
      const itemKinds = new Set(items.filter((v) => v !== null).map(kindOf));
      if (itemKinds.size === 2 && itemKinds.has('date') && itemKinds.has('string')) itemKinds.delete('date');
      const itemKind = itemKinds.size === 1 ? ([...itemKinds][0] as Kind) : 'string';
      if (itemKind === 'array' || (itemKind === 'object' && depth >= 4)) continue;
      field = {
        ...field,
        items:
          itemKind === 'object'
            ? { kind: 'object', checks: [], fields: inferFields(items as Array<Record<string, unknown>>, depth + 1) }
            : { kind: itemKind, checks: [] },
      };
    } else if (kind === 'object') {
      if (depth >= 4) continue;
      field = { ...field, fields: inferFields(present as Array<Record<string, unknown>>, depth + 1) };
    }
    field.required = values.every((v) => v !== undefined && v !== null);
    field.nullable = values.some((v) => v === null);
    fields[key] = field;
  }
  return fields;
}

export function inferSchema(files: readonly ScannedFile[]): Inferred {
  const ignored = files.filter((f) => dirOf(f.file) === '').map((f) => f.file);
  const inFolders = files.filter((f) => dirOf(f.file) !== '');
  // A folder whose ancestor also holds markdown belongs to the ancestor's type.
  const dirs = [...new Set(inFolders.map((f) => dirOf(f.file)))].sort((a, b) => a.length - b.length);
  const roots: string[] = [];
  for (const dir of dirs) if (!roots.some((r) => dir.startsWith(`${r}/`))) roots.push(dir);
  const taken = new Set<string>();
  const localeCounts = new Map<string, number>();
  const types: SchemaType[] = roots.map((directory) => {
    const own = inFolders.filter((f) => f.file.startsWith(`${directory}/`));
    const locales = own.map((f) => localeOf(f.file).locale);
    for (const l of locales) if (l) localeCounts.set(l, (localeCounts.get(l) ?? 0) + 1);
    return {
      name: typeNameOf(directory, taken),
      directory,
      localized: locales.some((l) => l !== undefined),
      fields: inferFields(own.map((f) => f.frontmatter)),
    };
  });
  const locales = [...localeCounts.entries()].sort((a, b) => b[1] - a[1] || (a[0] === 'en' ? -1 : 1)).map(([l]) => l);
  return { types, locales, ignored };
}
