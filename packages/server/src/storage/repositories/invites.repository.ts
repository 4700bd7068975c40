import type { Role } from '@cms/core';
import type { Queryable } from '../db.js';

/** An invite row (the token is stored only as its SHA-256). */
export interface InviteRow {
  id: string;
  email: string;
  role: Role;
  projectId: string | null;
  createdBy: string | null;
  expiresAt: Date;
  acceptedAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, email, role, project_id as "projectId", created_by as "createdBy", expires_at as "expiresAt",
  accepted_at as "acceptedAt", created_at as "createdAt"`;

/** Inserts an invite. */
export async function insertInvite(
  db: Queryable,
  row: Omit<InviteRow, 'acceptedAt'> & { tokenHash: Buffer },
): Promise<InviteRow> {
  const result = await db.query<InviteRow>(
    `insert into invites (id, token_hash, email, role, project_id, created_by, expires_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
    [row.id, row.tokenHash, row.email, row.role, row.projectId, row.createdBy, row.expiresAt, row.createdAt],
  );
  return result.rows[0] as InviteRow;
}

/** Withdraws the pending invites of an email (a new invite replaces them). */
export async function deletePendingInvitesOfEmail(db: Queryable, email: string): Promise<void> {
  await db.query('delete from invites where email = $1 and accepted_at is null', [email]);
}

/**
 * Marks an invite accepted if it is unused and unexpired; returns it, or null (unknown, used or
 * expired). The conditional update makes acceptance single-use even under concurrent requests.
 */
export async function markInviteAcceptedIfValid(
  db: Queryable,
  tokenHash: Buffer,
  now: Date,
): Promise<InviteRow | null> {
  const result = await db.query<InviteRow>(
    `update invites set accepted_at = $2
     where token_hash = $1 and accepted_at is null and expires_at > $2
     returning ${COLUMNS}`,
    [tokenHash, now],
  );
  return result.rows[0] ?? null;
}

/** Is there an unused, unexpired invite with this token? (Checked before any password is hashed.) */
export async function hasValidInvite(db: Queryable, tokenHash: Buffer, now: Date): Promise<boolean> {
  const result = await db.query(
    'select 1 from invites where token_hash = $1 and accepted_at is null and expires_at > $2',
    [tokenHash, now],
  );
  return result.rows.length > 0;
}
