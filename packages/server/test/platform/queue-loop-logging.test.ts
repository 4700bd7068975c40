/**
 * A queue worker's failed pass (webhook deliveries, media purges) says what happened at the level an
 * operator expects: a database that cannot be reached for a moment (a restart, a failover) at warn, as
 * the request path's 503s are; anything else, a defect, at error.
 */
import { CmsError } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createQueueLoop } from '../../src/modules/domain-content/queue-loop.js';
import type { Db } from '../../src/storage/db.js';
import { FailedBeforeEffect } from '../../src/storage/transient-retry.js';

/** Runs one failing pass of a loop and returns what it logged, by level. */
async function logOfOneFailedPass(failure: unknown): Promise<Array<{ level: string; msg: string; err: unknown }>> {
  const lines: Array<{ level: string; msg: string; err: unknown }> = [];
  const record = (level: string) => (fields: { err: unknown }, msg: string) =>
    lines.push({ level, msg, err: fields.err });
  const log = { warn: record('warn'), error: record('error') } as unknown as FastifyBaseLogger;
  const db = { listen: async () => async () => undefined } as unknown as Db;
  let passes = 0;
  const loop = createQueueLoop({
    db,
    log,
    channel: 'cms_test_queue',
    pollIntervalMs: 60_000,
    failureMessage: 'test pass failed; retrying after the poll interval',
    pass: async () => {
      passes += 1;
      throw failure;
    },
    msUntilNextDue: async () => null,
  });
  await loop.start();
  while (passes === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  await loop.stop();
  return lines;
}

describe('a failed pass of a queue worker', () => {
  it.each([
    ['a connection PostgreSQL ended (57P01)', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a transaction whose connection failed before COMMIT', new FailedBeforeEffect(new Error('Connection terminated'))],
    [
      'retries that ran out (SERVICE_UNAVAILABLE)',
      new CmsError('SERVICE_UNAVAILABLE', 'The database could not be reached'),
    ],
  ])('is logged at warn when the database could not be reached: %s', async (_case, failure) => {
    const lines = await logOfOneFailedPass(failure);
    expect(lines).toEqual([
      { level: 'warn', msg: 'test pass failed; retrying after the poll interval (database unavailable)', err: failure },
    ]);
  });

  it('is logged at error for anything else', async () => {
    const failure = new TypeError("Cannot read properties of undefined (reading 'id')");
    const lines = await logOfOneFailedPass(failure);
    expect(lines).toEqual([
      { level: 'error', msg: 'test pass failed; retrying after the poll interval', err: failure },
    ]);
  });
});
