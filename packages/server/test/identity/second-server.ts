import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { LogStream } from '../../src/http/create-app.js';
import { type CmsServer, createServer } from '../../src/server.js';
import type { Db } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import type { TestDatabase } from '../support/test-database.js';
import { type RequestOptions, sendRequest, TEST_SECRET, type TestResponse } from '../support/test-server.js';

/** Another server on an existing test database: a restart, or a second process beside the first. */
export interface SecondServer {
  url: string;
  server: CmsServer;
  db: Db;
  /** Sends a request with `key` (default: none) and the default routing headers. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Stops the server; closes only a connection it opened itself, never the shared database. */
  close(): Promise<void>;
}

/**
 * Starts a server on `database`. With `ownConnection` on PostgreSQL it opens its own pool (and its
 * own LISTEN connection), like a separate process would; PGlite is shared in-process.
 */
export async function startSecondServer(
  database: TestDatabase,
  options: { env?: Record<string, string>; ownConnection?: boolean; logStream?: LogStream; key?: string | null } = {},
): Promise<SecondServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-data-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_DATA_DIR: dataDir,
    CMS_SECRET: TEST_SECRET,
    CMS_PREVIEW_TOKEN_SECRET: 'test-preview-secret-0123456789abcdef0123',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  const ownDb =
    options.ownConnection && database.url ? await openPostgresDb({ connectionString: database.url, max: 5 }) : null;
  const db = ownDb ?? database.db;
  const server = await createServer(config, { db, ...(options.logStream ? { logStream: options.logStream } : {}) });
  const url = await server.listen();
  return {
    url,
    server,
    db,
    request: (method, path, requestOptions = {}) => sendRequest(url, options.key ?? null, method, path, requestOptions),
    async close() {
      await server.close();
      await ownDb?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
