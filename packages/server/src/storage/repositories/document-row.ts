/** A documents row, camelCased at the repository edge (shared by the command and query repositories). */
export interface DocumentRow {
  id: string;
  projectId: string;
  environmentId: string;
  translationGroupId: string;
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
  draftFrontmatter: Record<string, unknown>;
  draftBody: string;
  /** The draft's source text as written (UTF-8 bytes), or null (the canonical rendering applies). */
  draftSource: Uint8Array | null;
  draftRevision: number;
  version: number;
  publishedVersion: number | null;
  publishedFrontmatter: Record<string, unknown> | null;
  publishedBody: string | null;
  publishedAt: Date | null;
  hasUnpublishedChanges: boolean;
  isDeleted: boolean;
  deletedAt: Date | null;
  deletedBy: string | null;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The select list producing a DocumentRow from table alias `d`. */
export const DOCUMENT_COLUMNS = `d.id, d.project_id as "projectId", d.environment_id as "environmentId",
  d.translation_group_id as "translationGroupId", d.type, d.path, d.locale, d.format,
  d.draft_frontmatter as "draftFrontmatter", d.draft_body as "draftBody", d.draft_source as "draftSource", d.draft_revision as "draftRevision",
  d.version, d.published_version as "publishedVersion", d.published_frontmatter as "publishedFrontmatter",
  d.published_body as "publishedBody", d.published_at as "publishedAt",
  d.has_unpublished_changes as "hasUnpublishedChanges", d.is_deleted as "isDeleted", d.deleted_at as "deletedAt",
  d.deleted_by as "deletedBy", d.created_by as "createdBy", d.updated_by as "updatedBy",
  d.created_at as "createdAt", d.updated_at as "updatedAt"`;

/** A source text as stored: UTF-8 bytes, a leading BOM included. */
export function sourceBytes(text: string | null | undefined): Uint8Array | null {
  return typeof text === 'string' ? Buffer.from(text, 'utf8') : null;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A stored source as text, its BOM kept. */
export function sourceText(bytes: Uint8Array | null | undefined): string | undefined {
  return bytes ? utf8.decode(bytes) : undefined;
}

/** Project and environment: every statement filters by both (tenant isolation). */
export interface Scope {
  projectId: string;
  environmentId: string;
}

/**
 * What a read shows of a document: the draft or the published content, never both. Reads select
 * only these columns (a published read does not fetch and parse the draft, about half a row's bytes).
 */
export interface DocumentContentRow {
  id: string;
  translationGroupId: string;
  type: string;
  path: string;
  locale: string;
  format: 'md' | 'mdx';
  version: number;
  publishedVersion: number | null;
  draftRevision: number;
  hasUnpublishedChanges: boolean;
  isDeleted: boolean;
  /** The draft's, or the published snapshot's (null when never published). */
  frontmatter: Record<string, unknown> | null;
  body: string | null;
  /** The draft's source text as UTF-8 bytes (draft reads only; absent or null: none kept). */
  source?: Uint8Array | null;
  createdBy: string;
  updatedBy: string;
  /** ISO 8601 in UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
  createdAt: string;
  updatedAt: string;
}

/**
 * The select list producing a DocumentContentRow of the draft or the published content from alias `d`;
 * without `withBody`, no body and no source (a list that shows fields only reads none of the text).
 */
export function contentColumns(draft: boolean, withBody = true): string {
  if (!withBody) return `${CONTENT_METADATA_COLUMNS}, d.${draft ? 'draft' : 'published'}_frontmatter as frontmatter`;
  return draft ? DRAFT_CONTENT_COLUMNS : PUBLISHED_CONTENT_COLUMNS;
}

/**
 * A timestamptz as the text `toISOString` gives for the Date node-postgres would parse from it
 * (both truncate microseconds to milliseconds): reads skip parsing to Date and formatting it back.
 */
function isoTimestamp(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The columns every content read selects beside its frontmatter and body (alias `d`). */
export const CONTENT_METADATA_COLUMNS = `d.id, d.translation_group_id as "translationGroupId", d.type, d.path, d.locale,
  d.format, d.version, d.published_version as "publishedVersion", d.draft_revision as "draftRevision",
  d.has_unpublished_changes as "hasUnpublishedChanges", d.is_deleted as "isDeleted",
  d.created_by as "createdBy", d.updated_by as "updatedBy",
  ${isoTimestamp('d.created_at')} as "createdAt", ${isoTimestamp('d.updated_at')} as "updatedAt"`;
const DRAFT_CONTENT_COLUMNS = `${CONTENT_METADATA_COLUMNS}, d.draft_frontmatter as frontmatter, d.draft_body as body, d.draft_source as source`;
const PUBLISHED_CONTENT_COLUMNS = `${CONTENT_METADATA_COLUMNS}, d.published_frontmatter as frontmatter, d.published_body as body`;

/** The draft or published content of a full row, as a read would have selected it. */
export function contentOf(row: DocumentRow, draft: boolean): DocumentContentRow {
  return {
    id: row.id,
    translationGroupId: row.translationGroupId,
    type: row.type,
    path: row.path,
    locale: row.locale,
    format: row.format,
    version: row.version,
    publishedVersion: row.publishedVersion,
    draftRevision: row.draftRevision,
    hasUnpublishedChanges: row.hasUnpublishedChanges,
    isDeleted: row.isDeleted,
    frontmatter: draft ? row.draftFrontmatter : row.publishedFrontmatter,
    body: draft ? row.draftBody : row.publishedBody,
    ...(draft ? { source: row.draftSource } : {}),
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
