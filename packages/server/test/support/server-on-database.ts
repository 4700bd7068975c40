import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '@cms/core';
import { loadConfig } from '../../src/config.js';
import { generateApiKey } from '../../src/modules/core-system/api-key-secret.js';
import { type CmsServer, createServer } from '../../src/server.js';
import { insertApiKey } from '../../src/storage/repositories/api-keys.repository.js';
import type { TestDatabase } from './test-database.js';
import { type RequestOptions, sendRequest, TEST_SECRET, type TestResponse } from './test-server.js';

/** A server started on a database that outlives it (restarts, several processes on one database). */
export interface ServerOnDatabase {
  url: string;
  server: CmsServer;
  adminKey: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Stops the server (gracefully, as on SIGTERM); the shared database stays open. */
  close(): Promise<void>;
}

/**
 * Starts a server on an existing test database. With `ownConnection` (PostgreSQL only) the server
 * opens its own pool from the database's URL, as a second server process would; otherwise it uses
 * the database's `db` (on PGlite that is the only way: one instance cannot be shared by processes).
 */
export async function startServerOn(
  database: TestDatabase,
  options: { env?: Record<string, string>; ownConnection?: boolean } = {},
): Promise<ServerOnDatabase> {
  if (options.ownConnection && !database.url) throw new Error('ownConnection needs a PostgreSQL test database');
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-data-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_DATA_DIR: dataDir,
    CMS_SECRET: TEST_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(options.ownConnection ? { DATABASE_URL: database.url as string, DATABASE_POOL_MAX: '4' } : {}),
    ...options.env,
  });
  const server = await createServer(config, options.ownConnection ? {} : { db: database.db });
  const url = await server.listen();
  const { apiKey, prefix, secretHash } = generateApiKey('live');
  await insertApiKey(database.db, {
    id: randomUUID(),
    kind: 'live',
    label: 'test key',
    prefix,
    secretHash,
    scopes: [...SCOPES],
    contextAllowlist: [{ project: '*', environment: '*' }],
    createdBy: null,
    expiresAt: null,
  });
  return {
    url,
    server,
    adminKey: apiKey,
    request: (method, path, requestOptions = {}) => sendRequest(url, apiKey, method, path, requestOptions),
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
