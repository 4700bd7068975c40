import type { Queryable } from '../db.js';

/**
 * Counts one request against a key in the window that starts at `windowStart`, in one statement
 * (parallel requests each get their own count), and returns the count including this one.
 */
export async function countRateLimitHit(db: Queryable, keyHash: Buffer, windowStart: Date): Promise<number> {
  const result = await db.query<{ hits: number }>(
    `insert into rate_limit_hits as r (key_hash, window_start, hits) values ($1, $2, 1)
     on conflict (key_hash) do update set
       hits = case when r.window_start = $2 then r.hits + 1 else 1 end,
       window_start = $2
     returning r.hits`,
    [keyHash, windowStart],
  );
  return Number(result.rows[0]?.hits ?? 1);
}

/** Deletes counters of windows that ended before `before` (they can no longer refuse anything). */
export async function deleteStaleRateLimitHits(db: Queryable, before: Date): Promise<number> {
  const result = await db.query('delete from rate_limit_hits where window_start < $1', [before]);
  return result.rowCount;
}
