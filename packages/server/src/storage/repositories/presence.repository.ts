/**
 * Presence marks (migration 0057): who has a document open, until when. Every statement filters by
 * project and environment; the mark is keyed by document and principal.
 */
import type { Queryable } from '../db.js';
import type { Scope } from './document-row.js';

/** Another person's live mark. */
export interface PresenceRow {
  principalId: string;
  name: string;
  since: Date;
}

/** How many lapsed marks one heartbeat sweeps, so the sweep stays small and the table stays small. */
const SWEEP_BATCH = 100;

/** What marking did: null when the document is not there; `started` when a new stay began (others must hear). */
export type MarkResult = { started: boolean } | null;

/**
 * Sets (or renews) a principal's mark on a live document of the environment until `expiresAt`. A
 * mark that had lapsed (or none) starts a new stay (`since` = now).
 */
export async function markPresent(
  db: Queryable,
  scope: Scope,
  mark: { documentId: string; principalId: string; name: string; now: Date; expiresAt: Date },
): Promise<MarkResult> {
  const result = await db.query<{ started: boolean }>(
    `insert into document_presence (document_id, principal_id, project_id, environment_id, name, since, expires_at)
     select d.id, $4, d.project_id, d.environment_id, $5, $6, $7
     from documents d
     where d.project_id = $1 and d.environment_id = $2 and d.id = $3 and not d.is_deleted
     on conflict (document_id, principal_id) do update
       set name = excluded.name, expires_at = excluded.expires_at,
         since = case when document_presence.expires_at <= excluded.since then excluded.since
           else document_presence.since end
     returning since = $6 as started`,
    [scope.projectId, scope.environmentId, mark.documentId, mark.principalId, mark.name, mark.now, mark.expiresAt],
  );
  const row = result.rows[0];
  return row ? { started: row.started } : null;
}

/** Removes a principal's mark on a document; true when there was one. */
export async function removePresence(
  db: Queryable,
  scope: Scope,
  documentId: string,
  principalId: string,
): Promise<boolean> {
  const result = await db.query(
    `delete from document_presence
     where project_id = $1 and environment_id = $2 and document_id = $3 and principal_id = $4
     returning document_id`,
    [scope.projectId, scope.environmentId, documentId, principalId],
  );
  return result.rows.length > 0;
}

/** The live marks on a document other than `exceptPrincipalId`'s, longest there first. */
export async function listPresentOthers(
  db: Queryable,
  scope: Scope,
  documentId: string,
  exceptPrincipalId: string,
  now: Date,
): Promise<PresenceRow[]> {
  const result = await db.query<PresenceRow>(
    `select principal_id as "principalId", name, since
     from document_presence
     where project_id = $1 and environment_id = $2 and document_id = $3 and principal_id <> $4 and expires_at > $5
     order by since, principal_id`,
    [scope.projectId, scope.environmentId, documentId, exceptPrincipalId, now],
    { readOnly: true },
  );
  return result.rows;
}

/** Deletes up to a batch of lapsed marks, any document's (they are never shown: this only keeps the table small). */
export async function sweepLapsedPresence(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `delete from document_presence
     where (document_id, principal_id) in (
       select document_id, principal_id from document_presence where expires_at <= $1 limit ${SWEEP_BATCH})`,
    [now],
  );
}
