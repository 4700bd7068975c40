import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES, type Scope } from '@cms/core';
import { loadConfig, type ServerConfig } from '../../src/config.js';
import type { LogStream } from '../../src/http/create-app.js';
import { generateApiKey } from '../../src/modules/core-system/api-key-secret.js';
import type { ServerModule } from '../../src/modules/module-types.js';
import { type CmsServer, createServer } from '../../src/server.js';
import type { Db } from '../../src/storage/db.js';
import { type AllowlistEntry, insertApiKey } from '../../src/storage/repositories/api-keys.repository.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** A real server on a free loopback port with its own database and data dir. */
export interface TestServer {
  url: string;
  server: CmsServer;
  db: Db;
  database: TestDatabase;
  config: ServerConfig;
  dataDir: string;
  /** A key with every scope in every project and environment. */
  adminKey: string;
  /** Creates an API key directly in the database. */
  createKey(options?: {
    scopes?: readonly Scope[];
    allowlist?: AllowlistEntry[];
    expiresAt?: Date | null;
  }): Promise<string>;
  /** Sends a request; JSON bodies are serialised, JSON answers parsed. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string | null;
  project?: string | null;
  environment?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string | Uint8Array;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export const TEST_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';
export const TEST_PREVIEW_SECRET = 'test-preview-secret-0123456789abcdef0123';

/** Starts a server for a test file; pass env to override settings. */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    modules?: readonly ServerModule[];
    clock?: () => Date;
    /** Receives the server's log lines (set LOG_LEVEL in env to have any). */
    logStream?: LogStream;
  } = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-data-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_DATA_DIR: dataDir,
    CMS_SECRET: TEST_SECRET,
    CMS_PREVIEW_TOKEN_SECRET: TEST_PREVIEW_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests make their own keys; the first-start key has its own test (platform/first-start).
    CMS_DEV_KEY: 'false',
    // Tests sign in far more often than people; the rate limit has its own test (platform/rate-limits).
    CMS_RATE_LIMIT_PER_MINUTE: '0',
    ...options.env,
  });
  const server = await createServer(config, {
    db: database.db,
    ...(options.modules ? { modules: options.modules } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  const url = await server.listen();
  const createKey: TestServer['createKey'] = async (keyOptions = {}) => {
    const { apiKey, prefix, secretHash } = generateApiKey('live');
    await insertApiKey(database.db, {
      id: randomUUID(),
      kind: 'live',
      label: 'test key',
      prefix,
      secretHash,
      scopes: [...(keyOptions.scopes ?? SCOPES)],
      contextAllowlist: keyOptions.allowlist ?? [{ project: '*', environment: '*' }],
      createdBy: null,
      expiresAt: keyOptions.expiresAt ?? null,
    });
    return apiKey;
  };
  const adminKey = await createKey();
  const request: TestServer['request'] = (method, path, requestOptions = {}) =>
    sendRequest(url, adminKey, method, path, requestOptions);
  return {
    url,
    server,
    db: database.db,
    database,
    config,
    dataDir,
    adminKey,
    createKey,
    request,
    async close() {
      await server.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Sends one HTTP request with the routing headers defaulting to the default project. */
export async function sendRequest(
  baseUrl: string,
  defaultKey: string | null,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? defaultKey : options.key;
  if (key) headers.authorization = `Bearer ${key}`;
  const project = options.project === undefined ? 'default' : options.project;
  const environment = options.environment === undefined ? 'production' : options.environment;
  if (project) headers['x-cms-project'] = project;
  if (environment) headers['x-cms-environment'] = environment;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = null;
  if (text && response.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed, text };
}
