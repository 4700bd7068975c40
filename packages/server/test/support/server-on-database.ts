import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '@cms/core';
import { loadConfig } from '../../src/config.js';
import type { LogStream } from '../../src/http/create-app.js';
import { generateApiKey } from '../../src/modules/core-system/api-key-secret.js';
import type { ServerModule } from '../../src/modules/module-types.js';
import { type CmsServer, createServer } from '../../src/server.js';
import { insertApiKey } from '../../src/storage/repositories/api-keys.repository.js';
import type { TestDatabase } from './test-database.js';
import {
  type RequestOptions,
  sendRequest,
  TEST_PREVIEW_SECRET,
  TEST_SECRET,
  type TestResponse,
} from './test-server.js';

/** A server started on a database that outlives it (restarts, several processes on one database). */
export interface ServerOnDatabase {
  url: string;
  server: CmsServer;
  /** A key with every scope everywhere, inserted into the database. */
  adminKey: string;
  /** Sends a request with the default key (`options.key` when given, else the admin key). */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Stops the server (gracefully, as on SIGTERM); the shared database stays open. */
  close(): Promise<void>;
}

/**
 * Starts a server on an existing test database. With `ownConnection` (PostgreSQL only) the server
 * opens its own pool from the database's URL, as a second server process would; otherwise, and
 * always on PGlite (one instance cannot be shared by processes), it uses the database's `db`.
 */
export async function startServerOn(
  database: TestDatabase,
  options: {
    env?: Record<string, string>;
    ownConnection?: boolean;
    logStream?: LogStream;
    key?: string | null;
    clock?: () => Date;
    /** The modules to load instead of the first-party ones (module tests). */
    modules?: readonly ServerModule[];
  } = {},
): Promise<ServerOnDatabase> {
  // On PGlite one instance cannot be shared by processes, so the server shares the database's db.
  const ownUrl = options.ownConnection ? database.url : null;
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-data-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_DATA_DIR: dataDir,
    CMS_SECRET: TEST_SECRET,
    CMS_PREVIEW_TOKEN_SECRET: TEST_PREVIEW_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests sign in far more often than people; the rate limit has its own test (platform/rate-limits).
    CMS_RATE_LIMIT_PER_MINUTE: '0',
    ...(ownUrl ? { DATABASE_URL: ownUrl, DATABASE_POOL_MAX: '4' } : {}),
    ...options.env,
  });
  const server = await createServer(config, {
    ...(ownUrl ? {} : { db: database.db }),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.modules ? { modules: options.modules } : {}),
  });
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
    request: (method, path, requestOptions = {}) =>
      sendRequest(url, options.key === undefined ? apiKey : options.key, method, path, requestOptions),
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
