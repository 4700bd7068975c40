/**
 * Announces committed content changes to the other processes (`pg_notify` on `cms_invalidate`),
 * batched: at most one announcing statement in flight per process, carrying every payload queued
 * while the previous one ran, so concurrent writers never wait on PostgreSQL's lock that serialises
 * notifying commits. A failed announcement is retried with backoff until it goes through or the
 * database closes.
 *
 * Durable (migration 0017): each transaction that changed content also wrote its announcement as a
 * row of `content_announcements`, in the same round trip as its COMMIT; once the NOTIFY is sent, the
 * announcer deletes the rows it carried. A row still there ANNOUNCEMENT_ORPHAN_AGE_MS after it was
 * written was never sent (its process died between COMMIT and announcement, or cannot reach the
 * database): every listening process sweeps such rows each SWEEP_INTERVAL_MS, deleting them and
 * sending their NOTIFY in one transaction, so every committed change is announced, whoever sends it.
 * A duplicate (a sweep that overtakes a slow announcer, a process that dies between its NOTIFY and
 * its delete) only invalidates once more.
 */
import type { Queryable } from './db.js';

const RETRY_BASE_MS = 20;
const RETRY_MAX_MS = 2_000;

/** Age past which a written announcement counts as never sent, and is sent by a sweep. */
export const ANNOUNCEMENT_ORPHAN_AGE_MS = 1_000;
/** How often each listening process sweeps announcements never sent. */
export const SWEEP_INTERVAL_MS = 1_000;
/** Most rows one sweep sends (the rest go at the next one). */
const SWEEP_BATCH = 1_000;

/**
 * NOTIFYs the payloads. Alone in its transaction, which writes nothing: PostgreSQL holds its lock that
 * serialises notifying commits only briefly (a commit that writes would hold it across its WAL flush).
 */
const ANNOUNCE_SQL = 'select pg_notify($1, payload) from unnest($2::text[]) as payload';
/** Deletes the announcements just sent (should this process die first, a sweep sends them again: harmless). */
const SENT_SQL = 'delete from content_announcements where id = any($1::bigint[])';

/**
 * Deletes the announcements older than $2 ms and NOTIFYs their environments (`content:<id>`, or
 * `content` for `*`), in one transaction: if it fails, the rows stay for the next sweep.
 */
const SWEEP_SQL = `with swept as (
    delete from content_announcements where id in (
      select id from content_announcements
      where created_at < clock_timestamp() - make_interval(secs => $2::double precision / 1000)
      order by id limit ${SWEEP_BATCH} for update skip locked)
    returning changed),
  payloads as (
    select distinct case when environment = '*' then 'content' else 'content:' || environment end as payload
    from swept, unnest(string_to_array(swept.changed, ',')) as environment where environment <> '')
  select payload, pg_notify($1, payload) from payloads`;

export interface ContentAnnouncer {
  /** Queues payloads for `channel`, and the announcement row they send (deleted once sent); returns at once. */
  announce(payloads: readonly string[], announcement?: number | null): void;
  /** Starts sweeping announcements never sent, each SWEEP_INTERVAL_MS, until `flush`. */
  startSweeping(): void;
  /** Sends the announcements older than `orphanAgeMs` nobody sent; returns the payloads notified. */
  sweep(orphanAgeMs?: number): Promise<string[]>;
  /** Sends what is queued (once) and stops sweeping, for a graceful close. */
  flush(): Promise<void>;
}

export function createContentAnnouncer(db: Queryable, channel: string): ContentAnnouncer {
  const pending = new Set<string>();
  const announcements = new Set<number>();
  let running: Promise<void> | null = null;
  let closed = false;
  let sweepTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;

  const send = async (): Promise<void> => {
    let failures = 0;
    while (pending.size > 0 && !closed) {
      const batch = [...pending];
      const ids = [...announcements];
      pending.clear();
      announcements.clear();
      let sent = false;
      try {
        await db.query(ANNOUNCE_SQL, [channel, batch]);
        sent = true;
        if (ids.length > 0) await db.query(SENT_SQL, [ids]);
        failures = 0;
      } catch {
        if (!sent) for (const payload of batch) pending.add(payload);
        for (const id of ids) announcements.add(id);
        failures += 1;
        const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** failures);
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
      }
    }
  };

  const start = () => {
    running ??= send().finally(() => {
      running = null;
    });
  };

  const sweep = async (orphanAgeMs = ANNOUNCEMENT_ORPHAN_AGE_MS): Promise<string[]> => {
    const result = await db.query<{ payload: string }>(SWEEP_SQL, [channel, orphanAgeMs]);
    return result.rows.map((row) => row.payload);
  };

  return {
    announce(payloads, announcement) {
      if (payloads.length === 0) return;
      for (const payload of payloads) pending.add(payload);
      if (announcement !== undefined && announcement !== null) announcements.add(announcement);
      start();
    },
    startSweeping() {
      if (sweepTimer || closed) return;
      sweepTimer = setInterval(() => {
        // One sweep at a time; a failed one (database away) leaves the rows for the next.
        sweeping ??= sweep()
          .catch(() => undefined)
          .finally(() => {
            sweeping = null;
          });
      }, SWEEP_INTERVAL_MS);
      sweepTimer.unref();
    },
    sweep,
    async flush() {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      await sweeping;
      await running;
      if (pending.size > 0) {
        start();
        await running;
      }
      closed = true;
    },
  };
}
