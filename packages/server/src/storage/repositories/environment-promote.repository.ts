/**
 * SQL of promoting published documents into another environment of the same project: the lock on
 * the target, the reads of both sides and the overwrite of a target draft (decisions.md §4,
 * docs/api.md "Environments: clone and promote").
 */
import type { Queryable } from '../db.js';
import { DOCUMENT_COLUMNS, type DocumentRow, type Scope, sourceBytes } from './document-row.js';

/** Advisory lock namespace (with the environment id's hash) of promotions into an environment. */
const PROMOTION_LOCK_NAMESPACE = 7_312_005;

/**
 * Starts a promotion into an environment: waits for any other promotion into it to end, and keeps the
 * environment from being deleted until this transaction ends. False when it no longer exists.
 * One promotion at a time per target, so two never take its documents' counter rows crosswise
 * (a deadlock) and the second plans against what the first wrote.
 */
export async function lockPromotionTarget(tx: Queryable, scope: Scope): Promise<boolean> {
  await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [PROMOTION_LOCK_NAMESPACE, scope.environmentId]);
  const result = await tx.query('select 1 from environments where project_id = $1 and id = $2 for key share', [
    scope.projectId,
    scope.environmentId,
  ]);
  return result.rowCount > 0;
}

/** Every non-deleted document of an environment; `forUpdate` locks them until the transaction ends. */
export async function listLiveDocuments(
  db: Queryable,
  scope: Scope,
  options: { forUpdate?: boolean } = {},
): Promise<DocumentRow[]> {
  const result = await db.query<DocumentRow>(
    `select ${DOCUMENT_COLUMNS} from documents d
     where d.project_id = $1 and d.environment_id = $2 and not d.is_deleted
     order by d.path, d.locale${options.forUpdate ? ' for update' : ''}`,
    [scope.projectId, scope.environmentId],
  );
  return result.rows;
}

/**
 * Replaces format, draft and source text of a non-deleted document (a promotion overwriting it),
 * bumping the revision.
 */
export async function overwriteDraft(
  db: Queryable,
  scope: Scope,
  change: {
    id: string;
    format: 'md' | 'mdx';
    frontmatter: Record<string, unknown>;
    body: string;
    source: string | null;
    by: string;
    at: Date;
  },
): Promise<DocumentRow | null> {
  const result = await db.query<DocumentRow>(
    `update documents as d set format = $4, draft_frontmatter = $5, draft_body = $6, draft_source = $9,
       draft_revision = d.draft_revision + 1, has_unpublished_changes = true, updated_by = $7, updated_at = $8
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3 and not d.is_deleted
     returning ${DOCUMENT_COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      change.id,
      change.format,
      JSON.stringify(change.frontmatter),
      change.body,
      change.by,
      change.at,
      sourceBytes(change.source),
    ],
  );
  return result.rows[0] ?? null;
}
