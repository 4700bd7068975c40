/** The activity views' calls: the SDK's `audit` area through the session client, like every Studio call. */
import type { AuditEntry, AuditListQuery } from '@cms/sdk';
import { at, type Target, viaSdk } from '../../api/sdk.js';

export type { AuditEntry, AuditListQuery };

/** Entries per page of the Activity page. */
export const ACTIVITY_PAGE_SIZE = 50;

export const activity = {
  list: (target: Partial<Target>, query: AuditListQuery) => viaSdk(() => at(target).audit.list(query)),
  /** One document's entries (`content:read:draft`: editors see it, not only admins). */
  ofDocument: (target: Target, documentId: string, query: { limit?: number; cursor?: string }) =>
    viaSdk(() => at(target).content.activity(documentId, query)),
};

/** Who did it, as a person reads it. */
export function actorText(entry: AuditEntry): string {
  if (entry.actor.label) return entry.actor.label;
  return entry.actor.type === 'apiKey' ? `API key ${entry.actor.id.slice(0, 8)}` : entry.actor.type;
}

/** What a diff of a document change says, in a line (keys, never values). */
export function changesText(entry: AuditEntry): string {
  const changes = entry.changes as {
    frontmatter?: { added?: string[]; removed?: string[]; changed?: string[] };
    body?: { linesAdded?: number; linesRemoved?: number; linesAfter?: number };
    status?: number | string;
    batch?: { operations?: number; applied?: number; failed?: number };
    scheduled?: { email?: string | null };
    documents?: number;
  } | null;
  if (!changes) return '';
  const parts: string[] = [];
  const fm = changes.frontmatter;
  if (fm?.changed?.length) parts.push(`changed ${fm.changed.join(', ')}`);
  if (fm?.added?.length) parts.push(`added ${fm.added.join(', ')}`);
  if (fm?.removed?.length) parts.push(`removed ${fm.removed.join(', ')}`);
  if (changes.body && (changes.body.linesAdded || changes.body.linesRemoved)) {
    parts.push(`body +${changes.body.linesAdded ?? 0} −${changes.body.linesRemoved ?? 0} lines`);
  }
  if (typeof changes.status === 'number') parts.push(`answered ${changes.status}`);
  if (changes.batch) parts.push(`batch: ${changes.batch.applied ?? 0} of ${changes.batch.operations ?? 0} applied`);
  if (changes.scheduled) parts.push(`scheduled by ${changes.scheduled.email || 'a removed user'}`);
  if (typeof changes.status === 'string') parts.push(changes.status);
  if (typeof changes.documents === 'number') parts.push(`${changes.documents} documents`);
  return parts.join('; ');
}
