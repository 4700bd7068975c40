import { CmsError } from '@cms/core';
import { isSqlState, type Queryable, READ_ONLY, SQLSTATE } from '../db.js';
import { DOCUMENT_COLUMNS, type DocumentRow, type Scope, sourceBytes } from './document-row.js';

/** Partial unique indexes of migration 0005: only non-deleted documents hold a path or a group locale. */
const PATH_LOCALE_INDEX = 'documents_path_locale_key';
const GROUP_LOCALE_INDEX = 'documents_group_locale_key';

/** A document as created: draft only, `version` 0, `draftRevision` 1. */
export interface NewDocument {
  id: string;
  translationGroupId: string;
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
  frontmatter: Record<string, unknown>;
  body: string;
  /** The source text as written (null or absent: none kept). */
  source?: string | null;
  by: string;
  at: Date;
}

/** Who changed a document and when. */
export interface Change {
  id: string;
  by: string;
  at: Date;
}

/** A reference target as write validation needs it. */
export interface ReferenceTargetRow {
  id: string;
  type: string;
  isDeleted: boolean;
}

/**
 * Runs a write that may take a path or a group locale; a unique violation becomes
 * CONTENT_PATH_CONFLICT. A foreign-key violation means the environment (or its project) was deleted
 * while the request was under way: the only foreign keys of documents are those two.
 */
async function translatingConflicts<T>(write: () => Promise<T>, where: { path: string; locale: string }): Promise<T> {
  try {
    return await write();
  } catch (error: unknown) {
    if (isSqlState(error, SQLSTATE.uniqueViolation, PATH_LOCALE_INDEX)) {
      throw new CmsError(
        'CONTENT_PATH_CONFLICT',
        `Another document already uses path "${where.path}" in locale "${where.locale}": choose another path.`,
        { path: where.path, locale: where.locale },
      );
    }
    if (isSqlState(error, SQLSTATE.uniqueViolation, GROUP_LOCALE_INDEX)) {
      throw new CmsError(
        'CONTENT_PATH_CONFLICT',
        `The translation group already has a variant in locale "${where.locale}".`,
        { path: where.path, locale: where.locale },
      );
    }
    if (isSqlState(error, SQLSTATE.foreignKeyViolation)) {
      throw new CmsError('ENVIRONMENT_NOT_FOUND', 'The environment was deleted while this document was being written.');
    }
    throw error;
  }
}

/** Finds a document (deleted ones too); `forUpdate` locks the row until the transaction ends. */
export async function findDocument(
  db: Queryable,
  scope: Scope,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DocumentRow | null> {
  const result = await db.query<DocumentRow>(
    `select ${DOCUMENT_COLUMNS} from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3${options.forUpdate ? ' for update' : ''}`,
    [scope.projectId, scope.environmentId, id],
    options.forUpdate ? undefined : READ_ONLY,
  );
  return result.rows[0] ?? null;
}

/** Inserts a new draft-only document; CONTENT_PATH_CONFLICT when its path or group locale is taken. */
export async function insertDocument(db: Queryable, scope: Scope, doc: NewDocument): Promise<DocumentRow> {
  return translatingConflicts(async () => {
    const result = await db.query<DocumentRow>(
      `insert into documents as d (id, project_id, environment_id, translation_group_id, type, path, locale, format,
         draft_frontmatter, draft_body, draft_source, draft_revision, version, has_unpublished_changes,
         created_by, updated_by, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $13, 1, 0, true, $11, $11, $12, $12)
       returning ${DOCUMENT_COLUMNS}`,
      [
        doc.id,
        scope.projectId,
        scope.environmentId,
        doc.translationGroupId,
        doc.type,
        doc.path,
        doc.locale,
        doc.format,
        JSON.stringify(doc.frontmatter),
        doc.body,
        doc.by,
        doc.at,
        sourceBytes(doc.source),
      ],
    );
    return result.rows[0] as DocumentRow;
  }, doc);
}

/**
 * Inserts many new draft-only documents with one statement, returning their rows (any order). A
 * taken path or group locale fails the whole statement (a raw unique violation): callers insert only
 * documents checked free, and run a statement that fails anyway again one document at a time.
 */
export async function insertDocuments(
  db: Queryable,
  scope: Scope,
  docs: readonly NewDocument[],
): Promise<DocumentRow[]> {
  if (docs.length === 0) return [];
  const rows = docs.map((doc) => ({
    id: doc.id,
    group: doc.translationGroupId,
    type: doc.type,
    path: doc.path,
    locale: doc.locale,
    format: doc.format,
    frontmatter: doc.frontmatter,
    body: doc.body,
    // Hex of the UTF-8 bytes: the source goes through JSON untouched (a BOM, CRLF, any character).
    source: sourceBytes(doc.source) ? Buffer.from(sourceBytes(doc.source) as Uint8Array).toString('hex') : null,
    by: doc.by,
    at: doc.at.toISOString(),
  }));
  const result = await db.query<DocumentRow>(
    `insert into documents as d (id, project_id, environment_id, translation_group_id, type, path, locale, format,
       draft_frontmatter, draft_body, draft_source, draft_revision, version, has_unpublished_changes,
       created_by, updated_by, created_at, updated_at)
     select (e->>'id')::uuid, $1, $2, (e->>'group')::uuid, e->>'type', e->>'path', e->>'locale', e->>'format',
       e->'frontmatter', e->>'body', decode(e->>'source', 'hex'), 1, 0, true, e->>'by', e->>'by',
       (e->>'at')::timestamptz, (e->>'at')::timestamptz
     from jsonb_array_elements($3::jsonb) with ordinality as x(e, ord) order by ord
     returning ${DOCUMENT_COLUMNS}`,
    [scope.projectId, scope.environmentId, JSON.stringify(rows)],
  );
  return result.rows;
}

/** Which of these paths non-deleted documents hold here, with their locale (one query for a batch). */
export async function findTakenPaths(
  db: Queryable,
  scope: Scope,
  paths: readonly string[],
): Promise<{ path: string; locale: string }[]> {
  if (paths.length === 0) return [];
  const result = await db.query<{ path: string; locale: string }>(
    `select d.path, d.locale from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.path = any($3::text[]) and not d.is_deleted`,
    [scope.projectId, scope.environmentId, paths],
  );
  return result.rows;
}

/**
 * Replaces the draft of a non-deleted document unless its revision moved past `revision` (the
 * optimistic check of interface.md "States": a supplied revision not behind the server's wins).
 * Returns null when stale or absent; of two concurrent calls with the same revision one wins.
 */
export async function updateDraftIfRevision(
  db: Queryable,
  scope: Scope,
  change: Change & { revision: number; frontmatter: Record<string, unknown>; body: string; source?: string | null },
): Promise<DocumentRow | null> {
  const result = await db.query<DocumentRow>(
    `update documents as d set draft_frontmatter = $4, draft_body = $5, draft_source = $9,
       draft_revision = d.draft_revision + 1,
       has_unpublished_changes = true, updated_by = $6, updated_at = $7
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3 and not d.is_deleted and d.draft_revision <= $8
     returning ${DOCUMENT_COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      change.id,
      JSON.stringify(change.frontmatter),
      change.body,
      change.by,
      change.at,
      change.revision,
      sourceBytes(change.source),
    ],
  );
  return result.rows[0] ?? null;
}

/**
 * Replaces the draft with restored content (deleted documents included), bumping the revision; the
 * source is the kept one patched to the restored content (null: none kept).
 */
export async function replaceDraft(
  db: Queryable,
  scope: Scope,
  change: Change & { frontmatter: Record<string, unknown>; body: string; source: string | null },
): Promise<DocumentRow> {
  const result = await db.query<DocumentRow>(
    `update documents as d set draft_frontmatter = $4, draft_body = $5, draft_source = $8,
       draft_revision = d.draft_revision + 1, has_unpublished_changes = true, updated_by = $6, updated_at = $7
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3
     returning ${DOCUMENT_COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      change.id,
      JSON.stringify(change.frontmatter),
      change.body,
      change.by,
      change.at,
      sourceBytes(change.source),
    ],
  );
  return result.rows[0] as DocumentRow;
}

/** Copies a published snapshot onto the row: `version` and `publishedVersion` become `version`. */
export async function markPublished(
  db: Queryable,
  scope: Scope,
  change: Change & { version: number; frontmatter: Record<string, unknown>; body: string },
): Promise<DocumentRow> {
  const result = await db.query<DocumentRow>(
    `update documents as d set version = $4, published_version = $4, published_frontmatter = $5, published_body = $6,
       published_at = $7, has_unpublished_changes = false, updated_by = $8, updated_at = $7
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3
     returning ${DOCUMENT_COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      change.id,
      change.version,
      JSON.stringify(change.frontmatter),
      change.body,
      change.at,
      change.by,
    ],
  );
  return result.rows[0] as DocumentRow;
}

/** Withdraws the published snapshot; `version` and the history stay. */
export async function markUnpublished(db: Queryable, scope: Scope, change: Change): Promise<DocumentRow> {
  const result = await db.query<DocumentRow>(
    `update documents as d set published_version = null, published_frontmatter = null, published_body = null,
       published_at = null, has_unpublished_changes = true, updated_by = $4, updated_at = $5
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3
     returning ${DOCUMENT_COLUMNS}`,
    [scope.projectId, scope.environmentId, change.id, change.by, change.at],
  );
  return result.rows[0] as DocumentRow;
}

/** Soft-deletes: the row and its id stay, its path and group locale become free. */
export async function markDeleted(db: Queryable, scope: Scope, change: Change): Promise<DocumentRow> {
  const result = await db.query<DocumentRow>(
    `update documents as d set is_deleted = true, deleted_at = $5, deleted_by = $4, updated_by = $4, updated_at = $5
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3
     returning ${DOCUMENT_COLUMNS}`,
    [scope.projectId, scope.environmentId, change.id, change.by, change.at],
  );
  return result.rows[0] as DocumentRow;
}

/** Undeletes; CONTENT_PATH_CONFLICT when its path or group locale was taken meanwhile. */
export async function markRestored(
  db: Queryable,
  scope: Scope,
  change: Change & { path: string; locale: string },
): Promise<DocumentRow> {
  return translatingConflicts(async () => {
    const result = await db.query<DocumentRow>(
      `update documents as d set is_deleted = false, deleted_at = null, deleted_by = null, updated_by = $4,
         updated_at = $5
       where d.project_id = $1 and d.environment_id = $2 and d.id = $3
       returning ${DOCUMENT_COLUMNS}`,
      [scope.projectId, scope.environmentId, change.id, change.by, change.at],
    );
    return result.rows[0] as DocumentRow;
  }, change);
}

/** Id, type and deletion flag of each given id that exists here: one query for a whole frontmatter. */
export async function findReferenceTargets(
  db: Queryable,
  scope: Scope,
  ids: readonly string[],
): Promise<ReferenceTargetRow[]> {
  if (ids.length === 0) return [];
  const result = await db.query<ReferenceTargetRow>(
    `select d.id, d.type, d.is_deleted as "isDeleted" from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.id = any($3::uuid[])`,
    [scope.projectId, scope.environmentId, ids],
  );
  return result.rows;
}

/** The type of a translation group's non-deleted documents, or null when the group has none here. */
export async function findTranslationGroupType(db: Queryable, scope: Scope, groupId: string): Promise<string | null> {
  const result = await db.query<{ type: string }>(
    `select d.type from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.translation_group_id = $3 and not d.is_deleted limit 1`,
    [scope.projectId, scope.environmentId, groupId],
  );
  return result.rows[0]?.type ?? null;
}

/** Paths in use by non-deleted documents of a locale that start with `prefix` (free-path search). */
export async function listPathsStartingWith(
  db: Queryable,
  scope: Scope,
  where: { prefix: string; locale: string },
): Promise<string[]> {
  const result = await db.query<{ path: string }>(
    `select d.path from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.locale = $3 and not d.is_deleted
       and starts_with(d.path, $4)`,
    [scope.projectId, scope.environmentId, where.locale, where.prefix],
  );
  return result.rows.map((row) => row.path);
}
