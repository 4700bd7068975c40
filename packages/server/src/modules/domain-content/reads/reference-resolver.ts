/**
 * `resolve` on read (interface.md "Resolved reference object", "Resolve error entry", "Limits":
 * one level deep). All documents and fields of a response are resolved with one query.
 */
import {
  collectReferences,
  type FrontmatterReference,
  invalidQueryParam,
  listReferenceFields,
  type SchemaType,
} from '@cms/core';
import type { Queryable } from '../../../storage/db.js';
import { findReferencedRows, type ReferencedRow } from '../../../storage/repositories/document-queries.repository.js';
import type { Scope } from '../../../storage/repositories/document-row.js';

/** Codes of resolve errors: not HTTP errors, they sit in `resolveErrors` of a successful answer. */
export type ResolveErrorCode =
  | 'REFERENCE_NOT_FOUND'
  | 'REFERENCE_DELETED'
  | 'REFERENCE_TYPE_MISMATCH'
  | 'REFERENCE_FORBIDDEN';

/** A resolve error entry, keyed in `resolveErrors` by the value's JSON path (`frontmatter.related[1]`). */
export interface ResolveError {
  code: ResolveErrorCode;
  message: string;
  ref: { documentId: string; type: string };
}

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
 * Resolves the `fields` of every subject with one query. Published reads (`draft` false) show the
 * targets' published frontmatter and report never-published targets as REFERENCE_FORBIDDEN; draft
 * reads show the targets' drafts.
 */
export async function resolveReferences(
  db: Queryable,
  scope: Scope,
  subjects: readonly ResolveSubject[],
  options: { fields: ReadonlySet<string>; draft: boolean },
): Promise<ResolveOutcome[]> {
  const found = subjects.map((subject) =>
    collectReferences(subject.type, subject.frontmatter).filter((ref) => options.fields.has(ref.fieldPath)),
  );
  const ids = [...new Set(found.flat().map((ref) => ref.documentId))];
  const rows = await findReferencedRows(db, scope, { ids, draft: options.draft });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return subjects.map((subject, index) => {
    const refs = found[index] ?? [];
    if (refs.length === 0) return { frontmatter: subject.frontmatter, resolveErrors: {} };
    const frontmatter = structuredClone(subject.frontmatter);
    const resolveErrors: Record<string, ResolveError> = {};
    for (const ref of refs) {
      const outcome = resolveOne(ref, byId.get(ref.documentId), options.draft);
      if ('code' in outcome) resolveErrors[ref.path] = outcome;
      setAtPath(frontmatter, ref.path, 'code' in outcome ? null : outcome);
    }
    return { frontmatter, resolveErrors };
  });
}

function resolveOne(
  ref: FrontmatterReference,
  row: ReferencedRow | undefined,
  draft: boolean,
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
  if (!row.frontmatter || (!draft && row.publishedVersion === null)) {
    return fail(
      'REFERENCE_FORBIDDEN',
      `Document ${ref.documentId} is not published: only draft reads (draft=true, content:read:draft) show it.`,
    );
  }
  return { documentId: row.id, type: row.type, path: row.path, frontmatter: row.frontmatter };
}

/** Sets the value at a JSON path of `collectReferences` (`frontmatter.seo.author`, `frontmatter.related[1]`). */
function setAtPath(frontmatter: Record<string, unknown>, path: string, value: unknown): void {
  const keys = [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) =>
    index === undefined ? (key as string) : Number(index),
  );
  let node: unknown = frontmatter;
  for (const [position, key] of keys.entries()) {
    if (typeof node !== 'object' || node === null) return;
    const container = node as Record<string | number, unknown>;
    if (position === keys.length - 1) container[key] = value;
    else node = container[key];
  }
}
