import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './db.js';

/** Numbered SQL files, the same for PGlite and PostgreSQL; forward only. */
export const MIGRATIONS_DIR = new URL('../../migrations/', import.meta.url);

// Any constant works; it only has to be the same in every process of this service.
const MIGRATION_LOCK_KEY = 7_312_001;
const MIGRATION_FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

/**
 * Applies pending migrations, each in its own transaction together with its bookkeeping row.
 * A transaction-level advisory lock makes two processes starting at once apply each file once.
 * A start with nothing pending costs two reads and no transaction.
 */
export async function migrate(db: Db, dir: URL = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort();
  const done = await appliedMigrations(db);
  const applied: string[] = [];
  for (const file of files) {
    // Seen as applied without the lock is final: bookkeeping rows are never removed.
    if (done.has(file)) continue;
    const sql = await readFile(new URL(file, dir), 'utf8');
    const didApply = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.query(
        'create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())',
      );
      const done = await tx.query('select 1 from schema_migrations where id = $1', [file]);
      if (done.rowCount > 0) return false;
      await tx.exec(sql);
      await tx.query('insert into schema_migrations (id) values ($1)', [file]);
      return true;
    });
    if (didApply) applied.push(file);
  }
  return applied;
}

/** The migrations recorded as applied, read without the lock (none before the first migration). */
async function appliedMigrations(db: Db): Promise<Set<string>> {
  const table = await db.query<{ present: boolean }>("select to_regclass('schema_migrations') is not null as present");
  if (!table.rows[0]?.present) return new Set();
  const rows = await db.query<{ id: string }>('select id from schema_migrations');
  return new Set(rows.rows.map((row) => row.id));
}
