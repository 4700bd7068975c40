/**
 * Retention of the change feed (docs/operations.md "Change feed retention"): changes that became
 * visible more than `CMS_CHANGES_RETENTION_DAYS` ago are removed, oldest first, a batch per
 * transaction, and each environment's head records the last position removed, so a cursor from before
 * it answers CHANGES_CURSOR_EXPIRED instead of silently missing what went.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.js';
import { createPeriodicPass, type PeriodicPass } from '../../../periodic-pass.js';
import type { Db } from '../../../storage/db.js';
import {
  listEnvironmentsWithChangesBefore,
  pruneChangesBefore,
} from '../../../storage/repositories/changes.repository.js';

/** Changes removed per transaction: short transactions, so the sequencer waits little. */
export const CHANGE_RETENTION_BATCH = 5000;
const DAY_MS = 86_400_000;

/** Removes changes older than the retention; returns how many went. */
export async function pruneChangeFeed(deps: {
  db: Db;
  clock: Clock;
  retentionDays: number;
  batch?: number;
}): Promise<number> {
  const batch = deps.batch ?? CHANGE_RETENTION_BATCH;
  if (deps.retentionDays <= 0) return 0;
  const cutoff = new Date(deps.clock().getTime() - deps.retentionDays * DAY_MS);
  let removed = 0;
  for (const scope of await listEnvironmentsWithChangesBefore(deps.db, cutoff)) {
    for (;;) {
      const count = await deps.db.transaction((tx) => pruneChangesBefore(tx, scope, cutoff, batch));
      removed += count;
      if (count < batch) break;
    }
  }
  return removed;
}

/** Runs retention every `intervalSeconds` in the background (never on the request path). */
export function createChangeRetention(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  retentionDays: number;
  intervalSeconds: number;
}): PeriodicPass {
  return createPeriodicPass({
    intervalSeconds: deps.retentionDays > 0 ? deps.intervalSeconds : 0,
    pass: () =>
      pruneChangeFeed(deps)
        .then((removed) => {
          if (removed > 0) deps.log.info({ removed }, 'change feed entries past their retention removed');
        })
        .catch((error: unknown) => deps.log.warn({ err: error }, 'change feed retention failed; it runs again later')),
  });
}
