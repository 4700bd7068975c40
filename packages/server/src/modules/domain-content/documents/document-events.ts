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
  noteAuditTarget({ type: row.type, documentId: row.id, locale: row.locale });
  await outbox.record(tx, ctx.target, {
    type,
    actor: actorOf(ctx),
    document: eventDocument(row),
    publishedVersion: row.publishedVersion,
  });
}
