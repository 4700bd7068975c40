import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '@cms/core';
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
  WEBHOOK_SECRET,
  type WebhookTestEnv,
  waitFor,
  waitForDeliveryStatus,
} from './webhook-fixtures.js';

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

async function failedDeliveries(webhookId: string, count: number) {
  return waitFor(`${count} failed deliveries`, async () => {
    const { data } = await listDeliveries(t, webhookId, '?status=failed');
    return data.length >= count ? data : undefined;
  });
}

describe('redelivery of one delivery', () => {
  it('starts a failed delivery over with the same id and the same bytes; attempts start at 0', async () => {
    const r = await receive([503, 503, 503, 200]);
    const webhook = await createWebhook(t, { url: r.url('/one') });
    await recordEvent(t.db);
    const failed = await waitForDeliveryStatus(t, webhook.id, 'failed');

    const response = await t.request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: failed.id,
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      lastAttemptAt: null,
      nextAttemptAt: expect.any(String),
    });

    const done = await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    expect(done).toMatchObject({ id: failed.id, attempts: 1, lastStatusCode: 200 });
    expect(r.received).toHaveLength(4);
    const [first, , , last] = r.received;
    expect(last?.headers['x-cms-delivery']).toBe(failed.id);
    expect(last?.headers['webhook-id']).toBe(failed.id);
    expect(last?.rawBody.equals(first?.rawBody ?? Buffer.alloc(0))).toBe(true);
    expect(verifyWebhook(last?.rawBody ?? '', String(last?.headers['x-cms-signature']), WEBHOOK_SECRET).ok).toBe(true);

    const detail = await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}`);
    const rounds = detail.body.data.attemptLog.map((entry: { round: number; attempt: number }) => [
      entry.round,
      entry.attempt,
    ]);
    expect(rounds).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [2, 1],
    ]);
  });

  it('redelivers a succeeded delivery too, and leaves a pending one as it is', async () => {
    const r = await receive([{ status: 200, delayMs: 400 }]);
    const webhook = await createWebhook(t, { url: r.url('/again') });
    await recordEvent(t.db);
    await waitFor('the first request', () => (r.received.length === 1 ? true : undefined));
    const [pending] = (await listDeliveries(t, webhook.id)).data;
    if (!pending) throw new Error('no delivery');
    const unchanged = await t.request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${pending.id}/redeliver`);
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.data).toMatchObject({ id: pending.id, status: 'pending' });

    await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    const again = await t.request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${pending.id}/redeliver`);
    expect(again.body.data).toMatchObject({ status: 'pending', attempts: 0 });
    await waitFor('the redelivery', () => (r.received.length === 2 ? true : undefined));
    await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    await sleep(300);
    expect(r.received.map((request) => request.headers['x-cms-delivery'])).toEqual([pending.id, pending.id]);
  });

  it('answers NOT_FOUND for an unknown delivery, refuses an inactive webhook, needs webhooks:write', async () => {
    const r = await receive([503]);
    const webhook = await createWebhook(t, { url: r.url('/refusals') });
    const unknown = await t.request('POST', `/api/v1/webhooks/${webhook.id}/deliveries/${randomUUID()}/redeliver`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    await recordEvent(t.db);
    const failed = await waitForDeliveryStatus(t, webhook.id, 'failed');
    const reader = await t.createKey({ scopes: ['webhooks:read'] });
    const path = `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`;
    expect((await t.request('POST', path, { key: reader })).status).toBe(403);
    expect((await t.request('GET', `/api/v1/webhooks/${webhook.id}/deliveries`, { key: reader })).status).toBe(200);

    await t.request('PUT', `/api/v1/webhooks/${webhook.id}`, { body: { active: false } });
    const inactive = await t.request('POST', path);
    expect(inactive.status).toBe(400);
    expect(inactive.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('inactive') });
  });
});

describe('bulk redelivery of failed deliveries', () => {
  it('redelivers every failed delivery created since the given time, and only those', async () => {
    const r = await receive([503, 503, 503, 503, 503, 503, 200]);
    const webhook = await createWebhook(t, { url: r.url('/bulk') });
    await recordEvent(t.db);
    const [older] = await failedDeliveries(webhook.id, 1);
    await sleep(20);
    const cut = new Date().toISOString();
    await recordEvent(t.db);
    await failedDeliveries(webhook.id, 2);

    const bulk = `/api/v1/webhooks/${webhook.id}/deliveries/redeliver`;
    const response = await t.request('POST', bulk, { body: { status: 'failed', since: cut } });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ redelivered: 1 });
    const succeeded = await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    expect(succeeded.id).not.toBe(older?.id);
    expect(r.received.at(-1)?.headers['x-cms-delivery']).toBe(succeeded.id);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await t.request('POST', bulk, { body: { status: 'failed', since: future } })).body.data).toEqual({
      redelivered: 0,
    });
    const all = await t.request('POST', bulk, { body: { status: 'failed', since: '2000-01-01T00:00:00.000Z' } });
    expect(all.body.data).toEqual({ redelivered: 1 });
    await waitFor('both succeeded', async () => {
      const { data } = await listDeliveries(t, webhook.id, '?status=succeeded');
      return data.length === 2 ? true : undefined;
    });
  });

  it('validates the body: status must be failed, since a timestamp', async () => {
    const webhook = await createWebhook(t, { url: 'https://127.0.0.1:9/never' });
    const bulk = `/api/v1/webhooks/${webhook.id}/deliveries/redeliver`;
    for (const body of [
      { status: 'succeeded', since: '2024-01-01T00:00:00.000Z' },
      { status: 'failed', since: 'yesterday' },
      { status: 'failed' },
    ]) {
      const response = await t.request('POST', bulk, { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('INVALID_INPUT');
    }
  });
});
