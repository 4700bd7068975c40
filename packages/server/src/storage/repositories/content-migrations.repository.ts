/**
 * SQL of content migrations (docs/api.md "Content migrations"): the record of applied migrations,
 * one per (environment, name), and the keyset-paged scan of a type's documents they work through.
 */
import { CmsError } from '@cms/core';
import { isSqlState, type Queryable, SQLSTATE } from '../db.js';
import { DOCUMENT_COLUMNS, type DocumentRow, type Scope } from './document-row.js';

/** Unique constraint of migration 0011: a name applies once per environment. */
const NAME_KEY = 'content_migrations_environment_name_key';

/** An applied migration, camelCased. */
export interface ContentMigrationRow {
  id: string;
  name: string;
  type: string;
  operations: unknown[];
  matched: number;
  changed: number;
  appliedBy: string;
  appliedAt: Date;
}

const COLUMNS = `m.id, m.name, m.type, m.operations, m.matched, m.changed, m.applied_by as "appliedBy",
  m.applied_at as "appliedAt"`;

/** Where a batch scan resumes: after this (path, id). */
export interface DocumentCursor {
  path: string;
  id: string;
}

/** The migration of this name applied in the environment, or null. */
export async function findContentMigration(
  db: Queryable,
  scope: Scope,
  name: string,
): Promise<ContentMigrationRow | null> {
  const result = await db.query<ContentMigrationRow>(
    `select ${COLUMNS} from content_migrations m
     where m.project_id = $1 and m.environment_id = $2 and m.name = $3`,
    [scope.projectId, scope.environmentId, name],
  );
  return result.rows[0] ?? null;
}

/**
 * Records a migration as applied (counts are set by `setContentMigrationCounts` once known). Null
 * when the name is already taken here: a concurrent insert of the same name waits for the other
 * transaction and then finds it taken, so of two concurrent applications one wins.
 */
export async function insertContentMigrationIfNew(
  db: Queryable,
  scope: Scope,
  migration: { id: string; name: string; type: string; operations: unknown[]; by: string; at: Date },
): Promise<ContentMigrationRow | null> {
  try {
    const result = await db.query<ContentMigrationRow>(
      `insert into content_migrations as m (id, project_id, environment_id, name, type, operations, matched, changed,
         applied_by, applied_at)
       values ($1, $2, $3, $4, $5, $6, 0, 0, $7, $8)
       on conflict on constraint ${NAME_KEY} do nothing
       returning ${COLUMNS}`,
      [
        migration.id,
        scope.projectId,
        scope.environmentId,
        migration.name,
        migration.type,
        JSON.stringify(migration.operations),
        migration.by,
        migration.at,
      ],
    );
    return result.rows[0] ?? null;
  } catch (error: unknown) {
    // The only foreign keys are the project and the environment: it was deleted meanwhile.
    if (isSqlState(error, SQLSTATE.foreignKeyViolation)) {
      throw new CmsError('ENVIRONMENT_NOT_FOUND', 'The environment was deleted while the migration was being applied.');
    }
    throw error;
  }
}

/** Stores how many documents an applied migration matched and changed. */
export async function setContentMigrationCounts(
  db: Queryable,
  scope: Scope,
  counts: { id: string; matched: number; changed: number },
): Promise<void> {
  await db.query(
    `update content_migrations set matched = $4, changed = $5
     where project_id = $1 and environment_id = $2 and id = $3`,
    [scope.projectId, scope.environmentId, counts.id, counts.matched, counts.changed],
  );
}

/**
 * The next `limit` non-deleted documents of a type after `after`, ordered by (path, id) (the
 * `documents_read_path` index); `forUpdate` locks them until the transaction ends, always in this
 * order, so two migrations of one type lock rows in the same order.
 */
export async function listDocumentsOfTypeAfter(
  db: Queryable,
  scope: Scope,
  page: { type: string; after: DocumentCursor | null; limit: number; forUpdate: boolean },
): Promise<DocumentRow[]> {
  const params: unknown[] = [scope.projectId, scope.environmentId, page.type, page.limit];
  let resume = '';
  if (page.after) {
    params.push(page.after.path, page.after.id);
    resume = 'and (d.path, d.id) > ($5, $6::uuid)';
  }
  const result = await db.query<DocumentRow>(
    `select ${DOCUMENT_COLUMNS} from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.type = $3 and not d.is_deleted ${resume}
     order by d.path, d.id limit $4${page.forUpdate ? ' for update' : ''}`,
    params,
  );
  return result.rows;
}
