import { type Queryable, READ_ONLY } from '../db.js';
import type { Scope } from './document-row.js';

/** An immutable published snapshot (interface.md "Version entry"). */
export interface VersionRow {
  documentId: string;
  version: number;
  frontmatter: Record<string, unknown>;
  body: string;
  publishedAt: Date;
  publishedBy: string;
  changeSummary: string | null;
}

const COLUMNS = `v.document_id as "documentId", v.version, v.frontmatter, v.body, v.published_at as "publishedAt",
  v.published_by as "publishedBy", v.change_summary as "changeSummary"`;

/** Inserts a version; the primary key (document_id, version) refuses a number taken twice. */
export async function insertVersion(db: Queryable, scope: Scope, version: VersionRow): Promise<VersionRow> {
  const result = await db.query<VersionRow>(
    `insert into document_versions as v (document_id, version, project_id, environment_id, frontmatter, body,
       published_at, published_by, change_summary)
     values ($3, $4, $1, $2, $5, $6, $7, $8, $9)
     returning ${COLUMNS}`,
    [
      scope.projectId,
      scope.environmentId,
      version.documentId,
      version.version,
      JSON.stringify(version.frontmatter),
      version.body,
      version.publishedAt,
      version.publishedBy,
      version.changeSummary,
    ],
  );
  return result.rows[0] as VersionRow;
}

/** One version of a document, or null. */
export async function findVersion(
  db: Queryable,
  scope: Scope,
  where: { documentId: string; version: number },
): Promise<VersionRow | null> {
  const result = await db.query<VersionRow>(
    `select ${COLUMNS} from document_versions v
     where v.project_id = $1 and v.environment_id = $2 and v.document_id = $3 and v.version = $4`,
    [scope.projectId, scope.environmentId, where.documentId, where.version],
    READ_ONLY,
  );
  return result.rows[0] ?? null;
}

/** Direction of a list by version number. */
export type SortOrder = 'asc' | 'desc';

/** A page of a document's versions by number (`desc`: newest first), without their snapshots. */
export async function listVersions(
  db: Queryable,
  scope: Scope,
  where: { documentId: string; limit: number; offset: number; order: SortOrder },
): Promise<{ items: Omit<VersionRow, 'frontmatter' | 'body'>[]; total: number }> {
  const params = [scope.projectId, scope.environmentId, where.documentId];
  const filter = 'v.project_id = $1 and v.environment_id = $2 and v.document_id = $3';
  // Chosen from two literals, never interpolated from input.
  const direction = where.order === 'asc' ? 'asc' : 'desc';
  const page = await db.query<Omit<VersionRow, 'frontmatter' | 'body'>>(
    `select v.document_id as "documentId", v.version, v.published_at as "publishedAt",
         v.published_by as "publishedBy", v.change_summary as "changeSummary"
       from document_versions v where ${filter} order by v.version ${direction} limit $4 offset $5`,
    [...params, where.limit, where.offset],
    READ_ONLY,
  );
  const count = await db.query<{ total: number }>(
    `select count(*)::int as total from document_versions v where ${filter}`,
    params,
    READ_ONLY,
  );
  return { items: page.rows, total: count.rows[0]?.total ?? 0 };
}
