import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/storage/db.js';
import { openPostgresDb } from '../../src/storage/postgres-db.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** The prepared statements of the connection running this query (a pool of one: always the same). */
const preparedNames = async (db: Queryable) =>
  (
    await db.query<{ name: string }>(
      "select name from pg_prepared_statements where name like 'cms\\_%' order by name",
      [],
      { prepare: false },
    )
  ).rows.map((row) => row.name);

describe.runIf(testEngine() === 'postgres')('prepared statements (PostgreSQL)', () => {
  it('prepares a statement once per connection and reuses it, and leaves unmarked statements unnamed', async () => {
    const db = await openPostgresDb({ connectionString: database.url as string, max: 1 });
    try {
      await db.query('select $1::int + 1 as n', [1]);
      expect(await preparedNames(db)).toEqual([]);
      const first = await db.query<{ n: number }>('select $1::int + 2 as n', [1], { prepare: true });
      const again = await db.query<{ n: number }>('select $1::int + 2 as n', [40], { prepare: true });
      expect([first.rows[0]?.n, again.rows[0]?.n]).toEqual([3, 42]);
      const names = await preparedNames(db);
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(/^cms_[0-9a-f]{24}$/);
      // Inside a transaction too, on the same connection and under the same name.
      await db.transaction(async (tx) => {
        const inTx = await tx.query<{ n: number }>('select $1::int + 2 as n', [5], { prepare: true });
        expect(inTx.rows[0]?.n).toBe(7);
      });
      expect(await preparedNames(db)).toEqual(names);
    } finally {
      await db.close();
    }
  });
});

it('accepts the option on either engine and answers the same rows', async () => {
  const plain = await database.db.query<{ n: number }>('select $1::int * 2 as n', [21]);
  const prepared = await database.db.query<{ n: number }>('select $1::int * 2 as n', [21], { prepare: true });
  expect(prepared.rows).toEqual(plain.rows);
});
