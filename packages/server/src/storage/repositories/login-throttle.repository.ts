import type { Queryable } from '../db.js';

/** The failure counter of one email or client address. */
export interface ThrottleRow {
  keyHash: Buffer;
  failures: number;
  lastFailureAt: Date;
}

/** Reads the counters of the given keys (missing keys have no failures). */
export async function findThrottleRows(db: Queryable, keyHashes: readonly Buffer[]): Promise<ThrottleRow[]> {
  const result = await db.query<ThrottleRow>(
    `select key_hash as "keyHash", failures, last_failure_at as "lastFailureAt"
     from login_throttle where key_hash = any($1::bytea[])`,
    [keyHashes],
  );
  return result.rows;
}

/**
 * Counts one failure for a key, atomically: the counter restarts at 1 when the previous failure is
 * older than `windowStart`, else it grows by one.
 */
export async function recordThrottleFailure(
  db: Queryable,
  keyHash: Buffer,
  now: Date,
  windowStart: Date,
): Promise<void> {
  await db.query(
    `insert into login_throttle (key_hash, failures, last_failure_at) values ($1, 1, $2)
     on conflict (key_hash) do update set
       failures = case when login_throttle.last_failure_at < $3 then 1 else login_throttle.failures + 1 end,
       last_failure_at = $2`,
    [keyHash, now, windowStart],
  );
}

/** Forgets a key's failures (successful sign-in for that email). */
export async function deleteThrottleRow(db: Queryable, keyHash: Buffer): Promise<void> {
  await db.query('delete from login_throttle where key_hash = $1', [keyHash]);
}

/** Deletes counters whose last failure is older than `before` (they no longer matter). */
export async function deleteStaleThrottleRows(db: Queryable, before: Date): Promise<number> {
  const result = await db.query('delete from login_throttle where last_failure_at < $1', [before]);
  return result.rowCount;
}
