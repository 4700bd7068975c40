import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDeliveryWorker,
  type DeliveryWorker,
} from '../../src/modules/domain-content/webhooks/delivery-worker.js';
import { fanOutEvents } from '../../src/modules/domain-content/webhooks/fan-out.js';
import { createSecretBox } from '../../src/modules/domain-content/webhooks/secret-box.js';
import {
  claimDueDeliveries,
  findMsUntilNextDue,
  recordAttemptOutcome,
} from '../../src/storage/repositories/webhook-delivery-queue.repository.js';
import { insertWebhook } from '../../src/storage/repositories/webhooks.repository.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { TEST_SECRET } from '../support/test-server.js';
import { createTestCertificates, type TestCertificates } from './https-receiver.js';
import {
  recordEvent,
  type ScriptedAnswer,
  type ScriptedReceiver,
  startScriptedReceiver,
  targetOf,
  WEBHOOK_SECRET,
  waitFor,
} from './webhook-fixtures.js';

// The worker alone, on a real database and a real HTTPS receiver, with the attempt timeout
// shortened through its internal option (the 10 s of interface.md would make this test slow).
// Long enough for a TLS handshake on a busy machine, far shorter than 10 s.
const SHORT_TIMEOUT_MS = 1_500;
const DEAD_LEASE_MS = 1_500;

const log = Fastify({ logger: { level: 'silent' } }).log;
const secretBox = createSecretBox(TEST_SECRET);

let certificates: TestCertificates;
let database: TestDatabase;
let worker: DeliveryWorker | undefined;
let receiver: ScriptedReceiver | undefined;

beforeAll(async () => {
  certificates = await createTestCertificates();
});

beforeEach(async () => {
  database = await createTestDatabase();
  const projectId = randomUUID();
  await database.db.query("insert into projects (id, slug, name) values ($1, 'default', 'Default')", [projectId]);
  await database.db.query(
    "insert into environments (id, project_id, name, is_default) values (gen_random_uuid(), $1, 'production', true)",
    [projectId],
  );
});

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await receiver?.close();
  receiver = undefined;
  await database.close();
});

async function setUp(answers: readonly ScriptedAnswer[], attemptTimeoutMs?: number) {
  receiver = await startScriptedReceiver(certificates, answers);
  const target = await targetOf(database.db);
  const id = randomUUID();
  await insertWebhook(database.db, {
    id,
    projectId: target.projectId,
    environmentId: target.environmentId,
    url: receiver.url('/worker'),
    events: ['content.created'],
    active: true,
    secretCiphertext: secretBox.seal(WEBHOOK_SECRET, id),
    createdBy: 'test',
  });
  worker = createDeliveryWorker({
    db: database.db,
    log,
    secretBox,
    allowPrivate: true,
    ca: certificates.caCert,
    ...(attemptTimeoutMs ? { attemptTimeoutMs } : {}),
  });
  return receiver;
}

async function storedDelivery() {
  const result = await database.db.query<{ id: string; status: string; attempts: number; nextAttemptAt: Date | null }>(
    'select id, status, attempts, next_attempt_at as "nextAttemptAt" from webhook_deliveries',
  );
  return result.rows[0];
}

async function attempts() {
  const result = await database.db.query<{ succeeded: boolean; error: string | null; attemptedAt: Date }>(
    'select succeeded, error, attempted_at as "attemptedAt" from webhook_delivery_attempts order by id',
  );
  return result.rows;
}

describe('delivery worker', () => {
  it('counts a timed-out attempt as failed and retries it', async () => {
    const r = await setUp(['hang', 200], SHORT_TIMEOUT_MS);
    await worker?.start();
    await recordEvent(database.db);
    await waitFor('success after the timeout', async () =>
      (await storedDelivery())?.status === 'succeeded' ? true : undefined,
    );
    expect(r.received).toHaveLength(2);
    const log = await attempts();
    expect(log.map((entry) => [entry.succeeded, entry.error])).toEqual([
      [false, `timed out after ${SHORT_TIMEOUT_MS} ms`],
      [true, null],
    ]);
    expect(r.received[0]?.headers['x-cms-delivery']).toBe(r.received[1]?.headers['x-cms-delivery']);
  });

  it('on stop, waits for the attempt in flight and records it', async () => {
    const r = await setUp(['hang'], SHORT_TIMEOUT_MS);
    await worker?.start();
    await recordEvent(database.db);
    await waitFor('the request in flight', () => (r.received.length === 1 ? true : undefined));
    await worker?.stop();
    expect(await storedDelivery()).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: expect.any(Date) });
  });

  it('takes over a delivery leased by a process that died, once the lease runs out', async () => {
    const r = await setUp([200]);
    await recordEvent(database.db);
    await fanOutEvents(database.db);
    const deadToken = randomUUID();
    const claimedAt = performance.now();
    const [claimed] = await claimDueDeliveries(database.db, {
      limit: 10,
      leaseMs: DEAD_LEASE_MS,
      leaseToken: deadToken,
    });
    expect(claimed).toBeDefined();

    await worker?.start();
    await waitFor('the takeover', async () => ((await storedDelivery())?.status === 'succeeded' ? true : undefined));
    expect(r.arrivals).toHaveLength(1);
    expect((r.arrivals[0] ?? 0) - claimedAt).toBeGreaterThanOrEqual(DEAD_LEASE_MS - 50);

    // The dead process's result, were it to arrive now, is not recorded: the lease is not its own.
    const late = await database.db.transaction((tx) =>
      recordAttemptOutcome(
        tx,
        { deliveryId: claimed?.id ?? '', leaseToken: deadToken },
        { ok: false, statusCode: 500, durationMs: 1, error: 'late', responseSnippet: null },
        [1_000, 2_000],
      ),
    );
    expect(late).toBeNull();
    expect(await storedDelivery()).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('runs one loop however often it is started', async () => {
    const r = await setUp([200]);
    await Promise.all([worker?.start(), worker?.start(), worker?.start()]);
    for (let n = 0; n < 5; n++) await recordEvent(database.db);
    await waitFor('5 deliveries', () => (r.received.length >= 5 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received).toHaveLength(5);
  });
});

describe('next due delivery', () => {
  // An empty queue once read 0 ms ("due now"), so an idle server re-checked it forty times a second.
  it('is none on an empty queue, so an idle loop sleeps its poll interval', async () => {
    expect(await findMsUntilNextDue(database.db)).toBeNull();
  });
});
