import type { Role } from '@cms/core';
import type { Queryable } from '../db.js';
import type { GrantRow } from './grants.repository.js';

/** A session row (the token itself is never stored, only its SHA-256). */
export interface SessionRow {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  absoluteExpiresAt: Date;
  userAgent: string | null;
  ipAddress: string | null;
}

/** What authentication needs about a session, loaded in one query: the session, its user and grants. */
export interface SessionPrincipalRow extends SessionRow {
  email: string;
  role: Role;
  disabledAt: Date | null;
  hasPassword: boolean;
  /** A confirmed second factor (user_mfa.enabled_at set). */
  mfaEnabled: boolean;
  grants: GrantRow[];
}

const COLUMNS = `s.id, s.user_id as "userId", s.created_at as "createdAt", s.last_seen_at as "lastSeenAt",
  s.absolute_expires_at as "absoluteExpiresAt", s.user_agent as "userAgent", s.ip_address as "ipAddress"`;

/** Inserts a session. */
export async function insertSession(db: Queryable, row: SessionRow & { tokenHash: Buffer }): Promise<void> {
  await db.query(
    `insert into sessions (id, token_hash, user_id, created_at, last_seen_at, absolute_expires_at, user_agent, ip_address)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      row.id,
      row.tokenHash,
      row.userId,
      row.createdAt,
      row.lastSeenAt,
      row.absoluteExpiresAt,
      row.userAgent,
      row.ipAddress,
    ],
  );
}

/** Loads a session with its user and the user's grants by token hash, or null. */
export async function findSessionPrincipal(db: Queryable, tokenHash: Buffer): Promise<SessionPrincipalRow | null> {
  const result = await db.query<SessionPrincipalRow>(
    `select ${COLUMNS}, u.email, u.role, u.disabled_at as "disabledAt",
       u.password_hash is not null as "hasPassword",
       exists (select 1 from user_mfa m where m.user_id = u.id and m.enabled_at is not null) as "mfaEnabled",
       coalesce(
         json_agg(json_build_object('project', p.slug, 'environment', coalesce(e.name, '*'), 'role', g.role))
           filter (where g.user_id is not null),
         '[]'::json
       ) as grants
     from sessions s
     join users u on u.id = s.user_id
     left join user_grants g on g.user_id = u.id
     left join projects p on p.id = g.project_id
     left join environments e on e.id = g.environment_id
     where s.token_hash = $1
     group by s.id, u.id`,
    [tokenHash],
  );
  return result.rows[0] ?? null;
}

/** Records activity; callers throttle it (at most once a minute per session). */
export async function touchSession(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query('update sessions set last_seen_at = $2 where id = $1 and last_seen_at < $2', [id, at]);
}

/** Lists a user's sessions, newest first. */
export async function listSessionsOfUser(db: Queryable, userId: string): Promise<SessionRow[]> {
  const result = await db.query<SessionRow>(
    `select ${COLUMNS} from sessions s where s.user_id = $1 order by s.created_at desc, s.id`,
    [userId],
  );
  return result.rows;
}

/** Deletes one session of a user; false when the user has no session with this id. */
export async function deleteSessionOfUser(db: Queryable, userId: string, id: string): Promise<boolean> {
  const result = await db.query('delete from sessions where id = $1 and user_id = $2', [id, userId]);
  return result.rowCount > 0;
}

/** Deletes every session of a user (disabled, password changed). */
export async function deleteSessionsOfUser(db: Queryable, userId: string): Promise<number> {
  const result = await db.query('delete from sessions where user_id = $1', [userId]);
  return result.rowCount;
}

/** Deletes every session of a user but one (the one a password change came with); answers how many. */
export async function deleteOtherSessionsOfUser(db: Queryable, userId: string, keepId: string): Promise<number> {
  const result = await db.query('delete from sessions where user_id = $1 and id <> $2', [userId, keepId]);
  return result.rowCount;
}

/** Deletes sessions idle since before `idleBefore` or past their absolute expiry. */
export async function deleteExpiredSessions(db: Queryable, now: Date, idleBefore: Date): Promise<number> {
  const result = await db.query('delete from sessions where absolute_expires_at <= $1 or last_seen_at <= $2', [
    now,
    idleBefore,
  ]);
  return result.rowCount;
}
