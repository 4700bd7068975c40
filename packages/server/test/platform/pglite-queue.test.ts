import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';

// PGlite executes statements synchronously; queued back to back they would hold the event loop for
// the whole queue, and sockets would go unread meanwhile (docs/benchmarks.md "Findings" 4).
describe.runIf(testEngine() === 'pglite')('the PGlite statement queue', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it('lets the event loop run between queued statements', async () => {
    const order: string[] = [];
    const queued = [1, 2, 3].map((n) => database.db.query('select $1::int as n', [n]).then(() => order.push(`q${n}`)));
    setImmediate(() => order.push('event loop'));
    await Promise.all(queued);
    expect(order.indexOf('event loop')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('event loop')).toBeLessThan(order.indexOf('q3'));
  });

  it('still runs queued statements one at a time, in order, past a failing one', async () => {
    const order: number[] = [];
    const results = await Promise.allSettled([
      database.db.query('select 1').then(() => order.push(1)),
      database.db.query('select * from no_such_table'),
      database.db.query('select 3').then(() => order.push(3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual([1, 3]);
  });
});
