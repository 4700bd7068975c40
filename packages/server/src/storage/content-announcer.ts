/**
 * Announces committed content changes to the other processes (`pg_notify` on `cms_invalidate`),
 * batched: at most one announcing statement in flight per process, carrying every payload queued
 * while the previous one ran, so concurrent writers never wait on PostgreSQL's lock that serialises
 * notifying commits. A failed announcement is retried with backoff until it goes through or the
 * database closes.
 */
import type { Queryable } from './db.js';

const RETRY_BASE_MS = 20;
const RETRY_MAX_MS = 2_000;

export interface ContentAnnouncer {
  /** Queues payloads for `channel`; returns at once. */
  announce(payloads: readonly string[]): void;
  /** Sends what is queued (once), for a graceful close. */
  flush(): Promise<void>;
}

export function createContentAnnouncer(db: Queryable, channel: string): ContentAnnouncer {
  const pending = new Set<string>();
  let running: Promise<void> | null = null;
  let closed = false;

  const send = async (): Promise<void> => {
    let failures = 0;
    while (pending.size > 0 && !closed) {
      const batch = [...pending];
      pending.clear();
      try {
        await db.query('select pg_notify($1, payload) from unnest($2::text[]) as payload', [channel, batch]);
        failures = 0;
      } catch {
        for (const payload of batch) pending.add(payload);
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

  return {
    announce(payloads) {
      if (payloads.length === 0) return;
      for (const payload of payloads) pending.add(payload);
      start();
    },
    async flush() {
      await running;
      if (pending.size > 0) {
        start();
        await running;
      }
      closed = true;
    },
  };
}
