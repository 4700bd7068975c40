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
  d.draft_frontmatter as "draftFrontmatter", d.draft_body as "draftBody", d.draft_revision as "draftRevision",
  d.version, d.published_version as "publishedVersion", d.published_frontmatter as "publishedFrontmatter",
  d.published_body as "publishedBody", d.published_at as "publishedAt",
  d.has_unpublished_changes as "hasUnpublishedChanges", d.is_deleted as "isDeleted", d.deleted_at as "deletedAt",
  d.deleted_by as "deletedBy", d.created_by as "createdBy", d.updated_by as "updatedBy",
  d.created_at as "createdAt", d.updated_at as "updatedAt"`;

/** Project and environment: every statement filters by both (tenant isolation). */
export interface Scope {
  projectId: string;
  environmentId: string;
}
