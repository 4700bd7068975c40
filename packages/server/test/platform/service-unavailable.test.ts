/**
 * Every 503 answer is the error envelope and one warn line naming its cause (docs/reliability.md
 * "Every 503 answer"). The PostgreSQL connection paths are in lost-connections.test.ts, requests
 * during shutdown in shutdown-drain.test.ts, an identity provider that does not answer in
 * sign-in/oidc-sign-in.test.ts, the Studio before it is built in studio/studio-static.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_MODULES } from '../../src/modules/first-party.js';
import { createDocument, syncSchema } from '../content/fixtures.js';
import { probeModule } from '../support/probe-module.js';
import { startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, testEngine } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** A server's log lines, parsed, and those at warn of one answer. */
function logCollector() {
  const lines: Array<Record<string, any>> = [];
  return {
    lines,
    stream: { write: (line: string) => lines.push(JSON.parse(line)) },
    warnedFor: (requestId: string) => lines.filter((line) => line.level === 40 && line.requestId === requestId),
  };
}

describe.runIf(testEngine() === 'postgres')('a write PostgreSQL aborts on a conflict (PostgreSQL)', () => {
  let t: TestServer;
  const log = logCollector();
  beforeAll(async () => {
    t = await startTestServer({
      modules: [...FIRST_PARTY_MODULES, probeModule()],
      env: { LOG_LEVEL: 'warn' },
      logStream: log.stream,
    });
  });
  afterAll(() => t.close());

  it('on every attempt: 503 SERVICE_UNAVAILABLE with Retry-After, the deadlock at warn', async () => {
    const answer = await t.request('POST', '/api/v1/probe/conflict?conflicts=10', { key: null });
    expect(answer.status, answer.text).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(answer.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
    expect(answer.body.error.message).toContain('nothing was written');
    const warned = log.warnedFor(answer.body.error.requestId);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      url: '/api/v1/probe/conflict?conflicts=10',
      err: { code: '40P01', message: 'deadlock detected (raised by the probe)' },
    });
  });

  it('once: run again unseen, 200, nothing at warn', async () => {
    const answer = await t.request('POST', '/api/v1/probe/conflict?conflicts=1', { key: null });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({ attempts: 2 });
    expect(log.lines.filter((line) => line.level >= 40 && line.url === '/api/v1/probe/conflict?conflicts=1')).toEqual(
      [],
    );
  });
});

describe('a preview token without CMS_PREVIEW_TOKEN_SECRET', () => {
  it('answers 503 PREVIEW_TOKEN_UNAVAILABLE naming the setting, and says so at warn', async () => {
    const log = logCollector();
    const t = await startTestServer({
      env: { CMS_PREVIEW_TOKEN_SECRET: 'off', LOG_LEVEL: 'warn' },
      logStream: log.stream,
    });
    try {
      await syncSchema(t);
      const doc = await createDocument(t);
      const answer = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`);
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body.error.code).toBe('PREVIEW_TOKEN_UNAVAILABLE');
      expect(answer.body.error.message).toContain('CMS_PREVIEW_TOKEN_SECRET');
      // A setting to change, not a moment to wait: no Retry-After.
      expect(answer.headers.get('retry-after')).toBeNull();
      const warned = log.warnedFor(answer.body.error.requestId);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ code: 'PREVIEW_TOKEN_UNAVAILABLE' });
      expect(warned[0]?.msg).toContain('CMS_PREVIEW_TOKEN_SECRET');
    } finally {
      await t.close();
    }
  });
});

describe('/readyz when the database is closed under the server', () => {
  it('answers 503 SERVICE_UNAVAILABLE and logs the database error at warn', async () => {
    const log = logCollector();
    const database = await createTestDatabase();
    const server = await startServerOn(database, { env: { LOG_LEVEL: 'warn' }, logStream: log.stream });
    try {
      expect((await server.request('GET', '/readyz', { key: null })).status).toBe(200);
      await database.db.close();
      const answer = await server.request('GET', '/readyz', { key: null });
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body.error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database does not answer.',
      });
      const warned = log.warnedFor(answer.body.error.requestId);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ code: 'SERVICE_UNAVAILABLE', url: '/readyz' });
      // The database's own words, not the wrapper's.
      expect(warned[0]?.err?.message).toMatch(database.engine === 'postgres' ? /pool/i : /closed/i);
    } finally {
      await server.close().catch(() => undefined);
    }
  });
});
