/**
 * `resolve` on read (interface.md "Resolved reference object", "Resolve error entry", "Limits":
 * one level deep). The referenced documents are fetched by the read's own statement
 * (`referenceJsonPaths` tells it where the ids are); this module decides what each id becomes.
 */
import {
  collectReferences,
  type FieldMetadata,
  type FrontmatterReference,
  invalidQueryParam,
  listReferenceFields,
  type ResolveError,
  type ResolveErrorCode,
  type SchemaType,
} from '@cms/core';
import type { ReferencedRow } from '../../../storage/repositories/content-reads.repository.js';

/** What replaces a resolved id string. Deeper references in `frontmatter` stay id strings. */
export interface ResolvedReference {
  documentId: string;
  type: string;
  path: string;
  frontmatter: Record<string, unknown>;
}

/** One document's frontmatter to resolve, with its type. */
export interface ResolveSubject {
  type: SchemaType;
  frontmatter: Record<string, unknown>;
}

/** A frontmatter with the requested references replaced, and the failures. */
export interface ResolveOutcome {
  frontmatter: Record<string, unknown>;
  resolveErrors: Record<string, ResolveError>;
}

/**
 * Checks every `resolve` path names a reference field of the type (dot notation into nested
 * objects; arrays of references count), else INVALID_QUERY_PARAM. Returns the set of paths.
 */
export function assertResolvable(
  type: SchemaType | undefined,
  typeName: string,
  paths: readonly string[],
): Set<string> {
  const known = new Set(type ? listReferenceFields(type).map((field) => field.path) : []);
  const unknown = paths.filter((path) => !known.has(path));
  if (unknown.length > 0) {
    const hint = known.size > 0 ? `its reference fields are ${[...known].join(', ')}` : 'it has no reference fields';
    throw invalidQueryParam(
      { resolve: `must name reference fields of type "${typeName}": ${hint}` },
      `resolve=${unknown.join(', ')}: not a reference field of type "${typeName}" (${hint}).`,
    );
  }
  return new Set(paths);
}

/**
 * The SQL/JSON paths of resolvable reference fields (checked by `assertResolvable`): `seo.author`
 * is `$."seo"."author"`, an array of references `related` is `$."related"[*]`, a reference in an
 * array of objects `blocks.author` is `$."blocks"[*]."author"`.
 */
export function referenceJsonPaths(type: SchemaType, fields: ReadonlySet<string>): string[] {
  return [...fields].map((path) => {
    let jsonPath = '$';
    let level: Record<string, FieldMetadata> | undefined = type.fields;
    for (const name of path.split('.')) {
      const meta: FieldMetadata | undefined = level?.[name];
      jsonPath += `.${JSON.stringify(name)}`;
      if (meta?.kind === 'array') {
        jsonPath += '[*]';
        level = meta.items?.fields;
      } else {
        level = meta?.fields;
      }
    }
    return jsonPath;
  });
}

/**
 * Checks `paths` before a read whose type is not known yet (get by id): each must be a reference
 * field of some type of the schema, else `INVALID_QUERY_PARAM` (as a list answers for its type),
 * whether or not the document exists. The row's own type is checked after the read.
 */
export function assertResolvableInSomeType(types: Iterable<SchemaType>, paths: readonly string[]): void {
  const known = new Set<string>();
  for (const type of types) for (const field of listReferenceFields(type)) known.add(field.path);
  const unknown = paths.filter((path) => !known.has(path));
  if (unknown.length === 0) return;
  throw invalidQueryParam(
    { resolve: "must name reference fields of the document's type" },
    `resolve=${unknown.join(', ')}: not a reference field of any type in this environment's schema.`,
  );
}

/** The SQL/JSON paths of `paths` in every type where they are reference fields, without repeats. */
export function referenceJsonPathsOfAnyType(types: Iterable<SchemaType>, paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const type of types) {
    const known = new Set(listReferenceFields(type).map((field) => field.path));
    const usable = new Set(paths.filter((path) => known.has(path)));
    for (const jsonPath of referenceJsonPaths(type, usable)) found.add(jsonPath);
  }
  return [...found];
}

/**
 * Resolves the `fields` of every subject from the documents its read fetched. Published reads
 * (`draft` false) show the targets' published frontmatter and report never-published targets as
 * REFERENCE_FORBIDDEN; draft reads show the targets' drafts; release previews (`release`) show the
 * targets as the release leaves them (the read's rows carry null frontmatter for absent ones). The
 * subjects' frontmatter is changed in place: it comes fresh from the read's rows.
 */
export function resolveReferences(
  subjects: readonly ResolveSubject[],
  referenced: readonly ReferencedRow[],
  options: { fields: ReadonlySet<string>; draft: boolean; release?: boolean },
): ResolveOutcome[] {
  const byId = new Map(referenced.map((row) => [row.id, row]));
  return subjects.map((subject) => {
    const resolveErrors: Record<string, ResolveError> = {};
    for (const ref of collectReferences(subject.type, subject.frontmatter)) {
      if (!options.fields.has(ref.fieldPath)) continue;
      const outcome = resolveOne(ref, byId.get(ref.documentId), options);
      if ('code' in outcome) resolveErrors[ref.path] = outcome;
      setAtPath(subject.frontmatter, ref.path, 'code' in outcome ? null : outcome);
    }
    return { frontmatter: subject.frontmatter, resolveErrors };
  });
}

function resolveOne(
  ref: FrontmatterReference,
  row: ReferencedRow | undefined,
  mode: { draft: boolean; release?: boolean },
): ResolvedReference | ResolveError {
  const fail = (code: ResolveErrorCode, message: string): ResolveError => ({
    code,
    message,
    ref: { documentId: ref.documentId, type: ref.targetType },
  });
  if (!row) return fail('REFERENCE_NOT_FOUND', `No document ${ref.documentId} in this project and environment.`);
  if (row.isDeleted) return fail('REFERENCE_DELETED', `Document ${ref.documentId} is deleted.`);
  if (row.type !== ref.targetType) {
    return fail(
      'REFERENCE_TYPE_MISMATCH',
      `Document ${ref.documentId} is of type "${row.type}", not "${ref.targetType}".`,
    );
  }
  if (mode.release && !row.frontmatter) {
    return fail(
      'REFERENCE_FORBIDDEN',
      `Document ${ref.documentId} would not be published once this release is out (not published, and not published by the release).`,
    );
  }
  if (!row.frontmatter || (!mode.draft && !mode.release && row.publishedVersion === null)) {
    return fail(
      'REFERENCE_FORBIDDEN',
      `Document ${ref.documentId} is not published: only draft reads (draft=true, content:read:draft) show it.`,
    );
  }
  return { documentId: row.id, type: row.type, path: row.path, frontmatter: row.frontmatter };
}

/** Keys of JSON paths already parsed: a page repeats the same few paths on every document. */
const parsedPaths = new Map<string, ReadonlyArray<string | number>>();
const MAX_PARSED_PATHS = 10_000;

/** `frontmatter.related[1]` -> `['related', 1]` (the leading `frontmatter` is the object itself). */
function keysOf(path: string): ReadonlyArray<string | number> {
  let keys = parsedPaths.get(path);
  if (!keys) {
    keys = [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) =>
      index === undefined ? (key as string) : Number(index),
    );
    if (parsedPaths.size >= MAX_PARSED_PATHS) parsedPaths.clear();
    parsedPaths.set(path, keys);
  }
  return keys;
}

/** Sets the value at a JSON path of `collectReferences` (`frontmatter.seo.author`, `frontmatter.related[1]`). */
function setAtPath(frontmatter: Record<string, unknown>, path: string, value: unknown): void {
  const keys = keysOf(path);
  let node: unknown = frontmatter;
  for (const [position, key] of keys.entries()) {
    if (typeof node !== 'object' || node === null) return;
    const container = node as Record<string | number, unknown>;
    if (position === keys.length - 1) container[key] = value;
    else node = container[key];
  }
}
