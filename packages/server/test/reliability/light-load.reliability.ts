/**
 * A lightly loaded server never answers 503 (issue 11, item 5): document lifecycles and reads, a few
 * at a time and then one at a time, with a webhook taking every event (so the delivery workers run
 * alongside). On PostgreSQL they go through two server processes on one database, and PostgreSQL
 * ends every idle pooled connection between rounds, as a restart, a failover or an idle timeout
 * does. Fails on any 5xx, any 4xx outside the envelope, and any warn line of a 503.
 */
import { EVENT_TYPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashHeader, syncSchema, uniquePath } from '../content/fixtures.js';
import { IS_LISTEN_BACKEND } from '../support/listen-backend.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import type { TestResponse, TestServer } from '../support/test-server.js';
import {
  createWebhook,
  createWebhookTestEnv,
  type ScriptedReceiver,
  startScriptedReceiver,
  type WebhookTestEnv,
} from '../webhooks/webhook-fixtures.js';
import { printFigures } from './figures.js';

/** Rounds of each phase; RELIABILITY_RUNS raises it for a longer local run. */
const ROUNDS = Number(process.env.RELIABILITY_RUNS ?? 8);
/** Writers at once in the first phase ("a few at a time"); the second phase has one. */
const LANES = 4;
/** The application_name of the servers' pooled connections, so that only those are ended. */
const APPLICATION = 'light-load';

let database: TestDatabase;
let webhookEnv: WebhookTestEnv;
let receiver: ScriptedReceiver;
const servers: ServerOnDatabase[] = [];
const logLines: Array<Record<string, any>> = [];
const logStream = { write: (line: string) => logLines.push(JSON.parse(line)) };

beforeAll(async () => {
  database = await createTestDatabase();
  webhookEnv = await createWebhookTestEnv();
  receiver = await startScriptedReceiver(webhookEnv.certificates, [200]);
  const env = { ...webhookEnv.env, LOG_LEVEL: 'warn' };
  if (database.url) {
    const url = new URL(database.url);
    url.searchParams.set('application_name', APPLICATION);
    const named = { ...database, url: url.toString() };
    for (let i = 0; i < 2; i += 1) servers.push(await startServerOn(named, { env, ownConnection: true, logStream }));
  } else {
    // One process per PGlite data dir.
    servers.push(await startServerOn(database, { env, logStream }));
  }
  await syncSchema(servers[0] as unknown as TestServer);
  await createWebhook(servers[0] as ServerOnDatabase, { url: receiver.url('/all'), events: [...EVENT_TYPES] });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await receiver?.close();
  await webhookEnv?.cleanup();
  await database?.close();
});

/** Ends the servers' idle pooled connections (PostgreSQL); the requests after it must not notice. */
async function endIdleConnections(): Promise<number> {
  if (!database.url) return 0;
  const result = await database.db.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where datname = current_database() and application_name = $1 and state = 'idle' and not ${IS_LISTEN_BACKEND}`,
    [APPLICATION],
  );
  return result.rowCount;
}

interface Figures {
  requests: number;
  byStatus: Record<string, number>;
  unavailable: number;
  faults: number;
  connectionsEnded: number;
}

describe('a lightly loaded server', () => {
  it('answers every request below 500, none of them 503, while its pooled connections are ended', async () => {
    const figures: Figures = { requests: 0, byStatus: {}, unavailable: 0, faults: 0, connectionsEnded: 0 };
    const faults: string[] = [];
    let next = 0;
    const check = (what: string, answer: TestResponse): TestResponse => {
      figures.requests += 1;
      figures.byStatus[answer.status] = (figures.byStatus[answer.status] ?? 0) + 1;
      if (answer.status === 503) figures.unavailable += 1;
      const envelope = answer.body?.error;
      const enveloped = typeof envelope?.code === 'string' && typeof envelope?.requestId === 'string';
      if (answer.status >= 500 || (answer.status >= 400 && !enveloped)) {
        figures.faults += 1;
        faults.push(`${what} -> ${answer.status} ${answer.text.slice(0, 300)}`);
      }
      return answer;
    };

    /** One document's life, through the servers in turn: what an editor and a site do. */
    const lifecycle = async () => {
      const via = () => servers[next++ % servers.length] as ServerOnDatabase;
      const send = async (method: string, path: string, options: Parameters<ServerOnDatabase['request']>[2] = {}) =>
        check(`${method} ${path}`, await via().request(method, path, options));
      const created = await send('POST', '/api/v1/content', {
        headers: hashHeader(),
        body: { type: 'post', path: uniquePath('posts/light'), frontmatter: { title: 'Light', slug: 'light' } },
      });
      const id = created.body?.data?.documentId as string | undefined;
      if (!id) return;
      const draft = await send('GET', `/api/v1/content/${id}?draft=true`);
      await send('PUT', `/api/v1/content/${id}`, {
        headers: hashHeader(),
        body: {
          frontmatter: { title: 'Lighter', slug: 'light' },
          body: 'text',
          draftRevision: draft.body?.data?.draftRevision,
        },
      });
      await send('POST', `/api/v1/content/${id}/publish`, { body: { changeSummary: 'first' } });
      await send('GET', `/api/v1/content/${id}`);
      await send('GET', '/api/v1/content?type=post&limit=20');
      await send('GET', `/api/v1/content/${id}/versions`);
      await send('GET', '/readyz', { key: null });
      const copy = await send('POST', `/api/v1/content/${id}/duplicate`, { body: { path: uniquePath('posts/copy') } });
      await send('POST', `/api/v1/content/${id}/unpublish`);
      await send('DELETE', `/api/v1/content/${id}`);
      await send('POST', `/api/v1/content/${id}/restore`);
      if (copy.body?.data?.documentId) await send('DELETE', `/api/v1/content/${copy.body.data.documentId}`);
    };

    for (const lanes of [LANES, 1]) {
      for (let round = 0; round < ROUNDS; round += 1) {
        await Promise.all(Array.from({ length: lanes }, lifecycle));
        figures.connectionsEnded += await endIdleConnections();
      }
    }

    const unavailableLogged = logLines.filter((line) => line.level >= 40 && line.code === 'SERVICE_UNAVAILABLE');
    const unhandled = logLines.filter((line) => line.msg === 'unhandled error');
    printFigures('light-load', testEngine(), {
      ...figures,
      processes: servers.length,
      lanes: [LANES, 1],
      webhookDeliveries: receiver.received.length,
    });
    expect(faults).toEqual([]);
    expect(unavailableLogged).toEqual([]);
    expect(unhandled).toEqual([]);
  });
});
