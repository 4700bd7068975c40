import { randomUUID } from 'node:crypto';
import { invalidInput, type Role, type Serializable, type User } from '@cms/core';
import type { Queryable } from '../../storage/db.js';
import { insertUserIfEmailFree, type UserRow } from '../../storage/repositories/users.repository.js';

/** Wire shape of a user: `{ id, email, role, createdAt }` (decisions.md §4) plus `disabled`. */
export type UserView = Serializable<User>;

/** Turns a row into its wire shape; the password hash never leaves the server. */
export function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    disabled: row.disabledAt !== null,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Emails compare case-insensitively: they are stored trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Creates a user; a taken email is INVALID_INPUT at `field`. */
export async function createUserRecord(
  tx: Queryable,
  user: { email: string; role: Role; passwordHash: string | null; now: Date },
  field = 'body.email',
): Promise<UserRow> {
  const row = await insertUserIfEmailFree(tx, { id: randomUUID(), ...user });
  if (!row) throw invalidInput({ [field]: 'is already used by another user' });
  return row;
}
