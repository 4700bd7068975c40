import { createHmac } from 'node:crypto';
import { verifyWebhook } from '@cms/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../../src/modules/domain-content/outbox.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import type { ReceivedRequest } from './https-receiver.js';
import {
  createWebhook,
  createWebhookTestEnv,
  deleteAllWebhooks,
  listDeliveries,
  recordEvent,
  SAMPLE_DOCUMENT,
  type ScriptedReceiver,
  sleep,
  startScriptedReceiver,
  targetOf,
  WEBHOOK_SECRET,
  type WebhookTestEnv,
  waitFor,
  waitForDeliveryStatus,
} from './webhook-fixtures.js';

let webhookEnv: WebhookTestEnv;
let t: TestServer;
let receiver: ScriptedReceiver;

beforeAll(async () => {
  webhookEnv = await createWebhookTestEnv();
  t = await startTestServer({ env: webhookEnv.env });
});

afterEach(async () => {
  await deleteAllWebhooks(t);
  await receiver?.close();
});

afterAll(async () => {
  await t.close();
  await webhookEnv.cleanup();
});

async function received(count: number): Promise<ReceivedRequest[]> {
  return waitFor(`${count} request(s) at the receiver`, () =>
    receiver.received.length >= count ? receiver.received : undefined,
  );
}

describe('webhook delivery', () => {
  it('POSTs the envelope, signed over the exact bytes sent, with the Standard Webhooks headers', async () => {
    receiver = await startScriptedReceiver(webhookEnv.certificates, [204]);
    const webhook = await createWebhook(t, { url: receiver.url('/hooks/cms?source=test') });
    await recordEvent(t.db);

    const [request] = await received(1);
    if (!request) throw new Error('nothing received');
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks/cms?source=test');
    expect(request.headers['content-type']).toBe('application/json');

    const signature = String(request.headers['x-cms-signature']);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(request.rawBody, signature, WEBHOOK_SECRET)).toMatchObject({ ok: true });
    expect(verifyWebhook(request.rawBody, signature, `${WEBHOOK_SECRET}x`)).toMatchObject({ ok: false });

    const deliveryId = String(request.headers['x-cms-delivery']);
    const timestamp = String(request.headers['webhook-timestamp']);
    expect(request.headers['webhook-id']).toBe(deliveryId);
    expect(signature.startsWith(`t=${timestamp},`)).toBe(true);
    const standard = createHmac('sha256', WEBHOOK_SECRET)
      .update(`${deliveryId}.${timestamp}.`)
      .update(request.rawBody)
      .digest('base64');
    expect(request.headers['webhook-signature']).toBe(`v1,${standard}`);

    const raw = request.rawBody.toString('utf8');
    const envelope = JSON.parse(raw);
    expect(Object.keys(envelope)).toEqual([
      'event',
      'timestamp',
      'project',
      'environment',
      'document',
      'user',
      'cursor',
    ]);
    expect(envelope).toEqual({
      event: 'content.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      project: 'default',
      environment: 'production',
      document: SAMPLE_DOCUMENT,
      user: { id: 'user-1', email: 'editor@example.com' },
      // The change's cursor in the change feed (docs/webhooks.md "Events and envelope").
      cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
    });
    expect(Object.keys(envelope.document)).toEqual(Object.keys(SAMPLE_DOCUMENT));

    const delivery = await waitForDeliveryStatus(t, webhook.id, 'succeeded');
    expect(delivery).toMatchObject({
      id: deliveryId,
      event: 'content.created',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(delivery.durationMs).toEqual(expect.any(Number));
    expect(Date.parse(delivery.lastAttemptAt ?? '')).toBeGreaterThanOrEqual(Date.parse(delivery.createdAt));
  });

  it('delivers media.uploaded with a media object instead of a document (decisions.md §6)', async () => {
    receiver = await startScriptedReceiver(webhookEnv.certificates, [200]);
    await createWebhook(t, { url: receiver.url('/media'), events: ['media.uploaded'] });
    const media = {
      url: 'https://cdn.example/a.png',
      id: 'm-1',
      sizeBytes: 42,
      mimeType: 'image/png',
      filename: 'a.png',
    };
    const target = await targetOf(t.db);
    await t.db.transaction((tx) =>
      createOutbox(t.db).record(tx, target, {
        type: 'media.uploaded',
        actor: { id: 'u', email: 'u@example.com' },
        media,
      }),
    );
    const [request] = await received(1);
    const envelope = JSON.parse(request?.rawBody.toString('utf8') ?? '{}');
    expect(Object.keys(envelope)).toEqual(['event', 'timestamp', 'project', 'environment', 'media', 'user']);
    expect(Object.keys(envelope.media)).toEqual(['id', 'filename', 'mimeType', 'sizeBytes', 'url']);
    expect(envelope.media).toEqual(media);
  });

  it('sends only subscribed events of its own environment, one delivery per webhook', async () => {
    receiver = await startScriptedReceiver(webhookEnv.certificates, [200]);
    const production = await targetOf(t.db);
    await t.db.query(
      "insert into environments (id, project_id, name, extends_id) values (gen_random_uuid(), $1, 'preview', $2)",
      [production.projectId, production.environmentId],
    );
    const published = await createWebhook(t, { url: receiver.url('/published'), events: ['content.published'] });
    const all = await createWebhook(t, { url: receiver.url('/all'), events: ['content.created', 'content.published'] });

    await recordEvent(t.db, { type: 'content.created' });
    await recordEvent(t.db, { type: 'content.published', environment: 'preview' });
    await recordEvent(t.db, { type: 'content.published' });

    await received(3);
    await sleep(500);
    const byPath = (path: string) => receiver.received.filter((request) => request.path === path);
    expect(byPath('/published').map((request) => JSON.parse(request.rawBody.toString()).event)).toEqual([
      'content.published',
    ]);
    expect(byPath('/all').map((request) => JSON.parse(request.rawBody.toString()).event)).toEqual([
      'content.created',
      'content.published',
    ]);
    const ids = receiver.received.map((request) => request.headers['x-cms-delivery']);
    expect(new Set(ids).size).toBe(3);
    expect((await listDeliveries(t, published.id)).pagination.total).toBe(1);
    expect((await listDeliveries(t, all.id)).pagination.total).toBe(2);
  });

  it('gives an inactive webhook nothing, not even events from its inactive time once reactivated', async () => {
    receiver = await startScriptedReceiver(webhookEnv.certificates, [200]);
    const webhook = await createWebhook(t, { url: receiver.url('/inactive'), active: false });
    await recordEvent(t.db, { document: { ...SAMPLE_DOCUMENT, path: 'while-inactive' } });
    await sleep(1_500);
    expect(receiver.received).toHaveLength(0);
    expect((await listDeliveries(t, webhook.id)).data).toEqual([]);

    const activated = await t.request('PUT', `/api/v1/webhooks/${webhook.id}`, { body: { active: true } });
    expect(activated.body.data.active).toBe(true);
    await recordEvent(t.db, { document: { ...SAMPLE_DOCUMENT, path: 'after-activation' } });
    const [request] = await received(1);
    await sleep(500);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(request?.rawBody.toString() ?? '{}').document.path).toBe('after-activation');
  });

  it('signs with the stored secret when an update omits it, and with the new one once given', async () => {
    receiver = await startScriptedReceiver(webhookEnv.certificates, [200]);
    const webhook = await createWebhook(t, { url: receiver.url('/secret') });
    await t.request('PUT', `/api/v1/webhooks/${webhook.id}`, { body: { events: ['content.created'] } });
    await recordEvent(t.db);
    const [first] = await received(1);
    expect(verifyWebhook(first?.rawBody ?? '', String(first?.headers['x-cms-signature']), WEBHOOK_SECRET).ok).toBe(
      true,
    );

    const rotated = 'rotated-secret-0123456789abcdef-0123456789';
    await t.request('PUT', `/api/v1/webhooks/${webhook.id}`, { body: { secret: rotated } });
    await recordEvent(t.db);
    const [, second] = await received(2);
    const header = String(second?.headers['x-cms-signature']);
    expect(verifyWebhook(second?.rawBody ?? '', header, rotated).ok).toBe(true);
    expect(verifyWebhook(second?.rawBody ?? '', header, WEBHOOK_SECRET).ok).toBe(false);
  });
});
