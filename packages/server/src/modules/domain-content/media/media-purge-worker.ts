import type { FastifyBaseLogger } from 'fastify';
import type { MediaStorage } from '../../../media/media-storage.js';
import type { Db } from '../../../storage/db.js';
import {
  claimDueMediaPurges,
  deferMediaPurge,
  deleteMediaPurges,
  deleteMediaPurgesByKey,
  findMsUntilNextMediaPurge,
  MEDIA_PURGE_CHANNEL,
  type MediaPurgeRow,
} from '../../../storage/repositories/media.repository.js';
import { createQueueLoop } from '../queue-loop.js';

/** Queue entries one claim leases. */
export const MEDIA_PURGE_BATCH_SIZE = 100;
/** Objects of one batch deleted at once. */
export const MEDIA_PURGE_CONCURRENCY = 8;
/** How long a claimed entry stays leased: far above a batch's deletes, so only a dead process loses it. */
export const MEDIA_PURGE_LEASE_MS = 5 * 60_000;
/** Wait after the first failed attempt of an entry; doubled after each further one, up to the cap. */
export const MEDIA_PURGE_RETRY_BASE_MS = 10_000;
export const MEDIA_PURGE_RETRY_MAX_MS = 60 * 60_000;
/** Longest error message kept in `media_purge_queue.last_error`. */
const MAX_ERROR_CHARS = 1_000;

/** Dependencies of the worker. */
export interface MediaPurgeWorkerOptions {
  db: Db;
  storage: MediaStorage;
  log: FastifyBaseLogger;
  /** `CMS_MEDIA_PURGE_INTERVAL_SECONDS` in ms: the fallback poll; 0 means this process runs no loop. */
  pollIntervalMs: number;
}

/** The purge worker of one process. */
export interface MediaPurgeWorker {
  /** Starts the loop (idempotent; nothing when the poll interval is 0). */
  start(): Promise<void>;
  /** Stops claiming and waits for the batch in progress. */
  stop(): Promise<void>;
  /** Asks for a pass now. */
  wake(): void;
  /**
   * Deletes one object whose row was just deleted (its entry queued in that commit), then its
   * entry. A failure is logged and left in the queue, where the loop retries it.
   */
  purgeNow(storageKey: string): Promise<void>;
}

/** Backoff after the n-th failed attempt of an entry. */
export function mediaPurgeRetryDelayMs(attempts: number): number {
  return Math.min(MEDIA_PURGE_RETRY_MAX_MS, MEDIA_PURGE_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Deletes the objects of deleted media rows, never on the request path. The rows' keys reach the
 * queue in the deleting transaction (migration 0012); this loop leases due entries (FOR UPDATE
 * SKIP LOCKED, so processes sharing a database never take the same one), deletes each object
 * through the media driver (a missing one counts as deleted), removes the entries of the deleted
 * ones and pushes the others back by a growing delay. It sleeps until the next entry is due, a
 * notification on `cms_media_purge` arrives (an environment delete committed), or the poll interval passes.
 */
export function createMediaPurgeWorker(options: MediaPurgeWorkerOptions): MediaPurgeWorker {
  const { db, storage, log, pollIntervalMs } = options;

  /** Deletes one entry's object; a missing object counts as deleted (MediaStorage.delete). */
  const deleteObject = async (
    entry: MediaPurgeRow,
  ): Promise<{ entry: MediaPurgeRow; ok: boolean; error?: unknown }> => {
    try {
      await storage.delete(entry.storageKey);
      return { entry, ok: true };
    } catch (error: unknown) {
      return { entry, ok: false, error };
    }
  };

  /** Claims one batch and works it off; returns how many entries it claimed. */
  const purgeBatch = async (): Promise<number> => {
    const claimed = await claimDueMediaPurges(db, { limit: MEDIA_PURGE_BATCH_SIZE, leaseMs: MEDIA_PURGE_LEASE_MS });
    const purged: MediaPurgeRow[] = [];
    for (let start = 0; start < claimed.length; start += MEDIA_PURGE_CONCURRENCY) {
      const outcomes = await Promise.all(claimed.slice(start, start + MEDIA_PURGE_CONCURRENCY).map(deleteObject));
      for (const { entry, ok, error } of outcomes) {
        if (ok) {
          purged.push(entry);
          continue;
        }
        const delayMs = mediaPurgeRetryDelayMs(entry.attempts);
        log.warn(
          { err: error, storageKey: entry.storageKey, attempts: entry.attempts, retryInMs: delayMs },
          'could not delete a media object of a deleted asset or environment; will retry',
        );
        await deferMediaPurge(db, { id: entry.id, delayMs, error: errorText(error) });
      }
    }
    await deleteMediaPurges(
      db,
      purged.map((entry) => entry.id),
    );
    if (purged.length > 0) {
      log.info(
        { purged: purged.length, storageKeys: purged.map((entry) => entry.storageKey) },
        'purged media objects of deleted assets or environments',
      );
    }
    return claimed.length;
  };

  const loop = createQueueLoop({
    db,
    log,
    channel: MEDIA_PURGE_CHANNEL,
    pollIntervalMs,
    // A full batch may have left more due entries behind.
    pass: async () => loop.isRunning() && (await purgeBatch()) === MEDIA_PURGE_BATCH_SIZE,
    msUntilNextDue: () => findMsUntilNextMediaPurge(db),
    failureMessage: 'media purge pass failed; retrying after the poll interval',
  });

  return {
    async start() {
      if (pollIntervalMs > 0) await loop.start();
    },
    stop: () => loop.stop(),
    wake: loop.wake,
    async purgeNow(storageKey) {
      try {
        await storage.delete(storageKey);
        await deleteMediaPurgesByKey(db, storageKey);
      } catch (error: unknown) {
        log.warn(
          { err: error, storageKey },
          'could not delete the object of a deleted media asset; the purge retries it',
        );
      }
    },
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_CHARS);
}
