import { LISTEN_CONNECTION_MARK } from '../../src/storage/postgres-listener.js';

/**
 * SQL condition on `pg_stat_activity` that holds for a server's LISTEN connection: its last statement
 * is a LISTEN, or one of the statements it marks with LISTEN_CONNECTION_MARK (announcements, heartbeat).
 * Tests end the LISTEN connection alone with it, or spare it with `not ${IS_LISTEN_BACKEND}`.
 */
export const IS_LISTEN_BACKEND = `(query ilike 'listen %' or query like '${LISTEN_CONNECTION_MARK.trim()}%')`;
