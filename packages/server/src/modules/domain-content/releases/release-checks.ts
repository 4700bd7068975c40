/**
 * The checks a release's items pass again at the moment it goes out (docs/api.md "Releases"): each
 * document still live, its draft valid against the schema in force, its references pointing at live
 * documents of the right type (one query for the references of all items); and, when it goes out at its
 * scheduled time, each `publish` item's draft still the revision recorded when it was scheduled.
 */
import { collectReferences, type SchemaType } from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { findReferenceTargets } from '../../../storage/repositories/documents.repository.js';
import type { LockedItem } from '../../../storage/repositories/release-publish.repository.js';
import type { SchemaReader } from '../schema/schema-reader.js';

/** Why an item keeps its release from going out. */
export interface ItemProblem {
  documentId: string;
  error: string;
}

/** Every item's problem, in item order; empty when the whole release may go out. */
export async function checkReleaseItems(
  tx: Queryable,
  schemas: SchemaReader,
  target: Target,
  items: readonly LockedItem[],
  options: { scheduled?: boolean } = {},
): Promise<ItemProblem[]> {
  const schema = await schemas.load(tx, target);
  const problems = new Map<string, string>();
  const referencing: { item: LockedItem; type: SchemaType }[] = [];
  for (const item of items) {
    if (item.isDeleted) {
      problems.set(item.id, 'the document was deleted: restore it or take it out of the release');
      continue;
    }
    if (item.action !== 'publish') continue;
    if (options.scheduled && item.draftRevision !== item.recordedRevision) {
      // Nobody with content:publish scheduled this draft: a writer's later edit never goes out by itself.
      problems.set(
        item.id,
        `its draft changed after the release was scheduled (revision ${item.draftRevision} now, ${item.recordedRevision} when scheduled): review it, then schedule the release again or publish it now`,
      );
      continue;
    }
    const type = schema?.types.get(item.type);
    if (!schema || !type) {
      problems.set(item.id, `its type "${item.type}" is no longer in the schema: sync the schema or take it out`);
      continue;
    }
    const result = schemas.validatorFor(schema, type)(item.draftFrontmatter);
    if (!result.ok) {
      const fields = Object.entries(result.fields).map(([path, message]) => `${path} ${message}`);
      problems.set(item.id, `its draft is invalid: ${fields.join('; ')}`);
      continue;
    }
    referencing.push({ item, type });
  }
  const references = referencing.flatMap(({ item, type }) =>
    collectReferences(type, item.draftFrontmatter).map((reference) => ({ item, reference })),
  );
  const ids = [...new Set(references.map(({ reference }) => reference.documentId))];
  const found = new Map((await findReferenceTargets(tx, target, ids)).map((row) => [row.id, row]));
  for (const { item, reference } of references) {
    if (problems.has(item.id)) continue;
    const row = found.get(reference.documentId);
    const wanted = `${reference.path} must reference a "${reference.targetType}" document`;
    if (!row) problems.set(item.id, `${wanted}: ${reference.documentId} does not exist in this environment`);
    else if (row.isDeleted) problems.set(item.id, `${wanted}: ${reference.documentId} is deleted`);
    else if (row.type !== reference.targetType) {
      problems.set(item.id, `${wanted}: ${reference.documentId} is a "${row.type}" document`);
    }
  }
  return items
    .filter((item) => problems.has(item.id))
    .map((item) => ({
      documentId: item.id,
      error: problems.get(item.id) as string,
    }));
}
