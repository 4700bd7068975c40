import { documentTitle } from '@cms/core';
import { noteAuditTarget } from '../../../audit/audit-scope.js';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import type { DocumentRow } from '../../../storage/repositories/document-row.js';
import type { EventType } from '../../../storage/repositories/outbox.repository.js';
import type { Outbox } from '../outbox.js';
import { actorOf } from './document-context.js';

/** The `document` object of a delivery envelope (interface.md "Delivery envelope"). */
export function eventDocument(row: DocumentRow) {
  return {
    documentId: row.id,
    translationGroupId: row.translationGroupId,
    type: row.type,
    path: row.path,
    locale: row.locale,
    format: row.format,
    version: row.version,
  };
}

/** Records a content event in the transaction of the change (decisions.md §6: written with it, sent after commit). */
export async function recordDocumentEvent(
  outbox: Outbox,
  tx: Queryable,
  ctx: EnvironmentContext,
  type: Extract<EventType, `content.${string}`>,
  row: DocumentRow,
): Promise<void> {
  // Every document change passes here: the action's audit entry names the document (docs/audit.md).
  noteAuditDocument(row);
  await outbox.record(tx, ctx.target, {
    type,
    actor: actorOf(ctx),
    document: eventDocument(row),
    publishedVersion: row.publishedVersion,
  });
}

/**
 * Names the document in the action's audit entry: its type, id, locale, and its title (else its path)
 * as it is after the change, so the log reads "published Getting started" even after a rename or delete.
 */
export function noteAuditDocument(row: DocumentRow): void {
  const label = documentTitle(row.draftFrontmatter) ?? row.path;
  noteAuditTarget({ type: row.type, documentId: row.id, locale: row.locale, label });
}
