import { join } from 'node:path';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB, type ServerConfig } from '../config.js';
import type { Db } from './db.js';
import { prepareFirstStart } from './pglite-first-start.js';

/** Opens the database the configuration names: PostgreSQL, or PGlite in the data dir. */
export async function openDb(
  config: Pick<ServerConfig, 'databaseUrl' | 'databasePoolMax' | 'dataDir'> &
    Partial<Pick<ServerConfig, 'pgliteSharedBuffersMb'>>,
): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgresDb } = await import('./postgres-db.js');
    return openPostgresDb({ connectionString: config.databaseUrl, max: config.databasePoolMax });
  }
  const dataDir = join(config.dataDir, 'db');
  const sharedBuffersMb = config.pgliteSharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB;
  await prepareFirstStart({ dataDir, sharedBuffersMb });
  const { openPgliteDb } = await import('./pglite-db.js');
  return openPgliteDb({ dataDir, sharedBuffersMb });
}
