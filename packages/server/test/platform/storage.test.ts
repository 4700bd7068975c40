import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServer } from '../../src/server.js';
import type { Db, Transaction } from '../../src/storage/db.js';
import { MIGRATIONS_DIR, migrate } from '../../src/storage/migrate.js';
import { openPgliteDb } from '../../src/storage/pglite-db.js';
import { createTestDatabase, testEngine } from '../support/test-database.js';
import { sendRequest } from '../support/test-server.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('apply once: a second run (a restart) applies nothing and keeps the data', async () => {
    const database = await createTestDatabase();
    await database.db.query("insert into projects (id, slug, name) values (gen_random_uuid(), 'kept', 'Kept')");
    expect(await migrate(database.db)).toEqual([]);
    const rows = await database.db.query('select slug from projects where slug = $1', ['kept']);
    expect(rows.rowCount).toBe(1);
    const applied = await database.db.query<{ id: string }>('select id from schema_migrations order by id');
    expect(applied.rows.map((r) => r.id)[0]).toBe('0001_create_projects_environments.sql');
    await database.close();
  });

  it('a start with nothing pending only reads the bookkeeping: no lock, no transaction', async () => {
    const database = await createTestDatabase();
    const statements: string[] = [];
    let transactions = 0;
    const watched = {
      ...database.db,
      query: (sql: string, params?: readonly unknown[]) => {
        statements.push(sql);
        return database.db.query(sql, params);
      },
      transaction: <T>(fn: (tx: Transaction) => Promise<T>) => {
        transactions += 1;
        return database.db.transaction(fn);
      },
    } as Db;
    expect(await migrate(watched)).toEqual([]);
    expect(transactions).toBe(0);
    expect(statements).toHaveLength(2);
    await database.close();
  });

  it('applies only the files not yet recorded, under the lock', async () => {
    const database = await createTestDatabase();
    // A directory of its own: the next deploy's new files, added between two starts.
    const dir = await mkdtemp(join(tmpdir(), 'cms-migrations-'));
    dirs.push(dir);
    await writeFile(join(dir, '0001_first.sql'), 'create table migrate_probe (id integer primary key);');
    expect(await migrate(database.db, pathToFileURL(`${dir}/`))).toEqual(['0001_first.sql']);
    await writeFile(join(dir, '0002_second.sql'), 'insert into migrate_probe (id) values (1);');
    expect(await migrate(database.db, pathToFileURL(`${dir}/`))).toEqual(['0002_second.sql']);
    expect(await migrate(database.db, pathToFileURL(`${dir}/`))).toEqual([]);
    const probe = await database.db.query('select id from migrate_probe');
    expect(probe.rows).toEqual([{ id: 1 }]);
    await database.close();
  });

  it('two processes migrating at once apply each file once', async () => {
    if (testEngine() !== 'postgres') return; // PGlite is one process by construction
    const database = await createTestDatabase();
    await database.db.query('drop schema public cascade');
    await database.db.query('create schema public');
    const { openPostgresDb } = await import('../../src/storage/postgres-db.js');
    const other = await openPostgresDb({ connectionString: database.url as string, max: 2 });
    const [a, b] = await Promise.all([migrate(database.db), migrate(other)]);
    const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
    expect([...a, ...b].sort()).toEqual(files);
    await other.close();
    await database.close();
  });
});

describe('embedded default (PGlite in the data dir)', () => {
  it('keeps data across a restart and bootstraps the default project only once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cms-persist-'));
    dirs.push(dataDir);
    const config = loadConfig({ PORT: '0', CMS_DATA_DIR: dataDir, LOG_LEVEL: 'silent', CMS_DEFAULT_PROJECT: 'site' });
    expect(config.databaseUrl).toBeNull();

    const first = await createServer(config);
    expect(first.db.engine).toBe('pglite');
    await first.db.query("insert into projects (id, slug, name) values (gen_random_uuid(), 'second', 'Second')");
    await first.close();

    const second = await createServer(config);
    const url = await second.listen();
    const rows = await second.db.query<{ slug: string }>('select slug from projects order by slug');
    expect(rows.rows.map((r) => r.slug)).toEqual(['second', 'site']);
    const environments = await second.db.query('select name from environments');
    expect(environments.rowCount).toBe(1);
    const health = await sendRequest(url, null, 'GET', '/readyz');
    expect(health.body).toEqual({ status: 'ok', database: 'pglite' });
    await second.close();
  }, 60_000);

  it("sizes the buffer cache by CMS_PGLITE_SHARED_BUFFERS_MB (16 MB by default, not PGlite's 128 MB) and caps the WAL", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cms-buffers-'));
    dirs.push(dataDir);
    const base = { PORT: '0', CMS_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const bufferCache = async (env: Record<string, string>) => {
      const server = await createServer(loadConfig({ ...base, ...env }));
      try {
        const { rows } = await server.db.query<{ buffers: string; wal: string; level: string }>(
          `select current_setting('shared_buffers') as buffers, current_setting('max_wal_size') as wal,
             current_setting('wal_level') as level`,
        );
        return rows[0];
      } finally {
        await server.close();
      }
    };
    // PGlite's own max_wal_size is 1 GB: a bulk import grew pg_wal towards it (docs/operations.md).
    expect(await bufferCache({})).toEqual({ buffers: '16MB', wal: '64MB', level: 'minimal' });
    expect((await bufferCache({ CMS_PGLITE_SHARED_BUFFERS_MB: '64' }))?.buffers).toBe('64MB');
    expect(() => loadConfig({ ...base, CMS_PGLITE_SHARED_BUFFERS_MB: '0' })).toThrow(/CMS_PGLITE_SHARED_BUFFERS_MB/);
  }, 60_000);

  it('leaves no spare WAL segments behind: a bulk write does not keep tens of MB of pg_wal on disk', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cms-wal-'));
    dirs.push(dataDir);
    const db = await openPgliteDb({ dataDir, sharedBuffersMb: 16 });
    await db.query('create table bulk (id int primary key, body text)');
    // About 100 MB of WAL: past max_wal_size (64 MB), so checkpoints run and old segments are retired.
    for (let batch = 0; batch < 20; batch += 1) {
      await db.query(
        `insert into bulk select g, repeat(md5(g::text), 45) from generate_series(${batch * 2000 + 1}, ${(batch + 1) * 2000}) g`,
      );
    }
    await db.close();
    // Recycled segments (PostgreSQL's default) would stay as 16 MB files up to max_wal_size; removed ones go.
    const segments = (await readdir(join(dataDir, 'pg_wal'))).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(segments.length).toBeLessThanOrEqual(2);
  }, 60_000);
});
