import { CmsError, healthLiveRoute, healthReadyRoute } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import { type Db, READ_ONLY } from '../../storage/db.js';

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
export function healthActions(db: Db, isShuttingDown: () => boolean) {
  return [
    defineAction({
      route: healthLiveRoute,
      permissions: [],
      handler: async () => ({ status: 'ok' }),
    }),
    defineAction({
      route: healthReadyRoute,
      permissions: [],
      handler: async () => {
        if (isShuttingDown()) throw new CmsError('SERVICE_UNAVAILABLE', 'The server is shutting down.');
        try {
          // A probe writes nothing: a pooled connection the server closed is replaced, not reported.
          await db.query('select 1', [], READ_ONLY);
        } catch (cause: unknown) {
          const error = new CmsError('SERVICE_UNAVAILABLE', 'The database does not answer.');
          error.cause = cause;
          throw error;
        }
        return { status: 'ok', database: db.engine };
      },
    }),
  ];
}
