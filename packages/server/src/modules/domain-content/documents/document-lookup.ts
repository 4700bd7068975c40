import { notFound } from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import type { DocumentRow } from '../../../storage/repositories/document-row.js';
import { findDocument } from '../../../storage/repositories/documents.repository.js';

/** A document of this project/environment, deleted ones included, locked for the transaction; else NOT_FOUND. */
export async function getDocumentForChange(tx: Queryable, target: Target, id: string): Promise<DocumentRow> {
  const row = await findDocument(tx, target, id, { forUpdate: true });
  if (!row) throw notFound(`Document ${id}`);
  return row;
}

/**
 * A non-deleted document, locked for the transaction; else NOT_FOUND (decisions.md §3: soft-deleted
 * documents count as absent for update, publish, unpublish and duplicate).
 */
export async function getLiveDocumentForChange(tx: Queryable, target: Target, id: string): Promise<DocumentRow> {
  const row = await getDocumentForChange(tx, target, id);
  if (row.isDeleted) throw notFound(`Document ${id}`);
  return row;
}
