import { MAX_BATCH_OPERATIONS } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BULK_ANALYZE_MIN_ROWS, needsBulkAnalyze } from '../../src/storage/bulk-statistics.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createDocument, hashHeader, postFrontmatter, syncSchema, uniquePath } from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

/** What the planner believes `documents` holds (-1: never analyzed nor vacuumed). */
async function plannerRows(): Promise<number> {
  const { rows } = await t.db.query<{ reltuples: number }>(
    `select reltuples::float8 as reltuples from pg_class where oid = 'documents'::regclass`,
  );
  return rows[0]?.reltuples ?? Number.NaN;
}

function pushBatch(count: number) {
  const operations = Array.from({ length: count }, (_, index) => ({
    op: 'create',
    type: 'post',
    path: uniquePath(),
    frontmatter: postFrontmatter({ title: `Imported ${index}` }),
    body: `Imported document ${index}`,
  }));
  return t.request('POST', '/api/v1/content/batch', { headers: hashHeader(), body: { operations } });
}

describe('statistics after bulk writes (storage/bulk-statistics.ts)', () => {
  it('analyzes documents after a push in batches, so the planner counts the new rows', async () => {
    // Single writes are not bulk work: they leave the statistics alone.
    await createDocument(t, { body: 'one document' });
    const before = await plannerRows();
    expect(before).toBeLessThan(BULK_ANALYZE_MIN_ROWS);

    const batches = Math.ceil((2 * BULK_ANALYZE_MIN_ROWS) / MAX_BATCH_OPERATIONS);
    for (let batch = 0; batch < batches; batch += 1) {
      const response = await pushBatch(MAX_BATCH_OPERATIONS);
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.failed).toBe(0);
    }
    // The analyze runs in the background once the batches pause.
    await vi.waitFor(async () => expect(await plannerRows()).toBeGreaterThanOrEqual(batches * MAX_BATCH_OPERATIONS), {
      timeout: 20_000,
      interval: 200,
    });
  });

  it('waits for enough rows: a base number, and a tenth of what the table already holds', () => {
    expect(needsBulkAnalyze(BULK_ANALYZE_MIN_ROWS - 1, 0)).toBe(false);
    expect(needsBulkAnalyze(BULK_ANALYZE_MIN_ROWS, -1)).toBe(true);
    expect(needsBulkAnalyze(5_000, 100_000)).toBe(false);
    expect(needsBulkAnalyze(10_000, 100_000)).toBe(true);
  });
});
