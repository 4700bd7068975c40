import { CmsError } from '@cms/core';
import { defineAction } from '../../actions/define-action.js';
import type { Db } from '../../storage/db.js';

const healthSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, database: { type: 'string' } },
};

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
export function healthActions(db: Db, isShuttingDown: () => boolean) {
  return [
    defineAction({
      id: 'health.live',
      kind: 'query',
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: the process is up',
      permissions: [],
      target: 'none',
      auth: 'public',
      response: { status: 200, envelope: 'raw', schema: healthSchema },
      handler: async () => ({ status: 'ok' }),
    }),
    defineAction({
      id: 'health.ready',
      kind: 'query',
      method: 'GET',
      path: '/readyz',
      summary: 'Readiness: the database answers and the server is not shutting down',
      permissions: [],
      target: 'none',
      auth: 'public',
      response: { status: 200, envelope: 'raw', schema: healthSchema },
      handler: async () => {
        if (isShuttingDown()) throw new CmsError('SERVICE_UNAVAILABLE', 'The server is shutting down.');
        try {
          await db.query('select 1');
        } catch {
          throw new CmsError('SERVICE_UNAVAILABLE', 'The database does not answer.');
        }
        return { status: 'ok', database: db.engine };
      },
    }),
  ];
}
