import type { Db } from '../storage/db.js';
import type { AuditRecorder } from './audit-recorder.js';
import { openAuditScope } from './audit-scope.js';

/**
 * The database as services see it: a transaction that commits inside an action's audit scope writes
 * the action's entry first, in the same transaction (docs/audit.md "How entries are written"). One
 * entry per action: the first transaction to commit writes it; a retried transaction writes it again
 * in its new attempt, as the old attempt's was rolled back with it.
 */
export function auditedDb(db: Db, recorder: AuditRecorder): Db {
  return {
    engine: db.engine,
    query: (sql, params, options) => db.query(sql, params, options),
    transaction: async (fn) => {
      let wrote = null as ReturnType<typeof openAuditScope>;
      const result = await db.transaction(async (tx) => {
        wrote = null;
        const value = await fn(tx);
        const scope = openAuditScope();
        if (scope) {
          await recorder.writeScope(tx, scope, scope.outcome);
          wrote = scope;
        }
        return value;
      });
      if (wrote) wrote.written = true;
      return result;
    },
    listen: (channel, handler, onEvent) => db.listen(channel, handler, onEvent),
    notify: (queryable, channel, payload) => db.notify(queryable, channel, payload),
    wake: (queryable, channel, payload) => db.wake(queryable, channel, payload),
    close: () => db.close(),
  };
}
