import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/storage/migrate.js';
import { createPgliteDb } from '../../src/storage/pglite-db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Prefix of every database this run creates on PostgreSQL (dropped at teardown). */
    pgDatabasePrefix: string | null;
    /** PostgreSQL template database with migrations applied. */
    pgTemplateUrl: string | null;
    /** A PGlite data dir dump with migrations applied, copied by each test database. */
    pgliteDumpFile: string | null;
  }
}

/**
 * Prepares one migrated database per run and hands out copies: PGlite's initdb costs seconds, so
 * each test loads a dump instead; on PostgreSQL each test clones a template database. Everything
 * this run creates is dropped at the end.
 */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const prefix = `cms_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const template = `${prefix}_tmpl`;
    await adminQuery(adminUrl, `create database ${template}`);
    const templateUrl = withDatabase(adminUrl, template);
    const db = await openPostgresDb({ connectionString: templateUrl, max: 1 });
    await migrate(db);
    await db.close();
    project.provide('pgDatabasePrefix', prefix);
    project.provide('pgTemplateUrl', templateUrl);
    project.provide('pgliteDumpFile', null);
    return async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      const { rows } = await client.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
      await client.end();
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'cms-test-'));
  const pglite = await PGlite.create();
  await migrate(createPgliteDb(pglite));
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const dumpFile = join(dir, 'template.tar');
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgDatabasePrefix', null);
  project.provide('pgTemplateUrl', null);
  project.provide('pgliteDumpFile', dumpFile);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The same server, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
