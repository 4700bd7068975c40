import type { Document, ResolveError } from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import {
  contentOf,
  type DocumentContentRow,
  type DocumentRow,
  sourceText,
} from '../../../storage/repositories/document-row.js';

/** How to render a row: in which project/environment, with resolved references. */
export interface ContentViewOptions {
  /** Project slug and environment name of the response (the row holds only their ids). */
  target: Pick<Target, 'projectSlug' | 'environmentName'>;
  /** Frontmatter to show instead of the stored one (references resolved on read). */
  frontmatter?: Record<string, unknown>;
  /** Resolve errors keyed by frontmatter path; `{}` when omitted. */
  resolveErrors?: Record<string, ResolveError>;
}

/** How to render a full row: which content, and the rest of ContentViewOptions. */
export interface DocumentViewOptions extends ContentViewOptions {
  /** True: the draft content; false: the published snapshot (empty when never published). */
  draft: boolean;
}

/**
 * The one mapping from a document's content to the document response (core's `Document`), shared by the write and
 * read areas so both answer the same shape. A never-published document's published content is empty.
 * @example toContentView(row, { target: ctx.target })
 */
export function toContentView(row: DocumentContentRow, options: ContentViewOptions): Document {
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
    frontmatter: options.frontmatter ?? row.frontmatter ?? {},
    body: row.body ?? '',
    ...(row.source ? { source: sourceText(row.source) as string } : {}),
    resolveErrors: options.resolveErrors ?? {},
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A full documents row (as writes return it) rendered with its draft or published content.
 * @example toDocumentView(row, { draft: true, target: ctx.target })
 */
export function toDocumentView(row: DocumentRow, options: DocumentViewOptions): Document {
  return toContentView(contentOf(row, options.draft), options);
}
