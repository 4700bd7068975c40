/**
 * Announces committed content changes to the other processes (`pg_notify` on `cms_invalidate`),
 * batched: at most one announcing statement in flight per process, carrying every payload queued
 * while the previous one ran, so concurrent writers never wait on PostgreSQL's lock that serialises
 * notifying commits. A failed announcement is retried with backoff until it goes through or the
 * database closes.
 *
 * Durable (migration 0017): each transaction that changed content also wrote its announcement as a
 * row of `content_announcements`, in the same round trip as its COMMIT. The statement that sends the
 * NOTIFY deletes the rows it carries, in its own transaction: sent and deleted commit together or not
 * at all, so no extra statement per write, and no row is left behind once announced (a quiet system
 * keeps none for a sweep to send again). A row still there ANNOUNCEMENT_ORPHAN_AGE_MS after it was
 * written was never sent (its process died between COMMIT and announcement, or cannot reach the
 * database): every listening process sweeps such rows each SWEEP_INTERVAL_MS, deleting them and
 * sending their NOTIFY in one transaction, so every committed change is announced, whoever sends it.
 * A duplicate (a sweep that overtakes a slow announcer) only invalidates once more.
 *
 * Coalesced: the first announcement after a quiet spell goes at once, and the next statement starts no
 * sooner than ANNOUNCE_INTERVAL_MS after the previous one started. At a steady rate of writes one
 * statement then carries every payload of that interval (about one statement per 20 ms, not one per
 * write, at 200 writes/s), for at most that much more delay before other processes hear it (their
 * bound is 100 ms; the writing process delivered it to itself before the write returned).
 *
 * Wake-ups of work queues (`Db.wake`, the webhook worker's `cms_outbox`) ride on the same statements:
 * a NOTIFY inside their transactions would serialise concurrent commits just the same.
 *
 * The announcements go on `sender` (on PostgreSQL the LISTEN connection, whose own NOTIFYs its process
 * does not hear again: it delivered these payloads in-process before the write returned); the sweep
 * goes on `db`, so the sweeping process hears what it sends like everyone else (a dead process's
 * announcements are news to it too).
 */
import type { Queryable } from './db.js';

const RETRY_BASE_MS = 20;
const RETRY_MAX_MS = 2_000;

/** Least time between the starts of two announcing statements (see the coalescing above). */
export const ANNOUNCE_INTERVAL_MS = 20;

/** Age past which a written announcement counts as never sent, and is sent by a sweep. */
export const ANNOUNCEMENT_ORPHAN_AGE_MS = 1_000;
/** How often each listening process sweeps announcements never sent. */
export const SWEEP_INTERVAL_MS = 1_000;
/** Most rows one sweep sends (the rest go at the next one). */
const SWEEP_BATCH = 1_000;

/**
 * Makes the commit of the statement's transaction asynchronous: it does not wait for its WAL flush.
 * PostgreSQL takes its lock that serialises notifying commits at COMMIT and keeps it to the end; a
 * transaction that only NOTIFYs writes no WAL worth flushing, so it holds the lock briefly, but one that
 * also deletes rows would hold it across the flush (an fsync), delaying every other notifying commit.
 * Nothing is lost by not waiting: should PostgreSQL crash before the flush, the deletes are undone, the
 * rows stay, and a sweep announces them again (a duplicate, harmless); the NOTIFY itself never
 * outlives a crash anyway. `true`: for this transaction only (the connection keeps its setting).
 */
const QUIET_COMMIT = "(select set_config('synchronous_commit', 'off', true)) as quiet";

/** The notifications ($2 on the channels $1, pairwise), when there is no announcement row to delete. */
const ANNOUNCE_SQL =
  'select pg_notify(channel, payload) from unnest($1::text[], $2::text[]) as notification(channel, payload)';
/**
 * The notifications ($2 on the channels $1, pairwise) and the delete of the announcement rows ($3) that
 * owed them, in one statement and one transaction, committed without waiting for its flush
 * (QUIET_COMMIT). The DELETE runs before COMMIT takes the notify lock.
 */
const ANNOUNCE_AND_DELETE_SQL = `with sent as (delete from content_announcements where id = any($3::bigint[]))
  select pg_notify(channel, payload)
  from ${QUIET_COMMIT}, unnest($1::text[], $2::text[]) as notification(channel, payload)`;

/**
 * Deletes the announcements older than $2 ms and NOTIFYs their environments (`content:<id>`, or
 * `content` for `*`), in one transaction (committed as QUIET_COMMIT says): if it fails, the rows stay
 * for the next sweep.
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
  select payload, pg_notify($1, payload) from payloads, ${QUIET_COMMIT}`;

export interface ContentAnnouncer {
  /**
   * Queues payloads for `channel`, and the announcement row they send (deleted by the statement that sends
   * them); returns at once.
   */
  announce(payloads: readonly string[], announcement?: number | null): void;
  /**
   * Queues a wake-up on another channel (a work queue's), sent with the next announcement: not durable,
   * so only for listeners that also poll (Db.wake).
   */
  wake(channel: string, payload: string): void;
  /** Starts sweeping announcements never sent, each SWEEP_INTERVAL_MS, until `flush`. */
  startSweeping(): void;
  /** Sends the announcements older than `orphanAgeMs` nobody sent; returns the payloads notified. */
  sweep(orphanAgeMs?: number): Promise<string[]>;
  /** Sends what is queued (once) and stops sweeping, for a graceful close. */
  flush(): Promise<void>;
}

/**
 * `db` runs the sweep; `sender` (by default `db`) the announcements. Only payloads this process already
 * delivered to its own handlers may be announced: on PostgreSQL `sender` is the LISTEN connection, and
 * what it NOTIFYs its process does not hear again (storage/postgres-listener.ts).
 */
export function createContentAnnouncer(
  db: Queryable,
  channel: string,
  options: { sender?: Queryable; intervalMs?: number } = {},
): ContentAnnouncer {
  const sender = options.sender ?? db;
  const intervalMs = options.intervalMs ?? ANNOUNCE_INTERVAL_MS;
  /** What to send, by channel: a payload queued twice goes once. */
  const pending = new Map<string, Set<string>>();
  let pendingCount = 0;
  const queue = (on: string, payload: string) => {
    let payloads = pending.get(on);
    if (!payloads) {
      payloads = new Set();
      pending.set(on, payloads);
    }
    if (!payloads.has(payload)) pendingCount += 1;
    payloads.add(payload);
  };
  const announcements = new Set<number>();
  let running: Promise<void> | null = null;
  let closed = false;
  let sweepTimer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  /** When the last announcing statement started (performance.now()), for the coalescing interval. */
  let lastStart = Number.NEGATIVE_INFINITY;
  /** Ends the current coalescing wait early (a flush sends at once). */
  let hurry: (() => void) | null = null;
  let flushing = false;

  /** Waits `wait` ms, the rest of the interval since the last statement, unless a flush hurries it. */
  const coalesce = async (wait: number) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      hurry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    hurry = null;
  };

  const send = async (): Promise<void> => {
    let failures = 0;
    while (pendingCount > 0 && !closed) {
      // Awaited only when there is a wait: at once, the statement leaves in this same tick.
      const wait = lastStart + intervalMs - performance.now();
      if (wait > 0 && !flushing) await coalesce(wait);
      lastStart = performance.now();
      const channels: string[] = [];
      const payloads: string[] = [];
      for (const [on, queued] of pending) {
        for (const payload of queued) {
          channels.push(on);
          payloads.push(payload);
        }
      }
      const ids = [...announcements];
      pending.clear();
      pendingCount = 0;
      announcements.clear();
      try {
        // One statement: what was sent and the rows that owed it go together (a failure keeps both).
        if (ids.length > 0) await sender.query(ANNOUNCE_AND_DELETE_SQL, [channels, payloads, ids]);
        else await sender.query(ANNOUNCE_SQL, [channels, payloads]);
        failures = 0;
      } catch (error: unknown) {
        for (const [index, payload] of payloads.entries()) queue(channels[index] as string, payload);
        // The table went away (a schema dropped and migrated again): its rows with it; send the rest.
        if (!isMissingAnnouncementsTable(error)) for (const id of ids) announcements.add(id);
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
      for (const payload of payloads) queue(channel, payload);
      if (announcement !== undefined && announcement !== null) announcements.add(announcement);
      start();
    },
    wake(on, payload) {
      queue(on, payload);
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
      flushing = true;
      hurry?.();
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      await sweeping;
      await running;
      if (pendingCount > 0) {
        start();
        await running;
      }
      closed = true;
    },
  };
}

/** The error of a statement that names migration 0017's table where it does not exist. */
export function isMissingAnnouncementsTable(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === '42P01' &&
    error.message.includes('content_announcements')
  );
}
