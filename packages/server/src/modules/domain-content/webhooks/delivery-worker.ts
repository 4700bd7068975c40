import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../storage/db.js';
import {
  claimDueDeliveries,
  findMsUntilNextDue,
} from '../../../storage/repositories/webhook-delivery-queue.repository.js';
import { WEBHOOK_TIMEOUT_MS } from '../../../webhooks/https-sender.js';
import { OUTBOX_CHANNEL } from '../outbox.js';
import { createQueueLoop } from '../queue-loop.js';
import { attemptDelivery } from './delivery-attempt.js';
import { fanOutEvents } from './fan-out.js';
import type { SecretBox } from './secret-box.js';

/** Waits after the n-th failed attempt: 3 attempts in total, initial, +1 s, +2 s (interface.md "Delivery behaviour"). */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000];
/** Fallback poll when no notification arrives (another process's events, lost LISTEN connection). */
export const POLL_INTERVAL_MS = 1_000;
/** How long a claimed delivery stays leased: above the attempt timeout, so only a dead process loses it. */
export const DELIVERY_LEASE_MS = 3 * WEBHOOK_TIMEOUT_MS;
/** Attempts one process runs at once; one slow receiver does not hold up the others. */
export const MAX_IN_FLIGHT = 16;
/** Fan-out batches per pass before the pass moves on to sending. */
const MAX_FAN_OUT_BATCHES_PER_PASS = 10;

/** Dependencies of the worker; the timing options exist for tests only. */
export interface DeliveryWorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  secretBox: SecretBox;
  allowPrivate: boolean;
  ca: string | undefined;
  /** CMS_DEV: accept self-signed receivers (never in production). */
  acceptAnyCertificate?: boolean;
  /** Defaults to WEBHOOK_TIMEOUT_MS (10 s, interface.md); tests shorten it. */
  attemptTimeoutMs?: number;
  pollIntervalMs?: number;
}

/** The delivery worker of one process. */
export interface DeliveryWorker {
  /** Starts the loop (idempotent: one loop per process). */
  start(): Promise<void>;
  /** Stops claiming, waits for attempts in flight to be recorded. */
  stop(): Promise<void>;
  /** Asks for a pass now (after a notification or a finished attempt). */
  wake(): void;
}

/**
 * One loop per process, never on the request path: fan out new outbox events into deliveries,
 * lease due deliveries (FOR UPDATE SKIP LOCKED, so processes sharing a database never take the same
 * one), start their attempts, then sleep until the next one falls due, a notification on
 * `cms_outbox` arrives, an attempt finishes, or the poll interval passes.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, log } = options;
  const pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS;
  const attemptContext = {
    db,
    log,
    secretBox: options.secretBox,
    allowPrivate: options.allowPrivate,
    ca: options.ca,
    acceptAnyCertificate: options.acceptAnyCertificate ?? false,
    timeoutMs: options.attemptTimeoutMs ?? WEBHOOK_TIMEOUT_MS,
    retryDelaysMs: RETRY_DELAYS_MS,
  };
  const inFlight = new Set<Promise<void>>();

  const track = (attempt: Promise<void>): void => {
    const tracked = attempt
      .catch((error: unknown) => log.error({ err: error }, 'webhook delivery attempt crashed'))
      .finally(() => {
        inFlight.delete(tracked);
        loop.wake();
      });
    inFlight.add(tracked);
  };

  /** Fans out new events, then starts attempts for due deliveries; true when a full batch was claimed. */
  const pass = async (): Promise<boolean> => {
    for (let batch = 0; batch < MAX_FAN_OUT_BATCHES_PER_PASS && loop.isRunning(); batch++) {
      const { events } = await fanOutEvents(db);
      if (events === 0) break;
    }
    const free = MAX_IN_FLIGHT - inFlight.size;
    if (free <= 0 || !loop.isRunning()) return false;
    const leaseToken = randomUUID();
    const claimed = await claimDueDeliveries(db, { limit: free, leaseMs: DELIVERY_LEASE_MS, leaseToken });
    for (const delivery of claimed) track(attemptDelivery(attemptContext, delivery, leaseToken));
    // A full batch may have left more due work behind.
    return claimed.length === free;
  };

  const loop = createQueueLoop({
    db,
    log,
    channel: OUTBOX_CHANNEL,
    pollIntervalMs,
    pass,
    // All slots busy: a finishing attempt wakes the loop.
    msUntilNextDue: async () => (inFlight.size >= MAX_IN_FLIGHT ? null : findMsUntilNextDue(db)),
    failureMessage: 'webhook delivery pass failed; retrying after the poll interval',
  });

  return {
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      await Promise.allSettled([...inFlight]);
    },
    wake: loop.wake,
  };
}
