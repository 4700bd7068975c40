/**
 * The pure half of promotion (decisions.md §4): which published source documents create, update,
 * leave unchanged or conflict with the documents of the target, matched by (path, locale).
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from '@cms/core';
import type { DocumentRow } from '../../../storage/repositories/document-row.js';

/** What promoting one source document does in the target. */
export type PromoteAction = 'create' | 'update' | 'unchanged' | 'conflict';

/** One planned document: the source, its counterpart in the target, and the content to write. */
export interface PlannedPromotion {
  source: DocumentRow;
  target: DocumentRow | null;
  action: PromoteAction;
  reason?: string;
  /** Id of the target document: the counterpart's, or a new one for a create. */
  targetId: string;
  /** Translation group in the target (creates). */
  translationGroupId: string;
  /** Published frontmatter of the source with references rewritten to target ids. */
  frontmatter: Record<string, unknown>;
}

/** The documents on both sides, the selection, and whether both environments share a schema hash. */
export interface PlanInput {
  sourceDocuments: readonly DocumentRow[];
  targetDocuments: readonly DocumentRow[];
  /** Published, live source documents to promote. */
  selected: readonly DocumentRow[];
  sameSchema: boolean;
  /** Names of the two environments, for the reasons: the user resolves a conflict in one of them. */
  sourceName: string;
  targetName: string;
}

const keyOf = (row: Pick<DocumentRow, 'path' | 'locale'>) => `${row.locale}\u0000${row.path}`;

/**
 * Replaces every string equal to a source document id by its target id (the same rule the clone
 * applies); returns the ids that have no target counterpart.
 */
function rewriteIds(value: unknown, ids: ReadonlyMap<string, string | null>, missing: Set<string>): unknown {
  if (typeof value === 'string') {
    const mapped = ids.get(value.toLowerCase());
    if (mapped === undefined) return value;
    if (mapped === null) missing.add(value.toLowerCase());
    return mapped ?? value;
  }
  if (Array.isArray(value)) return value.map((item) => rewriteIds(item, ids, missing));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteIds(item, ids, missing)]));
  }
  return value;
}

function sameContent(source: DocumentRow, frontmatter: Record<string, unknown>, target: DocumentRow): boolean {
  return (
    source.type === target.type &&
    source.format === target.format &&
    source.publishedBody === target.publishedBody &&
    canonicalJson(frontmatter) === canonicalJson(target.publishedFrontmatter)
  );
}

/** Plans a promotion; every item conflicts when the schema hashes differ. */
export function planPromotion(input: PlanInput): PlannedPromotion[] {
  const from = JSON.stringify(input.sourceName);
  const to = JSON.stringify(input.targetName);
  const targetByKey = new Map(input.targetDocuments.map((row) => [keyOf(row), row]));
  const selectedIds = new Set(input.selected.map((row) => row.id));
  // Source id -> target id: the counterpart's, a fresh id for a create, null when neither exists.
  const ids = new Map<string, string | null>();
  for (const row of input.sourceDocuments) {
    const counterpart = targetByKey.get(keyOf(row));
    ids.set(row.id, counterpart?.id ?? (selectedIds.has(row.id) ? randomUUID() : null));
  }
  // Source translation group -> target group: that of a counterpart of the group, else a new one.
  const groups = new Map<string, string>();
  for (const row of input.sourceDocuments) {
    const counterpart = targetByKey.get(keyOf(row));
    if (counterpart && !groups.has(row.translationGroupId)) {
      groups.set(row.translationGroupId, counterpart.translationGroupId);
    }
  }
  const groupLocales = new Set(input.targetDocuments.map((row) => `${row.translationGroupId}\u0000${row.locale}`));

  return input.selected.map((source) => {
    const target = targetByKey.get(keyOf(source)) ?? null;
    const missing = new Set<string>();
    const frontmatter = rewriteIds(source.publishedFrontmatter ?? {}, ids, missing) as Record<string, unknown>;
    let translationGroupId = groups.get(source.translationGroupId);
    if (!translationGroupId) {
      translationGroupId = randomUUID();
      groups.set(source.translationGroupId, translationGroupId);
    }
    const base = { source, target, targetId: ids.get(source.id) ?? randomUUID(), translationGroupId, frontmatter };
    const conflict = (reason: string): PlannedPromotion => ({ ...base, action: 'conflict', reason });

    if (!input.sameSchema) {
      return conflict(
        `schema hash differs between ${from} and ${to}: sync the same schema to both ` +
          `(\`cms schema sync --environment ${input.sourceName}\` and \`--environment ${input.targetName}\`)`,
      );
    }
    if (missing.size > 0) {
      return conflict(
        `references ${[...missing].join(', ')}, which ${to} does not have: promote those documents from ${from} too`,
      );
    }
    if (!target) {
      if (groupLocales.has(`${translationGroupId}\u0000${source.locale}`)) {
        return conflict(
          `the translation group already has a variant in locale "${source.locale}" at another path in ${to}: ` +
            `give both the same path, or delete the one in ${to}`,
        );
      }
      return { ...base, action: 'create' };
    }
    if (target.type !== source.type) {
      return conflict(
        `the document at this path in ${to} is a "${target.type}", the one in ${from} a "${source.type}": ` +
          `move or delete the one in ${to}`,
      );
    }
    if (target.hasUnpublishedChanges) {
      return conflict(`the document in ${to} has unpublished changes: publish or undo them in ${to} first`);
    }
    return { ...base, action: sameContent(source, frontmatter, target) ? 'unchanged' : 'update' };
  });
}
