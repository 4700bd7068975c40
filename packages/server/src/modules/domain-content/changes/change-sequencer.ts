/**
 * The sequencer of the change feed (docs/architecture.md "The change feed"): numbers committed changes
 * after their transactions commit, so the feed's order is the order changes became visible. Each
 * numbering is a short transaction of its own under the lock of the environment's head row; the
 * outbox worker runs it after each commit it hears of, and a feed read runs it first when changes wait,
 * so a reader sees a change as soon as its write has answered.
 */
import type { Db } from '../../../storage/db.js';
import {
  listEnvironmentsWithPendingChanges,
  numberPendingChanges,
} from '../../../storage/repositories/changes.repository.js';
import type { Scope } from '../../../storage/repositories/document-row.js';

/** Changes numbered per transaction: a 10,000-document release takes one. */
export const NUMBERING_BATCH = 10_000;

/** Numbers every committed change of one environment still without a position; returns how many. */
export async function numberEnvironmentChanges(db: Db, scope: Scope, batch = NUMBERING_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const numbered = await db.transaction((tx) => numberPendingChanges(tx, scope, batch));
    total += numbered;
    if (numbered < batch) return total;
  }
}

/** Numbers the waiting changes of every environment (the outbox worker, before it fans events out). */
export async function numberAllPendingChanges(db: Db): Promise<number> {
  let total = 0;
  for (const scope of await listEnvironmentsWithPendingChanges(db)) total += await numberEnvironmentChanges(db, scope);
  return total;
}
