import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import {
  createWebhook,
  createWebhookTestEnv,
  listDeliveries,
  recordEvent,
  type ScriptedAnswer,
  type ScriptedReceiver,
  sleep,
  startScriptedReceiver,
  type WebhookTestEnv,
  waitFor,
  waitForDeliveryStatus,
} from './webhook-fixtures.js';

let webhookEnv: WebhookTestEnv;
let database: TestDatabase;
let receiver: ScriptedReceiver | undefined;
const servers: ServerOnDatabase[] = [];

beforeAll(async () => {
  webhookEnv = await createWebhookTestEnv();
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await receiver?.close();
  receiver = undefined;
  await database?.close();
});

afterAll(async () => {
  await webhookEnv.cleanup();
});

async function start(options: { ownConnection?: boolean } = {}): Promise<ServerOnDatabase> {
  const server = await startServerOn(database, { env: webhookEnv.env, ...options });
  servers.push(server);
  return server;
}

async function stop(server: ServerOnDatabase): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await server.close();
}

async function receive(answers: readonly ScriptedAnswer[]) {
  receiver = await startScriptedReceiver(webhookEnv.certificates, answers);
  return receiver;
}

describe('durable delivery across restarts', () => {
  it('delivers an event committed while no server ran (written with the change, before any fan-out)', async () => {
    database = await createTestDatabase();
    const r = await receive([200]);
    const first = await start();
    const webhook = await createWebhook(first, { url: r.url('/after-restart') });
    await stop(first);

    await recordEvent(database.db);
    await sleep(300);
    expect(r.received).toHaveLength(0);

    const second = await start();
    const delivery = await waitForDeliveryStatus(second, webhook.id, 'succeeded');
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.headers['x-cms-delivery']).toBe(delivery.id);
  });

  it('resumes a delivery in the middle of its retries after a restart, with the same delivery id', async () => {
    database = await createTestDatabase();
    const r = await receive([500, 200]);
    const first = await start();
    const webhook = await createWebhook(first, { url: r.url('/mid-retry') });
    await recordEvent(database.db);
    await waitFor('the first failed attempt', async () => {
      const [delivery] = (await listDeliveries(first, webhook.id)).data;
      return delivery?.attempts === 1 && delivery.status === 'pending' ? true : undefined;
    });
    await stop(first);
    await sleep(1_200);
    expect(r.received).toHaveLength(1);

    const second = await start();
    const delivery = await waitForDeliveryStatus(second, webhook.id, 'succeeded');
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    expect(r.received.map((request) => request.headers['x-cms-delivery'])).toEqual([delivery.id, delivery.id]);
  });
});

// Two server processes share one database only on PostgreSQL: PGlite is an in-process engine whose
// one instance cannot be opened by two processes. Each server here has its own connection pool and
// LISTEN connection, as two processes would.
describe.runIf(testEngine() === 'postgres')('two server processes on one PostgreSQL database', () => {
  const EVENTS = 12;

  it('deliver every event exactly once to each webhook', async () => {
    database = await createTestDatabase();
    const r = await receive([200]);
    const a = await start();
    await start({ ownConnection: true });
    const webhook = await createWebhook(a, { url: r.url('/once') });
    await Promise.all(Array.from({ length: EVENTS }, () => recordEvent(database.db)));

    await waitFor(`${EVENTS} deliveries`, () => (r.received.length >= EVENTS ? true : undefined));
    await sleep(1_500);
    expect(r.received).toHaveLength(EVENTS);
    const deliveryIds = r.received.map((request) => request.headers['x-cms-delivery']);
    expect(new Set(deliveryIds).size).toBe(EVENTS);
    const { data, pagination } = await listDeliveries(a, webhook.id, '?limit=100');
    expect(pagination.total).toBe(EVENTS);
    expect(new Set(data.map((entry) => entry.eventId)).size).toBe(EVENTS);
    expect(data.every((entry) => entry.status === 'succeeded' && entry.attempts === 1)).toBe(true);
  });

  it('share the retries too: each delivery gets exactly its three attempts', async () => {
    database = await createTestDatabase();
    const r = await receive([503]);
    const a = await start();
    await start({ ownConnection: true });
    const webhook = await createWebhook(a, { url: r.url('/retries') });
    const events = 6;
    await Promise.all(Array.from({ length: events }, () => recordEvent(database.db)));

    await waitFor('all failed', async () => {
      const { data } = await listDeliveries(a, webhook.id, '?status=failed');
      return data.length === events ? true : undefined;
    });
    await sleep(1_000);
    expect(r.received).toHaveLength(events * 3);
    const perDelivery = new Map<string, number>();
    for (const request of r.received) {
      const id = String(request.headers['x-cms-delivery']);
      perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    }
    expect([...perDelivery.values()]).toEqual(Array.from({ length: events }, () => 3));
  });
});
