/**
 * The built server (`packages/server/dist/main.js`) as a child process, as production runs it:
 * started on a data dir or a PostgreSQL database, stopped gracefully or killed with SIGKILL.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCOPES } from '@cms/core';
import { generateApiKey } from '../../src/modules/core-system/api-key-secret.js';
import type { Db } from '../../src/storage/db.js';
import { migrate } from '../../src/storage/migrate.js';
import { openDb } from '../../src/storage/open-db.js';
import { insertApiKey } from '../../src/storage/repositories/api-keys.repository.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import { TEST_PREVIEW_SECRET, TEST_SECRET } from '../support/test-server.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Builds the server (esbuild, under a second) so the child runs the sources under test. */
export function ensureBuilt(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every log line the process printed. */
  logs: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `node dist/main.js` with `env` and resolves once it listens. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      CMS_SECRET: TEST_SECRET,
      CMS_PREVIEW_TOKEN_SECRET: TEST_PREVIEW_SECRET,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('\n')}`)), 90_000);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        let entry: { address?: unknown } | null = null;
        try {
          entry = JSON.parse(line);
        } catch {}
        if (typeof entry?.address === 'string' && entry.address.startsWith('http')) {
          clearTimeout(timer);
          resolve({
            url: entry.address,
            child,
            logs,
            async kill(signal) {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              await exited;
            },
          });
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString('utf8')));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening:\n${logs.join('\n')}`));
    });
  });
}

/** Inserts an API key with every scope everywhere; returns it. */
export async function insertAdminKey(db: Db): Promise<string> {
  const { apiKey, prefix, secretHash } = generateApiKey('live');
  await insertApiKey(db, {
    id: randomUUID(),
    kind: 'live',
    label: 'reliability key',
    prefix,
    secretHash,
    scopes: [...SCOPES],
    contextAllowlist: [{ project: '*', environment: '*' }],
    createdBy: null,
    expiresAt: null,
  });
  return apiKey;
}

/** Prepares an embedded data dir (database migrated, admin key inserted) the child then opens. */
export async function prepareDataDir(dataDir: string): Promise<string> {
  const db = await openDb({ databaseUrl: null, databasePoolMax: 1, dataDir });
  try {
    await migrate(db);
    return await insertAdminKey(db);
  } finally {
    await db.close();
  }
}

/** What a child server runs on for the engine under test, with an admin key to call it. */
export interface ServerStore {
  dataDir: string;
  /** The child's environment: the data dir, and on PostgreSQL the database. */
  env: Record<string, string>;
  key: string;
  /** The PostgreSQL test database, null on PGlite (the child owns the data dir). */
  database: TestDatabase | null;
  /** Closes the database and removes the data dir. */
  remove(): Promise<void>;
}

/** A fresh data dir (a prepared embedded database, or with `TEST_DATABASE_URL` a fresh PostgreSQL one). */
export async function prepareServerStore(prefix: string): Promise<ServerStore> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  const remove = async (database: TestDatabase | null) => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  if (testEngine() === 'postgres') {
    const database = await createTestDatabase();
    const key = await insertAdminKey(database.db);
    const env = { CMS_DATA_DIR: dataDir, DATABASE_URL: database.url as string, DATABASE_POOL_MAX: '5' };
    return { dataDir, env, key, database, remove: () => remove(database) };
  }
  const key = await prepareDataDir(dataDir);
  return { dataDir, env: { CMS_DATA_DIR: dataDir }, key, database: null, remove: () => remove(null) };
}
