import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.js';
import type { Db } from '../../../storage/db.js';
import { createQueueLoop } from '../queue-loop.js';
import { RELEASES_CHANNEL, type ReleasesService } from './releases.service.js';

/** The due-release poller of one process. */
export interface ReleasePoller {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Publishes scheduled releases when their time comes, in every server process (docs/operations.md
 * "Scheduled releases"). Each pass claims one due release with FOR UPDATE SKIP LOCKED and publishes
 * it in that transaction, so two processes never take the same one and a process killed mid-publish
 * leaves it scheduled for the next pass. A release whose publish throws is set aside for a while
 * (`HOLD_BACK_MS`) so the ones due after it still go out. Due-ness follows the server's clock
 * (`createServer({ clock })`). It sleeps until the soonest scheduled instant, a schedule change
 * (`cms_releases`) or the poll interval.
 */
export function createReleasePoller(options: {
  db: Db;
  log: FastifyBaseLogger;
  clock: Clock;
  releases: ReleasesService;
  pollIntervalMs: number;
}): ReleasePoller {
  const { db, clock, releases, pollIntervalMs } = options;
  const loop = createQueueLoop({
    db,
    log: options.log,
    channel: RELEASES_CHANNEL,
    pollIntervalMs,
    pass: async () => loop.isRunning() && (await releases.runOneDue()),
    msUntilNextDue: async () => {
      const next = await releases.nextDueAt();
      return next === null ? null : next.getTime() - clock().getTime();
    },
    failureMessage: 'due-release pass failed; retrying after the poll interval',
  });
  return {
    async start() {
      if (pollIntervalMs > 0) await loop.start();
    },
    stop: () => loop.stop(),
  };
}
