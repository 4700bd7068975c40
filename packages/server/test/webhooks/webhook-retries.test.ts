import { verifyWebhook } from '@cms/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createWebhook,
  createWebhookTestEnv,
  deleteAllWebhooks,
  recordEvent,
  refusedUrl,
  type ScriptedAnswer,
  type ScriptedReceiver,
  sleep,
  startScriptedReceiver,
  WEBHOOK_SECRET,
  type WebhookTestEnv,
  waitFor,
  waitForDeliveryStatus,
} from './webhook-fixtures.js';

// interface.md "Delivery behaviour": 3 attempts in total, initial, after 1 s, after 2 s. The lower
// bounds are exact (a retry is never early); the upper ones only rule out a wrong schedule (the
// next step would be minutes) and leave room for a loaded 2-core machine, where 1.8 s was exceeded.
const FIRST_RETRY = { min: 1_000, max: 5_000 };
const SECOND_RETRY = { min: 2_000, max: 6_000 };
// Tolerance for comparing the receiver's clock with the timestamps the database recorded.
const CLOCK_SLACK_MS = 50;

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

async function deliverTo(answers: readonly ScriptedAnswer[]) {
  const scripted = await startScriptedReceiver(webhookEnv.certificates, answers);
  receiver = scripted;
  const webhook = await createWebhook(t, { url: scripted.url('/hook') });
  await recordEvent(t.db);
  return { receiver: scripted, webhook };
}

function expectGap(arrivals: number[], index: number, range: { min: number; max: number }) {
  const gap = (arrivals[index + 1] ?? Number.NaN) - (arrivals[index] ?? Number.NaN);
  expect(gap, `gap after attempt ${index + 1}`).toBeGreaterThanOrEqual(range.min - CLOCK_SLACK_MS);
  expect(gap, `gap after attempt ${index + 1}`).toBeLessThanOrEqual(range.max);
}

async function attemptLog(webhookId: string, deliveryId: string) {
  const response = await t.request('GET', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}`);
  expect(response.status).toBe(200);
  return response.body.data.attemptLog as Array<{
    round: number;
    attempt: number;
    succeeded: boolean;
    statusCode: number | null;
    error: string | null;
    responseSnippet: string | null;
    attemptedAt: string;
  }>;
}

describe('webhook retries', () => {
  it('retries a 5xx after 1 s with the same delivery id and the same signed bytes, then succeeds', async () => {
    const { receiver: r, webhook } = await deliverTo([500, 200]);
    const delivery = await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(r.received).toHaveLength(2);
    expectGap(r.arrivals, 0, FIRST_RETRY);
    const [first, second] = r.received;
    expect(first?.headers['x-cms-delivery']).toBe(delivery.id);
    expect(second?.headers['x-cms-delivery']).toBe(delivery.id);
    expect(second?.headers['webhook-id']).toBe(delivery.id);
    expect(second?.rawBody.equals(first?.rawBody ?? Buffer.alloc(0))).toBe(true);
    for (const request of r.received) {
      expect(verifyWebhook(request.rawBody, String(request.headers['x-cms-signature']), WEBHOOK_SECRET).ok).toBe(true);
    }
  });

  it('retries 4xx answers too, at +1 s and +2 s', async () => {
    const { receiver: r, webhook } = await deliverTo([404, 410, 202]);
    const delivery = await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 202 });
    expect(r.received).toHaveLength(3);
    expectGap(r.arrivals, 0, FIRST_RETRY);
    expectGap(r.arrivals, 1, SECOND_RETRY);
  });

  it('fails after the third failed attempt, stays in the log as failed, and is not retried again', async () => {
    const { receiver: r, webhook } = await deliverTo([503]);
    const delivery = await waitForDeliveryStatus(t, webhook.id, 'failed');
    expect(delivery).toMatchObject({
      event: 'content.created',
      attempts: 3,
      lastStatusCode: 503,
      lastError: expect.stringContaining('503'),
      nextAttemptAt: null,
    });
    expect(delivery.durationMs).toEqual(expect.any(Number));
    expectGap(r.arrivals, 0, FIRST_RETRY);
    expectGap(r.arrivals, 1, SECOND_RETRY);
    expect(new Set(r.received.map((request) => request.headers['x-cms-delivery']))).toEqual(new Set([delivery.id]));

    const log = await attemptLog(webhook.id, delivery.id);
    expect(log.map((entry) => [entry.round, entry.attempt, entry.succeeded, entry.statusCode])).toEqual([
      [1, 1, false, 503],
      [1, 2, false, 503],
      [1, 3, false, 503],
    ]);
    expect(log[0]?.responseSnippet).toBe('error 503');

    await sleep(2_500);
    expect(r.received).toHaveLength(3);
    const failed = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?status=failed`);
    expect(failed.body.data.map((entry: { id: string }) => entry.id)).toEqual([delivery.id]);
    expect(failed.body.pagination).toMatchObject({ total: 1, limit: 20, offset: 0, hasMore: false });
  });

  it('retries a refused connection and records the network error', async () => {
    const webhook = await createWebhook(t, { url: await refusedUrl() });
    await recordEvent(t.db);
    const delivery = await waitForDeliveryStatus(t, webhook.id, 'failed');
    expect(delivery).toMatchObject({
      attempts: 3,
      lastStatusCode: null,
      lastError: expect.stringMatching(/ECONNREFUSED/),
    });
    const log = await attemptLog(webhook.id, delivery.id);
    expect(log).toHaveLength(3);
    const at = log.map((entry) => Date.parse(entry.attemptedAt));
    expectGap(at, 0, FIRST_RETRY);
    expectGap(at, 1, SECOND_RETRY);
  });

  it('paginates and filters the delivery log, and rejects unknown query parameters', async () => {
    const scripted = await startScriptedReceiver(webhookEnv.certificates, [200]);
    receiver = scripted;
    const webhook = await createWebhook(t, { url: scripted.url('/many') });
    for (let n = 0; n < 5; n++) await recordEvent(t.db);
    await waitFor('5 deliveries', () => (scripted.received.length >= 5 ? true : undefined));
    const page = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=2&offset=2`);
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.pagination).toEqual({ total: 5, limit: 2, offset: 2, hasMore: true });
    const none = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?status=failed`);
    expect(none.body.data).toEqual([]);
    const bad = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?state=failed`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_QUERY_PARAM');
    const badStatus = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?status=lost`);
    expect(badStatus.body.error.code).toBe('INVALID_QUERY_PARAM');
    const tooMany = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=101`);
    expect(tooMany.body.error.code).toBe('INVALID_QUERY_PARAM');
  });
});
