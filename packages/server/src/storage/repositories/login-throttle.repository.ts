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

/** The backoff rule of `backoffAfter`, as SQL over a counter row aliased `t`. */
const ALLOWED_NOW = `(t.last_failure_at < $3
   or t.failures < $4
   or t.last_failure_at + least($5::float8 * power(2, t.failures - $4), $6::float8) * interval '1 millisecond' <= $2)`;

/** The limits `reserveThrottleAttempt` applies (see login-throttle.ts). */
export interface ThrottleRule {
  limit: number;
  baseMs: number;
  maxMs: number;
}

/**
 * Reserves one attempt on every key in ONE statement: each blocking counter is checked against the
 * backoff and every counter is charged a failure together, under row locks, so parallel requests cannot
 * all pass a check made before any of them is charged. `signalKeys` (among `keyHashes`) are charged but
 * never checked: they only count (the email's counter slows, it never refuses). Returns null (and charges
 * nothing, save for a race on counters created by the same statement) when a blocking key is in backoff,
 * else each counter's reservation, which a success gives back.
 */
export async function reserveThrottleAttempt(
  db: Queryable,
  keyHashes: readonly Buffer[],
  signalKeys: readonly Buffer[],
  now: Date,
  windowStart: Date,
  rule: ThrottleRule,
): Promise<ThrottleReservation[] | null> {
  const sorted = [...keyHashes].sort(Buffer.compare);
  const result = await db.query<ThrottleReservation>(
    `with before as (
       select key_hash, last_failure_at from login_throttle where key_hash = any($1::bytea[])
     ),
     held as (
       select t.key_hash from login_throttle t
       where t.key_hash = any($1::bytea[]) and not (t.key_hash = any($7::bytea[])) and not ${ALLOWED_NOW}
       order by t.key_hash for update
     )
     insert into login_throttle as t (key_hash, failures, last_failure_at)
     select k, 1, $2 from unnest($1::bytea[]) as k where not exists (select 1 from held)
     order by k
     on conflict (key_hash) do update set
       failures = case when t.last_failure_at < $3 then 1 else t.failures + 1 end,
       last_failure_at = $2
     where t.key_hash = any($7::bytea[]) or ${ALLOWED_NOW}
     returning t.key_hash as "keyHash", t.last_failure_at as "reservedAt", t.failures,
       (select b.last_failure_at from before b where b.key_hash = t.key_hash) as "previousFailureAt"`,
    [sorted, now, windowStart, rule.limit, rule.baseMs, rule.maxMs, [...signalKeys]],
  );
  return result.rows.length === sorted.length ? result.rows : null;
}

/** One counter's reserved attempt: what to give back when the attempt turns out a success. */
export interface ThrottleReservation {
  keyHash: Buffer;
  /** The failure time the reservation wrote. */
  reservedAt: Date;
  /** The counter's failures within the window, this attempt included. */
  failures: number;
  /** The counter's last failure before the reservation; null when the reservation created it. */
  previousFailureAt: Date | null;
}

/**
 * Gives back one reserved attempt (it turned out a success): the count, and the time of the last
 * failure unless another attempt has written one since, so a success never re-arms a backoff.
 */
export async function refundThrottleAttempt(db: Queryable, reservation: ThrottleReservation): Promise<void> {
  await db.query(
    `update login_throttle set failures = greatest(failures - 1, 0),
       last_failure_at = case when last_failure_at = $2 then coalesce($3, last_failure_at) else last_failure_at end
     where key_hash = $1`,
    [reservation.keyHash, reservation.reservedAt, reservation.previousFailureAt],
  );
}

/** A throttled attempt's place in its counter's backoff window. */
export interface ThrottledRefusal {
  /** The first refusal of this window (its audit entry is written). */
  first: boolean;
  /** Refusals the counter's window before had, when this is the first of a new one (else 0). */
  refusedBefore: number;
}

/**
 * Counts one refused (throttled) attempt against the counter's current backoff window, the one its last
 * failure opened. One statement under the row's lock, so of parallel refusals exactly one is the first.
 */
export async function countThrottledRefusal(db: Queryable, keyHash: Buffer): Promise<ThrottledRefusal> {
  const result = await db.query<{ first: boolean; refusedBefore: number }>(
    `with old as (
       select key_hash, refused_window, refused_count from login_throttle where key_hash = $1 for update
     )
     update login_throttle t set
       refused_count = case when old.refused_window = t.last_failure_at then old.refused_count + 1 else 1 end,
       refused_window = t.last_failure_at
     from old where t.key_hash = old.key_hash
     returning (old.refused_window is distinct from t.last_failure_at) as first,
       case when old.refused_window is distinct from t.last_failure_at then old.refused_count else 0 end
         as "refusedBefore"`,
    [keyHash],
  );
  return result.rows[0] ?? { first: true, refusedBefore: 0 };
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
