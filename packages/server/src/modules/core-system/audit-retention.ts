import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { createPeriodicPass, type PeriodicPass } from '../../periodic-pass.js';
import type { Db } from '../../storage/db.js';
import { listChainsOlderThan, pruneOldest } from '../../storage/repositories/audit.repository.js';

/** Entries removed per transaction: short transactions, so appends to the chain wait little. */
export const AUDIT_RETENTION_BATCH = 1000;
const DAY_MS = 86_400_000;

/**
 * Removes entries older than the retention, oldest first, a batch per transaction, recording in each
 * chain's head where it was cut (verification starts there). Returns how many went.
 */
export async function pruneAuditLog(deps: {
  db: Db;
  clock: Clock;
  retentionDays: number;
  batch?: number;
}): Promise<number> {
  const batch = deps.batch ?? AUDIT_RETENTION_BATCH;
  if (deps.retentionDays <= 0) return 0;
  const cutoff = new Date(deps.clock().getTime() - deps.retentionDays * DAY_MS);
  let removed = 0;
  for (const chain of await listChainsOlderThan(deps.db, cutoff)) {
    for (;;) {
      const count = await deps.db.transaction((tx) => pruneOldest(tx, chain, cutoff, batch));
      removed += count;
      if (count < batch) break;
    }
  }
  return removed;
}

/** Runs retention every `intervalSeconds` in the background (never on the request path). */
export function createAuditRetention(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  retentionDays: number;
  intervalSeconds: number;
}): PeriodicPass {
  return createPeriodicPass({
    intervalSeconds: deps.retentionDays > 0 ? deps.intervalSeconds : 0,
    pass: () =>
      pruneAuditLog(deps)
        .then((removed) => {
          if (removed > 0) deps.log.info({ removed }, 'audit entries past their retention removed');
        })
        .catch((error: unknown) => deps.log.warn({ err: error }, 'audit retention failed; it runs again later')),
  });
}
