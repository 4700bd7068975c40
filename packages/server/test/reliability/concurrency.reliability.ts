/**
 * Concurrent writers on one document or path (exactly one winner, consecutive versions), slow
 * clients held open while others are served, and, on PostgreSQL, two server processes on one
 * database delivering each webhook event exactly once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, createDocumentRequest, hashHeader, syncSchema, uniquePath } from '../content/fixtures.js';
import { openSocket, readAnswer } from '../support/raw-http.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createWebhook,
  createWebhookTestEnv,
  startScriptedReceiver,
  type WebhookTestEnv,
} from '../webhooks/webhook-fixtures.js';
import { printFigures } from './figures.js';

const CONCURRENCY = 12;
const ROUNDS = 5;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_REQUEST_TIMEOUT_MS: '1500', CMS_HEADERS_TIMEOUT_MS: '1000' } });
  await syncSchema(t);
});
afterAll(() => t.close());

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

describe('concurrent writers', () => {
  it('same-revision updates: exactly one winner, the others CONFLICT', async () => {
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      const doc = await createDocument(t);
      const answers = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) =>
          t.request('PUT', `/api/v1/content/${doc.documentId}`, {
            headers: hashHeader(),
            body: { frontmatter: { title: `writer ${i}`, slug: 's' }, body: `writer ${i}`, draftRevision: 1 },
          }),
        ),
      );
      const counts = countBy(answers, (a) => `${a.status} ${a.body?.error?.code ?? ''}`.trim());
      for (const [k, v] of Object.entries(counts)) outcomes[k] = (outcomes[k] ?? 0) + v;
      expect(counts, JSON.stringify(counts)).toEqual({ 200: 1, '409 CONFLICT': CONCURRENCY - 1 });
      const winner = answers.find((a) => a.status === 200)?.body.data;
      const stored = (await t.request('GET', `/api/v1/content/${doc.documentId}?draft=true`)).body.data;
      expect(stored).toMatchObject({ draftRevision: 2, body: winner.body });
    }
    printFigures('same-revision-updates', testEngine(), { rounds: ROUNDS, writers: CONCURRENCY, outcomes });
  });

  it('concurrent publishes: distinct, consecutive versions', async () => {
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      const doc = await createDocument(t);
      const answers = await Promise.all(
        Array.from({ length: CONCURRENCY }, () => t.request('POST', `/api/v1/content/${doc.documentId}/publish`)),
      );
      for (const [k, v] of Object.entries(countBy(answers, (a) => String(a.status)))) {
        outcomes[k] = (outcomes[k] ?? 0) + v;
      }
      expect(answers.every((a) => a.status < 500)).toBe(true);
      const returned = answers.filter((a) => a.status === 200).map((a) => a.body.data.version as number);
      const history = await t.request('GET', `/api/v1/content/${doc.documentId}/versions?order=asc&limit=100`);
      const numbers = history.body.data.map((v: { version: number }) => v.version);
      expect(numbers).toEqual(numbers.map((_: number, i: number) => i + 1));
      for (const version of returned) expect(numbers).toContain(version);
    }
    printFigures('concurrent-publishes', testEngine(), { rounds: ROUNDS, writers: CONCURRENCY, outcomes });
  });

  it('same-path creates: exactly one document, the others CONTENT_PATH_CONFLICT', async () => {
    const outcomes: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      const path = uniquePath('posts/race');
      const answers = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) =>
          createDocumentRequest(t, { type: 'post', path, frontmatter: { title: `c${i}`, slug: 'c' } }),
        ),
      );
      const counts = countBy(answers, (a) => `${a.status} ${a.body?.error?.code ?? ''}`.trim());
      for (const [k, v] of Object.entries(counts)) outcomes[k] = (outcomes[k] ?? 0) + v;
      expect(counts, JSON.stringify(counts)).toEqual({ 201: 1, '409 CONTENT_PATH_CONFLICT': CONCURRENCY - 1 });
    }
    printFigures('same-path-creates', testEngine(), { rounds: ROUNDS, writers: CONCURRENCY, outcomes });
  });
});

describe('slow clients', () => {
  it('cuts off clients that trickle their body or headers while a normal client is served', async () => {
    const SLOW = 20;
    const started = Date.now();
    const sockets = await Promise.all(Array.from({ length: SLOW }, () => openSocket(t.url)));
    const answers = sockets.map((socket) => readAnswer(socket, started));
    const timers = sockets.map((socket, i) => {
      socket.write(
        i % 2 === 0
          ? 'POST /api/v1/schema/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{'
          : 'GET /healthz HTTP/1.1\r\nHost: x\r\n',
      );
      return setInterval(() => socket.writable && socket.write(i % 2 === 0 ? ' ' : 'X-A: b\r\n'), 200);
    });
    let served = 0;
    try {
      while (Date.now() - started < 1000) {
        if ((await t.request('GET', '/api/v1/schema')).status === 200) served += 1;
        await sleep(50);
      }
      const results = await Promise.all(answers);
      const statuses = countBy(results, (r) => String(r.status));
      const slowest = Math.max(...results.map((r) => r.elapsedMs));
      printFigures('slow-clients', testEngine(), { slowClients: SLOW, statuses, slowestCutOffMs: slowest, served });
      expect(statuses).toEqual({ 408: SLOW });
      expect(slowest).toBeLessThan(5000);
      expect(served).toBeGreaterThan(5);
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });
});

describe.runIf(testEngine() === 'postgres')('two server processes on one database', () => {
  let webhookEnv: WebhookTestEnv;
  let database: TestDatabase;
  const servers: ServerOnDatabase[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database?.close();
    await webhookEnv?.cleanup();
  });

  it('deliver each event of writes made through both exactly once', async () => {
    const DOCUMENTS = 15;
    webhookEnv = await createWebhookTestEnv();
    database = await createTestDatabase();
    const receiver = await startScriptedReceiver(webhookEnv.certificates, [200]);
    const a = await startServerOn(database, { env: webhookEnv.env });
    const b = await startServerOn(database, { env: webhookEnv.env, ownConnection: true });
    servers.push(a, b);
    await syncSchema(a as unknown as TestServer);
    await createWebhook(a, { url: receiver.url('/two') });
    await Promise.all(
      Array.from({ length: DOCUMENTS }, async (_, i) => {
        const via = i % 2 === 0 ? a : b;
        const created = await via.request('POST', '/api/v1/content', {
          headers: hashHeader(),
          body: { type: 'post', path: uniquePath('posts/two'), frontmatter: { title: `t${i}`, slug: 't' } },
        });
        expect(created.status, created.text).toBe(201);
        const other = i % 2 === 0 ? b : a;
        const published = await other.request('POST', `/api/v1/content/${created.body.data.documentId}/publish`);
        expect(published.status, published.text).toBe(200);
      }),
    );
    const expected = DOCUMENTS * 2;
    const deadline = Date.now() + 30_000;
    while (receiver.received.length < expected && Date.now() < deadline) await sleep(100);
    await sleep(1500); // a duplicate would arrive within the workers' next polls
    const keys = receiver.received.map((request) => {
      const body = JSON.parse(request.rawBody.toString('utf8'));
      return `${body.event}:${body.document.documentId}:${body.document.version}`;
    });
    const perEvent = countBy(keys, (key) => key);
    const duplicates = Object.values(perEvent).filter((n) => n > 1).length;
    const lost = expected - Object.keys(perEvent).length;
    printFigures('two-processes-webhooks', testEngine(), {
      events: expected,
      deliveries: receiver.received.length,
      lost,
      duplicates,
    });
    await receiver.close();
    expect({ lost, duplicates, deliveries: receiver.received.length }).toEqual({
      lost: 0,
      duplicates: 0,
      deliveries: expected,
    });
  });
});
