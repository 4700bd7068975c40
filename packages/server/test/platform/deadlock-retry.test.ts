import { isCmsError } from '@cms/core';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_TRANSIENT_ATTEMPTS } from '../../src/storage/transient-retry.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';

// PGlite runs one transaction at a time, so nothing there can deadlock; these need PostgreSQL.
describe.runIf(testEngine() === 'postgres')('transactions aborted as deadlock victims (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.query('create table conflict_rows (id integer primary key, v integer not null)');
  });
  afterAll(() => database?.close());
  beforeEach(async () => {
    await database.db.query('delete from conflict_rows');
    await database.db.query('insert into conflict_rows (id, v) values (1, 0), (2, 0)');
  });

  /** Updates one row: in a Db transaction, or on the opponent's own connection. */
  const bump = (on: { query(sql: string, params: unknown[]): Promise<unknown> }, id: number) =>
    on.query('update conflict_rows set v = v + 1 where id = $1', [id]);
  const values = async () =>
    (await database.db.query<{ v: number }>('select v from conflict_rows order by id')).rows.map((row) => row.v);

  /** Resolves once the backend `pid` waits for a lock. */
  async function waitingForLock(pid: number): Promise<void> {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const row = await database.db.query('select 1 from pg_stat_activity where pid = $1 and wait_event_type = $2', [
        pid,
        'Lock',
      ]);
      if (row.rowCount > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`backend ${pid} never waited for a lock`);
  }

  it('runs the victim again from the start, even when its code swallowed the error', async () => {
    const attempts = { first: 0, second: 0 };
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothHoldOneRow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holdOneRow = async () => {
      arrived += 1;
      if (arrived === 2) release();
      await bothHoldOneRow;
    };
    // Rows taken in opposite orders; the first transaction finds the deadlock (shorter timeout) and is aborted.
    const first = database.db.transaction(async (tx) => {
      attempts.first += 1;
      await tx.query("set local deadlock_timeout = '50ms'");
      await bump(tx, 1);
      if (attempts.first === 1) await holdOneRow();
      // A caller that catches the error must not turn an aborted transaction into a quiet success.
      await bump(tx, 2).catch(() => undefined);
      return 'first';
    });
    const second = database.db.transaction(async (tx) => {
      attempts.second += 1;
      await tx.query("set local deadlock_timeout = '30s'");
      await bump(tx, 2);
      if (attempts.second === 1) await holdOneRow();
      await bump(tx, 1);
      return 'second';
    });
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(attempts).toEqual({ first: 2, second: 1 });
    // Each transaction's two updates landed exactly once: nothing of the aborted attempt remains.
    expect(await values()).toEqual([2, 2]);
  });

  it(`gives up after ${MAX_TRANSIENT_ATTEMPTS} deadlocks with a retryable SERVICE_UNAVAILABLE, writing nothing`, async () => {
    const opponent = new pg.Client({ connectionString: database.url as string });
    await opponent.connect();
    try {
      const pid = (await opponent.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid as number;
      let attempts = 0;
      const outcome = await database.db
        .transaction(async (tx) => {
          attempts += 1;
          await tx.query("set local deadlock_timeout = '50ms'");
          await bump(tx, 1);
          // Every attempt meets a new opponent taking the rows the other way round.
          await opponent.query('begin');
          await opponent.query("set local deadlock_timeout = '30s'");
          await bump(opponent, 2);
          const opposing = bump(opponent, 1);
          await waitingForLock(pid);
          try {
            await bump(tx, 2);
          } finally {
            await opposing.catch(() => undefined);
            await opponent.query('rollback');
          }
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(attempts).toBe(MAX_TRANSIENT_ATTEMPTS);
      expect(isCmsError(outcome)).toBe(true);
      expect(outcome).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'retry-after': '1' } });
      expect(await values()).toEqual([0, 0]);
    } finally {
      await opponent.end();
    }
  });
});
