import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../storage/db.js';
import { isDatabaseUnavailable } from '../../storage/transient-retry.js';

/** Shortest sleep when work seems due but could not be claimed (another process holds it). */
export const MIN_RECHECK_MS = 25;

/** What a queue worker does in each pass of its loop. */
export interface QueueLoopOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** A notification on this channel (sent after a commit that queued work) wakes the loop at once. */
  channel: string;
  /** Fallback poll when no notification arrives (another process's work, a lost LISTEN connection). */
  pollIntervalMs: number;
  /** Claims and works off due work; resolves true when more may be due at once (a full batch). */
  pass(): Promise<boolean>;
  /** Milliseconds until the next work falls due (null: nothing queued); the loop sleeps at most the poll interval. */
  msUntilNextDue(): Promise<number | null>;
  /**
   * Logged, with the error, when a pass fails; the loop retries after the poll interval. At warn when
   * the database could not be reached (a restart, a failover: it passes), else at error.
   */
  failureMessage: string;
}

/** A running loop: one per worker and process. */
export interface QueueLoop {
  /** Subscribes to the channel and starts the loop (idempotent). */
  start(): Promise<void>;
  /** Stops after the pass under way, without waiting for the next sleep to end. */
  stop(): Promise<void>;
  /** Asks for a pass now. */
  wake(): void;
  /** False once stopping: passes check it between batches. */
  isRunning(): boolean;
}

/**
 * The loop shared by the durable queues (webhook deliveries, media purges), never on the request
 * path: a pass, then sleep until the next entry falls due, a notification arrives, or the poll
 * interval passes. Wake-ups sent while the LISTEN connection was lost were missed, so the loop also
 * wakes when it is back.
 */
export function createQueueLoop(options: QueueLoopOptions): QueueLoop {
  const { db, log, pollIntervalMs } = options;
  let running = false;
  let loop: Promise<void> | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let wakeRequested = false;
  let sleeper: { timer: NodeJS.Timeout; resolve: () => void } | null = null;

  const wake = (): void => {
    wakeRequested = true;
    if (!sleeper) return;
    clearTimeout(sleeper.timer);
    const { resolve } = sleeper;
    sleeper = null;
    resolve();
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sleeper = null;
        resolve();
      }, ms);
      sleeper = { timer, resolve };
    });

  const waitBeforeNextPass = async (): Promise<number> => {
    const dueInMs = await options.msUntilNextDue();
    if (dueInMs === null) return pollIntervalMs;
    return Math.min(pollIntervalMs, Math.max(MIN_RECHECK_MS, Math.ceil(dueInMs)));
  };

  const run = async (): Promise<void> => {
    while (running) {
      wakeRequested = false;
      let waitMs = pollIntervalMs;
      try {
        if (await options.pass()) wakeRequested = true;
        if (!wakeRequested && running) waitMs = await waitBeforeNextPass();
      } catch (error: unknown) {
        if (isDatabaseUnavailable(error)) log.warn({ err: error }, `${options.failureMessage} (database unavailable)`);
        else log.error({ err: error }, options.failureMessage);
      }
      if (running && !wakeRequested) await sleep(waitMs);
    }
  };

  return {
    async start() {
      if (running) return;
      running = true;
      const stopListening = await db.listen(options.channel, wake, (event) => {
        if (event.state === 'live') wake();
      });
      if (!running) {
        await stopListening(); // stopped while subscribing
        return;
      }
      unlisten = stopListening;
      loop = run();
    },
    async stop() {
      if (!running) return;
      running = false;
      await unlisten?.();
      unlisten = null;
      wake();
      await loop;
      loop = null;
    },
    wake,
    isRunning: () => running,
  };
}
