import type { Target } from '../../../http/request-context.js';
import type { DocumentRow } from '../../../storage/repositories/document-row.js';

/** Wire shape of a document (interface.md "Document"); dates serialize as ISO 8601 with milliseconds. */
export interface DocumentView {
  documentId: string;
  translationGroupId: string;
  project: string;
  environment: string;
  path: string;
  type: string;
  locale: string;
  format: 'md' | 'mdx';
  isDeleted: boolean;
  hasUnpublishedChanges: boolean;
  version: number;
  publishedVersion: number | null;
  draftRevision: number;
  frontmatter: Record<string, unknown>;
  body: string;
  resolveErrors: Record<string, unknown>;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** How to render a row: which content, in which project/environment, with resolved references. */
export interface DocumentViewOptions {
  /** True: the draft content; false: the published snapshot (empty when never published). */
  draft: boolean;
  /** Project slug and environment name of the response (the row holds only their ids). */
  target: Pick<Target, 'projectSlug' | 'environmentName'>;
  /** Frontmatter to show instead of the stored one (references resolved on read). */
  frontmatter?: Record<string, unknown>;
  /** Resolve errors keyed by frontmatter path; `{}` when omitted. */
  resolveErrors?: Record<string, unknown>;
}

/**
 * The one mapping from a documents row to the document response, shared by the write and read
 * areas so both answer the same shape.
 * @example toDocumentView(row, { draft: true, target: ctx.target })
 */
export function toDocumentView(row: DocumentRow, options: DocumentViewOptions): DocumentView {
  const frontmatter = options.draft ? row.draftFrontmatter : (row.publishedFrontmatter ?? {});
  const body = options.draft ? row.draftBody : (row.publishedBody ?? '');
  return {
    documentId: row.id,
    translationGroupId: row.translationGroupId,
    project: options.target.projectSlug,
    environment: options.target.environmentName,
    path: row.path,
    type: row.type,
    locale: row.locale,
    format: row.format,
    isDeleted: row.isDeleted,
    hasUnpublishedChanges: row.hasUnpublishedChanges,
    version: row.version,
    publishedVersion: row.publishedVersion,
    draftRevision: row.draftRevision,
    frontmatter: options.frontmatter ?? frontmatter,
    body,
    resolveErrors: options.resolveErrors ?? {},
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
