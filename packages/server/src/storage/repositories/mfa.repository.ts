import type { Queryable } from '../db.js';

/** A user's authenticator: the sealed TOTP secret and whether enrolment was confirmed. */
export interface UserMfaRow {
  userId: string;
  totpSecret: string;
  createdAt: Date;
  enabledAt: Date | null;
  lastUsedStep: number;
}

/** A pending second sign-in step with its user. */
export interface MfaChallengeRow {
  userId: string;
  email: string;
  role: string;
  disabledAt: Date | null;
  expiresAt: Date;
  failures: number;
}

/** The user's authenticator, confirmed or not, or null. */
export async function findUserMfa(db: Queryable, userId: string): Promise<UserMfaRow | null> {
  const result = await db.query<UserMfaRow>(
    `select user_id as "userId", totp_secret as "totpSecret", created_at as "createdAt",
       enabled_at as "enabledAt", last_used_step::float8 as "lastUsedStep"
     from user_mfa where user_id = $1`,
    [userId],
  );
  return result.rows[0] ?? null;
}

/** Starts (or restarts) an enrolment; refused (false) while a confirmed authenticator exists. */
export async function upsertPendingMfa(
  db: Queryable,
  row: { userId: string; totpSecret: string; createdAt: Date },
): Promise<boolean> {
  const result = await db.query(
    `insert into user_mfa (user_id, totp_secret, created_at) values ($1, $2, $3)
     on conflict (user_id) do update set totp_secret = excluded.totp_secret, created_at = excluded.created_at,
       last_used_step = 0
     where user_mfa.enabled_at is null`,
    [row.userId, row.totpSecret, row.createdAt],
  );
  return result.rowCount > 0;
}

/**
 * Accepts a code's time step only when it is later than the last accepted one, in one statement, so
 * two requests carrying the same code cannot both pass (RFC 6238 §5.2). `enabled` says whether the
 * authenticator must already be confirmed (sign-in) or not yet (confirming an enrolment).
 */
export async function useTotpStepIfNewer(
  db: Queryable,
  userId: string,
  step: number,
  enabled: boolean,
): Promise<boolean> {
  const result = await db.query(
    `update user_mfa set last_used_step = $2
     where user_id = $1 and last_used_step < $2 and (enabled_at is not null) = $3`,
    [userId, step, enabled],
  );
  return result.rowCount > 0;
}

/** Marks a pending enrolment confirmed; false when there was none. */
export async function markMfaEnabled(db: Queryable, userId: string, at: Date): Promise<boolean> {
  const result = await db.query('update user_mfa set enabled_at = $2 where user_id = $1 and enabled_at is null', [
    userId,
    at,
  ]);
  return result.rowCount > 0;
}

/** Removes the authenticator and every recovery code of a user. */
export async function deleteUserMfa(db: Queryable, userId: string): Promise<void> {
  await db.query('delete from user_mfa_recovery_codes where user_id = $1', [userId]);
  await db.query('delete from user_mfa where user_id = $1', [userId]);
  await db.query('delete from mfa_challenges where user_id = $1', [userId]);
}

/** Replaces a user's recovery codes with new ones (given as hashes). */
export async function replaceRecoveryCodes(db: Queryable, userId: string, hashes: readonly Buffer[]): Promise<void> {
  await db.query('delete from user_mfa_recovery_codes where user_id = $1', [userId]);
  await db.query(
    `insert into user_mfa_recovery_codes (user_id, code_hash)
     select $1, hash from unnest($2::bytea[]) as hash`,
    [userId, hashes],
  );
}

/** Spends an unused recovery code in one statement (two requests cannot both spend it); false when none matched. */
export async function useRecoveryCode(db: Queryable, userId: string, hash: Buffer, at: Date): Promise<boolean> {
  const result = await db.query(
    `update user_mfa_recovery_codes set used_at = $3
     where user_id = $1 and code_hash = $2 and used_at is null`,
    [userId, hash, at],
  );
  return result.rowCount > 0;
}

/** How many unused recovery codes a user has left. */
export async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const result = await db.query<{ count: number }>(
    'select count(*)::int as count from user_mfa_recovery_codes where user_id = $1 and used_at is null',
    [userId],
  );
  return result.rows[0]?.count ?? 0;
}

/** Records a pending second step. */
export async function insertMfaChallenge(
  db: Queryable,
  row: { tokenHash: Buffer; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query('insert into mfa_challenges (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)', [
    row.tokenHash,
    row.userId,
    row.createdAt,
    row.expiresAt,
  ]);
}

/** A live pending step with its user, or null (unknown or expired). */
export async function findLiveMfaChallenge(
  db: Queryable,
  tokenHash: Buffer,
  now: Date,
): Promise<MfaChallengeRow | null> {
  const result = await db.query<MfaChallengeRow>(
    `select c.user_id as "userId", u.email, u.role, u.disabled_at as "disabledAt",
       c.expires_at as "expiresAt", c.failures
     from mfa_challenges c join users u on u.id = c.user_id
     where c.token_hash = $1 and c.expires_at > $2`,
    [tokenHash, now],
  );
  return result.rows[0] ?? null;
}

/** Counts a wrong code against a pending step; the step is deleted once it reaches `limit`. */
export async function chargeMfaChallenge(db: Queryable, tokenHash: Buffer, limit: number): Promise<void> {
  await db.query('update mfa_challenges set failures = failures + 1 where token_hash = $1', [tokenHash]);
  await db.query('delete from mfa_challenges where token_hash = $1 and failures >= $2', [tokenHash, limit]);
}

/** Ends a pending step; false when another request ended it first (each step signs in once). */
export async function deleteMfaChallenge(db: Queryable, tokenHash: Buffer): Promise<boolean> {
  const result = await db.query('delete from mfa_challenges where token_hash = $1', [tokenHash]);
  return result.rowCount > 0;
}

/** Deletes pending steps that expired. */
export async function deleteExpiredMfaChallenges(db: Queryable, now: Date): Promise<void> {
  await db.query('delete from mfa_challenges where expires_at <= $1', [now]);
}
