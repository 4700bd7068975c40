/**
 * Checks every content write makes (interface.md "Validation on write", decisions.md §2): the
 * schema hash, the type, the frontmatter against its compiled validator, and references, the
 * latter with one query for all ids of a frontmatter.
 */
import { CmsError, collectReferences, invalidInput, SCHEMA_SYNC_HINT, type SchemaType } from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { findReferenceTargets, type ReferenceTargetRow } from '../../../storage/repositories/documents.repository.js';
import {
  type EffectiveSchema,
  EMPTY_SCHEMA_HASH,
  type SchemaReader,
  type TypeInSchema,
} from '../schema/schema-reader.js';

/** Header carrying the client's schema hash on create and update. */
export const SCHEMA_HASH_HEADER = 'x-cms-schema-hash';

/** Throws SCHEMA_HASH_MISMATCH unless the client sent the hash in force; details carry the server's. */
export function assertSchemaHash(schema: EffectiveSchema | null, sent: string | undefined): void {
  const schemaHash = schema?.schemaHash ?? EMPTY_SCHEMA_HASH;
  if (sent === schemaHash) return;
  const message =
    sent === undefined
      ? `Missing X-CMS-Schema-Hash header: send the hash of the schema in force (details.schemaHash); to sync yours first, ${SCHEMA_SYNC_HINT}.`
      : `X-CMS-Schema-Hash differs from the server's schema (details.schemaHash): ${SCHEMA_SYNC_HINT}, then retry with the new hash.`;
  throw new CmsError('SCHEMA_HASH_MISMATCH', message, { schemaHash });
}

/** Why each reference of a (validated) frontmatter is unacceptable, keyed by its JSON path. */
async function referenceProblems(
  tx: Queryable,
  target: Target,
  type: SchemaType,
  frontmatter: Record<string, unknown>,
): Promise<Record<string, string>> {
  const ids = referencedIds(type, frontmatter);
  const found = new Map((await findReferenceTargets(tx, target, ids)).map((row) => [row.id, row]));
  return referenceProblemsIn(type, frontmatter, found);
}

/** The distinct document ids a (validated) frontmatter references. */
export function referencedIds(type: SchemaType, frontmatter: Record<string, unknown>): string[] {
  return [...new Set(collectReferences(type, frontmatter).map((reference) => reference.documentId))];
}

/**
 * Why each reference is unacceptable, given the targets found (by id) among `referencedIds`: lets a
 * batch check the references of all its documents with one query.
 */
export function referenceProblemsIn(
  type: SchemaType,
  frontmatter: Record<string, unknown>,
  found: ReadonlyMap<string, ReferenceTargetRow>,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const reference of collectReferences(type, frontmatter)) {
    const row = found.get(reference.documentId);
    const wanted = `must reference a "${reference.targetType}" document`;
    if (!row) problems[reference.path] = `${wanted}: ${reference.documentId} does not exist in this environment`;
    else if (row.isDeleted) problems[reference.path] = `${wanted}: ${reference.documentId} is deleted`;
    else if (row.type !== reference.targetType) {
      problems[reference.path] = `${wanted}: ${reference.documentId} is a "${row.type}" document`;
    }
  }
  return problems;
}

/**
 * Frontmatter checked against its type: the value to store (defaults applied) or errors keyed by
 * JSON path (`frontmatter.seo.description`).
 */
export function checkFrontmatter(
  schemas: SchemaReader,
  context: TypeInSchema,
  frontmatter: Record<string, unknown>,
): { value: Record<string, unknown>; fields: null } | { value: null; fields: Record<string, string> } {
  const result = schemas.validatorFor(context.schema, context.type)(frontmatter);
  return result.ok ? { value: result.value, fields: null } : { value: null, fields: result.fields };
}

/**
 * Throws INVALID_INPUT unless every reference of a validated frontmatter is a non-deleted document
 * of its target type here; one query covers all ids.
 */
export async function assertReferences(
  tx: Queryable,
  target: Target,
  type: SchemaType,
  frontmatter: Record<string, unknown>,
): Promise<void> {
  const problems = await referenceProblems(tx, target, type, frontmatter);
  if (Object.keys(problems).length > 0) throw invalidInput(problems);
}

/** Validates draft content (frontmatter, then references) and returns the frontmatter to store. */
export async function validateDraft(
  deps: { schemas: SchemaReader },
  tx: Queryable,
  context: TypeInSchema & { target: Target },
  frontmatter: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const checked = checkFrontmatter(deps.schemas, context, frontmatter);
  if (checked.fields) throw invalidInput(checked.fields);
  await assertReferences(tx, context.target, context.type, checked.value);
  return checked.value;
}
