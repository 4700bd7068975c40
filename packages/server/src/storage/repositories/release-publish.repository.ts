/**
 * SQL of a release going out (docs/api.md "Releases"): the items locked with their documents, then
 * every publish, unpublish and re-publish of an earlier version written with a few set-based
 * statements, whatever the number of items (no statement per document).
 */
import type { Queryable } from '../db.js';
import type { DocumentRow, Scope } from './document-row.js';
import type { ReleaseAction } from './releases.repository.js';

/** An item's document locked for the transaction: what the checks need, without bodies. */
export type LockedItem = Pick<
  DocumentRow,
  'id' | 'type' | 'draftFrontmatter' | 'draftRevision' | 'isDeleted' | 'hasUnpublishedChanges' | 'publishedVersion'
> & {
  action: ReleaseAction;
  /** The draft revision the item recorded (when added, or when the release was last scheduled). */
  recordedRevision: number;
};

/** What a document event needs of a written row. */
export interface WrittenDocument {
  id: string;
  translationGroupId: string;
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
  version: number;
}

const WRITTEN_COLUMNS = `d.id, d.translation_group_id as "translationGroupId", d.type, d.path, d.locale, d.format,
  d.version`;

/** Locks every item's document (in id order, as every bulk writer does, so two never deadlock). */
export async function lockReleaseDocuments(tx: Queryable, scope: Scope, releaseId: string): Promise<LockedItem[]> {
  const result = await tx.query<LockedItem>(
    `select d.id, d.type, d.draft_frontmatter as "draftFrontmatter", d.draft_revision as "draftRevision",
       d.is_deleted as "isDeleted", d.has_unpublished_changes as "hasUnpublishedChanges",
       d.published_version as "publishedVersion", i.action, i.draft_revision as "recordedRevision"
     from release_items i
     join documents d on d.id = i.document_id and d.project_id = i.project_id and d.environment_id = i.environment_id
     where i.project_id = $1 and i.environment_id = $2 and i.release_id = $3
     order by d.id for update of d`,
    [scope.projectId, scope.environmentId, releaseId],
  );
  return result.rows;
}

/** Remembers each item's published version before the release writes anything. */
export async function recordPreviousVersions(tx: Queryable, scope: Scope, releaseId: string): Promise<void> {
  await tx.query(
    `update release_items i set previous_version = d.published_version, error = null from documents d
     where i.project_id = $1 and i.environment_id = $2 and i.release_id = $3
       and d.id = i.document_id and d.project_id = i.project_id and d.environment_id = i.environment_id`,
    [scope.projectId, scope.environmentId, releaseId],
  );
}

/** Remembers the published version each item's document has once the release is out. */
export async function recordPublishedVersions(tx: Queryable, scope: Scope, releaseId: string): Promise<void> {
  await tx.query(
    `update release_items i set published_version = d.published_version from documents d
     where i.project_id = $1 and i.environment_id = $2 and i.release_id = $3
       and d.id = i.document_id and d.project_id = i.project_id and d.environment_id = i.environment_id`,
    [scope.projectId, scope.environmentId, releaseId],
  );
}

/** Snapshots the drafts of these documents as their next versions and publishes them. */
export async function publishDrafts(
  tx: Queryable,
  scope: Scope,
  ids: readonly string[],
  change: { by: string; at: Date; changeSummary: string },
): Promise<WrittenDocument[]> {
  if (ids.length === 0) return [];
  const params = [scope.projectId, scope.environmentId, ids, change.at, change.by];
  await tx.query(
    `insert into document_versions (document_id, version, project_id, environment_id, frontmatter, body,
       published_at, published_by, change_summary)
     select d.id, d.version + 1, d.project_id, d.environment_id, d.draft_frontmatter, d.draft_body, $4, $5, $6
     from documents d where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])`,
    [...params, change.changeSummary],
  );
  const result = await tx.query<WrittenDocument>(
    `update documents as d set version = d.version + 1, published_version = d.version + 1,
       published_frontmatter = d.draft_frontmatter, published_body = d.draft_body, published_at = $4,
       has_unpublished_changes = false, updated_by = $5, updated_at = $4
     where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])
     returning ${WRITTEN_COLUMNS}`,
    params,
  );
  return result.rows;
}

/** Withdraws the published versions of these documents (history kept). */
export async function unpublishDocuments(
  tx: Queryable,
  scope: Scope,
  ids: readonly string[],
  change: { by: string; at: Date },
): Promise<WrittenDocument[]> {
  if (ids.length === 0) return [];
  const result = await tx.query<WrittenDocument>(
    `update documents as d set published_version = null, published_frontmatter = null, published_body = null,
       published_at = null, has_unpublished_changes = true, updated_by = $5, updated_at = $4
     where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[]) and d.published_version is not null
     returning ${WRITTEN_COLUMNS}`,
    [scope.projectId, scope.environmentId, ids, change.at, change.by],
  );
  return result.rows;
}

/**
 * Publishes earlier immutable versions again (a revert): each document gets a new version holding the
 * snapshot of `version`; its draft stays as it is.
 */
export async function republishVersions(
  tx: Queryable,
  scope: Scope,
  targets: readonly { documentId: string; version: number }[],
  change: { by: string; at: Date; changeSummary: string },
): Promise<WrittenDocument[]> {
  if (targets.length === 0) return [];
  const params = [scope.projectId, scope.environmentId, JSON.stringify(targets), change.at, change.by];
  await tx.query(
    `insert into document_versions (document_id, version, project_id, environment_id, frontmatter, body,
       published_at, published_by, change_summary)
     select d.id, d.version + 1, d.project_id, d.environment_id, v.frontmatter, v.body, $4, $5, $6
     from jsonb_to_recordset($3::jsonb) as t("documentId" uuid, version int)
     join documents d on d.id = t."documentId" and d.project_id = $1 and d.environment_id = $2
     join document_versions v on v.document_id = d.id and v.version = t.version
       and v.project_id = $1 and v.environment_id = $2`,
    [...params, change.changeSummary],
  );
  const result = await tx.query<WrittenDocument>(
    `update documents as d set version = d.version + 1, published_version = d.version + 1,
       published_frontmatter = v.frontmatter, published_body = v.body, published_at = $4,
       has_unpublished_changes = (d.draft_frontmatter <> v.frontmatter or d.draft_body <> v.body),
       updated_by = $5, updated_at = $4
     from jsonb_to_recordset($3::jsonb) as t("documentId" uuid, version int), document_versions v
     where d.project_id = $1 and d.environment_id = $2 and d.id = t."documentId"
       and v.document_id = d.id and v.version = d.version + 1 and v.project_id = $1 and v.environment_id = $2
     returning ${WRITTEN_COLUMNS}`,
    params,
  );
  return result.rows;
}
