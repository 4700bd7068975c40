import type { Role } from '@cms/core';
import type { Queryable } from '../db.js';

/** A pending invite with its project's slug (null: an instance-level invite). */
export interface PendingInviteRow {
  id: string;
  email: string;
  role: Role;
  projectSlug: string | null;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const COLUMNS = `i.id, i.email, i.role, p.slug as "projectSlug", i.created_by as "createdBy",
  i.created_at as "createdAt", i.expires_at as "expiresAt"`;

/** Invites neither accepted nor expired at `now`, newest first. */
export async function listPendingInvites(db: Queryable, now: Date): Promise<PendingInviteRow[]> {
  const result = await db.query<PendingInviteRow>(
    `select ${COLUMNS} from invites i left join projects p on p.id = i.project_id
     where i.accepted_at is null and i.expires_at > $1
     order by i.created_at desc, i.id`,
    [now],
  );
  return result.rows;
}

/** One pending invite by id, or null (unknown, accepted or expired). */
export async function findPendingInvite(db: Queryable, id: string, now: Date): Promise<PendingInviteRow | null> {
  const result = await db.query<PendingInviteRow>(
    `select ${COLUMNS} from invites i left join projects p on p.id = i.project_id
     where i.id = $1 and i.accepted_at is null and i.expires_at > $2`,
    [id, now],
  );
  return result.rows[0] ?? null;
}

/** Deletes an invite that is still unaccepted; false when there was none. */
export async function deletePendingInvite(db: Queryable, id: string): Promise<boolean> {
  const result = await db.query('delete from invites where id = $1 and accepted_at is null', [id]);
  return result.rowCount > 0;
}
