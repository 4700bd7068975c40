import type { Role } from '@cms/core';
import { isSqlState, type Queryable, SQLSTATE } from '../db.js';

/** A user row (the password hash stays on the server). */
export interface UserRow {
  id: string;
  email: string;
  role: Role;
  passwordHash: string | null;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, email, role, password_hash as "passwordHash", disabled_at as "disabledAt",
  created_at as "createdAt", updated_at as "updatedAt"`;

/** Finds a user by id, or null. */
export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`select ${COLUMNS} from users where id = $1`, [id]);
  return result.rows[0] ?? null;
}

/** Finds a user by normalised email, or null. */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`select ${COLUMNS} from users where email = $1`, [email]);
  return result.rows[0] ?? null;
}

/** Lists users by email, one page. */
export async function listUsers(db: Queryable, page: { limit: number; offset: number }): Promise<UserRow[]> {
  const result = await db.query<UserRow>(`select ${COLUMNS} from users order by email limit $1 offset $2`, [
    page.limit,
    page.offset,
  ]);
  return result.rows;
}

/** Counts users (first-admin bootstrap, pagination). */
export async function countUsers(db: Queryable): Promise<number> {
  const result = await db.query<{ count: number }>('select count(*)::int as count from users');
  return result.rows[0]?.count ?? 0;
}

/** Counts enabled admins other than the given user (the last admin may not be removed). */
export async function countOtherEnabledAdmins(db: Queryable, exceptUserId: string): Promise<number> {
  const result = await db.query<{ count: number }>(
    `select count(*)::int as count from users where role = 'admin' and disabled_at is null and id <> $1`,
    [exceptUserId],
  );
  return result.rows[0]?.count ?? 0;
}

/** Inserts a user; returns null when the email is taken. */
export async function insertUserIfEmailFree(
  db: Queryable,
  row: { id: string; email: string; role: Role; passwordHash: string | null; now: Date },
): Promise<UserRow | null> {
  try {
    const result = await db.query<UserRow>(
      `insert into users (id, email, role, password_hash, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)
       returning ${COLUMNS}`,
      [row.id, row.email, row.role, row.passwordHash, row.now],
    );
    return result.rows[0] as UserRow;
  } catch (error: unknown) {
    if (isSqlState(error, SQLSTATE.uniqueViolation, 'users_email_key')) return null;
    throw error;
  }
}

/** Changes role, disabled state and/or password hash; returns null when no such user. */
export async function updateUser(
  db: Queryable,
  id: string,
  change: { role?: Role; disabledAt?: Date | null; passwordHash?: string; now: Date },
): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    `update users set
       role = coalesce($2, role),
       disabled_at = case when $3::boolean then $4::timestamptz else disabled_at end,
       password_hash = coalesce($5, password_hash),
       updated_at = $6
     where id = $1 returning ${COLUMNS}`,
    [
      id,
      change.role ?? null,
      change.disabledAt !== undefined,
      change.disabledAt ?? null,
      change.passwordHash ?? null,
      change.now,
    ],
  );
  return result.rows[0] ?? null;
}

/** Replaces a password hash only if it is still the one that was verified (rehash on login). */
export async function replacePasswordHashIfUnchanged(
  db: Queryable,
  id: string,
  previousHash: string,
  nextHash: string,
): Promise<void> {
  await db.query('update users set password_hash = $3 where id = $1 and password_hash = $2', [
    id,
    previousHash,
    nextHash,
  ]);
}

/** Deletes a user (grants and sessions go with it); returns the deleted row or null. */
export async function deleteUser(db: Queryable, id: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(`delete from users where id = $1 returning ${COLUMNS}`, [id]);
  return result.rows[0] ?? null;
}
