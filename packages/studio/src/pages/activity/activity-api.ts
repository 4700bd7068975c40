/** The activity views' calls: the SDK's `audit` area through the session client, like every Studio call. */
import type { AuditEntry, AuditListQuery } from '@cms/sdk';
import { at, type Target, viaSdk } from '../../api/sdk.js';

export type { AuditEntry, AuditListQuery };

/** Entries per page of the Activity page. */
export const ACTIVITY_PAGE_SIZE = 50;

export const activity = {
  list: (target: Partial<Target>, query: AuditListQuery) => viaSdk(() => at(target).audit.list(query)),
  /** One document's entries (`content:read:draft`: editors see it, not only admins). */
  ofDocument: (
    target: Target,
    documentId: string,
    query: { limit?: number; cursor?: string; includeRoutine?: boolean },
  ) => viaSdk(() => at(target).content.activity(documentId, query)),
};
