import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createWebhook,
  createWebhookTestEnv,
  deleteAllWebhooks,
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

// Longer than the retry delays (1 s, 2 s): a retry that was still scheduled would have happened.
const QUIET_PERIOD_MS = 2_500;

let webhookEnv: WebhookTestEnv;
let t: TestServer;
let receiver: ScriptedReceiver | undefined;

beforeAll(async () => {
  webhookEnv = await createWebhookTestEnv();
  t = await startTestServer({ env: webhookEnv.env });
});

afterEach(async () => {
  await deleteAllWebhooks(t);
  await receiver?.close();
  receiver = undefined;
});

afterAll(async () => {
  await t.close();
  await webhookEnv.cleanup();
});

async function receive(answers: readonly ScriptedAnswer[]) {
  receiver = await startScriptedReceiver(webhookEnv.certificates, answers);
  return receiver;
}

/** The stored state of a delivery; deleted webhooks are out of the API's reach, not of the table. */
async function storedDelivery(webhookId: string) {
  const result = await t.db.query<{ status: string; attempts: number; nextAttemptAt: Date | null }>(
    `select status, attempts, next_attempt_at as "nextAttemptAt" from webhook_deliveries where webhook_id = $1`,
    [webhookId],
  );
  return result.rows;
}

describe('cancelling pending deliveries', () => {
  it('deleting a webhook cancels a delivery waiting for its retry', async () => {
    const r = await receive([500, 200]);
    const webhook = await createWebhook(t, { url: r.url('/delete') });
    await recordEvent(t.db);
    await waitFor('the first failed attempt', async () => {
      const [delivery] = (await listDeliveries(t, webhook.id)).data;
      return delivery?.attempts === 1 ? delivery : undefined;
    });

    expect((await t.request('DELETE', `/api/v1/webhooks/${webhook.id}`)).status).toBe(200);
    await sleep(QUIET_PERIOD_MS);
    expect(r.received).toHaveLength(1);
    expect(await storedDelivery(webhook.id)).toEqual([{ status: 'cancelled', attempts: 1, nextAttemptAt: null }]);
  });

  it('an attempt in flight when the webhook is deleted is recorded but does not bring the delivery back', async () => {
    const r = await receive([{ status: 500, delayMs: 600 }, 200]);
    const webhook = await createWebhook(t, { url: r.url('/in-flight') });
    await recordEvent(t.db);
    await waitFor('the request in flight', () => (r.received.length === 1 ? true : undefined));

    await t.request('DELETE', `/api/v1/webhooks/${webhook.id}`);
    await waitFor('the attempt to be recorded', async () => {
      const [delivery] = await storedDelivery(webhook.id);
      return delivery?.attempts === 1 ? true : undefined;
    });
    await sleep(QUIET_PERIOD_MS);
    expect(r.received).toHaveLength(1);
    expect(await storedDelivery(webhook.id)).toEqual([{ status: 'cancelled', attempts: 1, nextAttemptAt: null }]);
  });

  it('deactivating a webhook cancels its pending deliveries, visible in the log; they can be redelivered', async () => {
    const r = await receive([500, 200]);
    const webhook = await createWebhook(t, { url: r.url('/deactivate') });
    await recordEvent(t.db);
    await waitFor('the first failed attempt', () => (r.received.length === 1 ? true : undefined));

    const update = await t.request('PUT', `/api/v1/webhooks/${webhook.id}`, { body: { active: false } });
    expect(update.body.data.active).toBe(false);
    const cancelled = await waitForDeliveryStatus(t, webhook.id, 'cancelled');
    expect(cancelled.nextAttemptAt).toBeNull();

    await t.request('PUT', `/api/v1/webhooks/${webhook.id}`, { body: { active: true } });
    await sleep(QUIET_PERIOD_MS);
    expect(r.received).toHaveLength(1);

    const redeliver = await t.request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${cancelled.id}/redeliver`);
    expect(redeliver.body.data).toMatchObject({ id: cancelled.id, status: 'pending', attempts: 0 });
    await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    expect(r.received.map((request) => request.headers['x-cms-delivery'])).toEqual([cancelled.id, cancelled.id]);
  });
});
