import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import type { Db } from '../../src/storage/db.js';
import { createPgliteDb } from '../../src/storage/pglite-db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';

/** A fresh, migrated database of its own for one test server. */
export interface TestDatabase {
  db: Db;
  /** Set on PostgreSQL: the connection string, for a second server process on the same data. */
  url: string | null;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
}

let dump: Blob | null = null;

/** Creates a copy of the run's migrated template: PGlite in memory, or a new PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = inject('pgTemplateUrl');
  if (templateUrl) {
    const prefix = inject('pgDatabasePrefix') as string;
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    const template = new URL(templateUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: templateUrl.replace(`/${template}`, '/postgres') });
    await admin.connect();
    try {
      await admin.query(`create database ${name} template ${template}`);
    } finally {
      await admin.end();
    }
    const url = templateUrl.replace(`/${template}`, `/${name}`);
    const db = await openPostgresDb({ connectionString: url, max: 10 });
    return { db, url, engine: 'postgres', close: () => db.close() };
  }
  dump ??= new Blob([await readFile(inject('pgliteDumpFile') as string)]);
  const pglite = await PGlite.create({ loadDataDir: dump });
  const db = createPgliteDb(pglite);
  return { db, url: null, engine: 'pglite', close: () => db.close() };
}

/** Which engine this run tests on. */
export function testEngine(): 'pglite' | 'postgres' {
  return inject('pgTemplateUrl') ? 'postgres' : 'pglite';
}
