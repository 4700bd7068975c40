/**
 * verifyWebhook against the Standard Webhooks test vector, against deliveries a real server sends
 * to an HTTPS receiver on loopback, and each refusal reason. Also the webhooks area end to end.
 */
import { signWebhook } from '@cms/core';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from '@cms/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../../server/test/webhooks/https-receiver.js';
import {
  createWebhookTestEnv,
  refusedUrl,
  type WebhookTestEnv,
  waitFor,
} from '../../server/test/webhooks/webhook-fixtures.js';
import { PNG, type SdkHarness, startSdkServer } from './sdk-fixtures.js';

const SECRET = 'sdk-webhook-secret-0123456789abcdef0123456789';

describe('verifyWebhook: Standard Webhooks specification test vector', () => {
  const vector = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    payload: '{"test": 2432232314}',
    headers: {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    },
  };

  it('accepts the vector at its time', async () => {
    await expect(verifyWebhook({ ...vector, now: 1614265330 })).resolves.toEqual({ test: 2432232314 });
  });

  it('accepts one good signature among several, space separated', async () => {
    const headers = { ...vector.headers, 'webhook-signature': `v1,Zm9v ${vector.headers['webhook-signature']} v2,abc` };
    await expect(verifyWebhook({ ...vector, headers, now: 1614265330 })).resolves.toEqual({ test: 2432232314 });
  });

  it('refuses a changed body, an old timestamp and missing headers, saying why', async () => {
    const reason = (promise: Promise<unknown>) =>
      promise.then(
        () => 'accepted',
        (error: unknown) => (error instanceof WebhookVerificationError ? error.reason : String(error)),
      );
    expect(await reason(verifyWebhook({ ...vector, payload: '{"test": 2432232315}', now: 1614265330 }))).toBe(
      'bad_signature',
    );
    expect(await reason(verifyWebhook({ ...vector, now: 1614265330 + 301 }))).toBe('timestamp_out_of_tolerance');
    expect(await reason(verifyWebhook({ ...vector, now: 1614265330 + 301, toleranceSeconds: 600 }))).not.toBe(
      'timestamp_out_of_tolerance',
    );
    expect(await reason(verifyWebhook({ ...vector, headers: {}, now: 1614265330 }))).toBe('missing_header');
    expect(
      await reason(
        verifyWebhook({ ...vector, headers: { ...vector.headers, 'webhook-signature': 'v2,abc' }, now: 1614265330 }),
      ),
    ).toBe('malformed_header');
  });
});

describe('verifyWebhook: the X-CMS-Signature header', () => {
  const body = JSON.stringify({ event: 'content.published', document: { path: 'a' } });

  it('accepts what core signs, as a string, bytes, or with Headers', async () => {
    const headers = signWebhook({ secret: SECRET, body, deliveryId: 'dlv_1' });
    const cmsOnly = { 'x-cms-signature': headers['X-CMS-Signature'] };
    await expect(verifyWebhook({ payload: body, headers: cmsOnly, secret: SECRET })).resolves.toMatchObject({
      event: 'content.published',
    });
    await expect(
      verifyWebhook({ payload: new TextEncoder().encode(body), headers: new Headers(cmsOnly), secret: SECRET }),
    ).resolves.toMatchObject({ document: { path: 'a' } });
    const standardOnly = {
      'webhook-id': 'dlv_1',
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    };
    await expect(verifyWebhook({ payload: body, headers: standardOnly, secret: SECRET })).resolves.toBeDefined();
  });

  it('refuses a wrong secret, a malformed header and a stale timestamp', async () => {
    const headers = {
      'x-cms-signature': signWebhook({ secret: SECRET, body, deliveryId: 'd', timestamp: 1000 })['X-CMS-Signature'],
    };
    await expect(verifyWebhook({ payload: body, headers, secret: `${SECRET}x`, now: 1000 })).rejects.toMatchObject({
      reason: 'bad_signature',
    });
    await expect(verifyWebhook({ payload: body, headers, secret: SECRET })).rejects.toMatchObject({
      reason: 'timestamp_out_of_tolerance',
    });
    await expect(
      verifyWebhook({ payload: body, headers: { 'x-cms-signature': 'v1=abc' }, secret: SECRET }),
    ).rejects.toMatchObject({
      reason: 'malformed_header',
    });
  });
});

describe('webhooks through the SDK, verified on real deliveries', () => {
  let webhookEnv: WebhookTestEnv;
  let harness: SdkHarness;
  let receiver: TestReceiver;
  const verified: (WebhookEvent | string)[] = [];

  beforeAll(async () => {
    webhookEnv = await createWebhookTestEnv();
    harness = await startSdkServer(webhookEnv.env);
    receiver = await startReceiver(webhookEnv.certificates, (request, response) => {
      verifyWebhook({ payload: request.rawBody, headers: request.headers, secret: SECRET }).then(
        (event) => {
          verified.push(event);
          response.writeHead(204).end();
        },
        (error: WebhookVerificationError) => {
          verified.push(error.reason);
          response.writeHead(400).end(error.reason);
        },
      );
    });
  });
  afterAll(async () => {
    await receiver.close();
    await harness.server.close();
    await webhookEnv.cleanup();
  });

  it('creates, lists, updates a webhook; deliveries verify and are typed; redelivers; deletes', async () => {
    const cms = harness.client();
    const hook = await cms.webhooks.create({
      url: receiver.url('/hook'),
      events: ['content.created', 'media.uploaded'],
      secret: SECRET,
    });
    expect(hook).toMatchObject({ active: true, events: ['content.created', 'media.uploaded'] });
    expect((await cms.webhooks.list()).map((item) => item.id)).toEqual([hook.id]);

    const doc = await cms.content.create({ type: 'post', path: 'hooked', frontmatter: { title: 'Hooked' } });
    const asset = await cms.media.upload({ file: new Blob([PNG], { type: 'image/png' }), filename: 'p.png' });
    const content = await waitFor('a verified content event', () =>
      verified.find((event): event is WebhookEvent => typeof event !== 'string' && event.event === 'content.created'),
    );
    if (content.event === 'content.created')
      expect(content.document).toMatchObject({ documentId: doc.documentId, path: 'hooked' });
    const media = await waitFor('a verified media event', () =>
      verified.find((event): event is WebhookEvent => typeof event !== 'string' && event.event === 'media.uploaded'),
    );
    if (media.event === 'media.uploaded') expect(media.media).toMatchObject({ id: asset.id, filename: 'p.png' });
    expect(verified.filter((event) => typeof event === 'string')).toEqual([]);

    const deliveries = await waitFor('a succeeded delivery', async () => {
      const page = await cms.webhooks.deliveries(hook.id);
      return page.data.find((entry) => entry.status === 'succeeded' && entry.event === 'content.created')
        ? page
        : undefined;
    });
    const first = deliveries.data.find((entry) => entry.event === 'content.created');
    expect(deliveries.pagination.total).toBeGreaterThanOrEqual(1);
    if (!first) throw new Error('no delivery');
    expect((await cms.webhooks.delivery(hook.id, first.id)).attemptLog).toHaveLength(1);
    const before = verified.length;
    expect(await cms.webhooks.redeliver(hook.id, first.id)).toMatchObject({ id: first.id, status: 'pending' });
    await waitFor('the redelivery', () => verified.length > before);

    expect(await cms.webhooks.update(hook.id, { active: false })).toMatchObject({ active: false });
    expect(await cms.webhooks.delete(hook.id)).toEqual({ deleted: true, id: hook.id });
  });

  it('redelivers every failed delivery since a time', async () => {
    const cms = harness.client();
    const since = new Date(Date.now() - 1000).toISOString();
    const hook = await cms.webhooks.create({ url: await refusedUrl(), events: ['content.created'], secret: SECRET });
    await cms.content.create({ type: 'post', path: 'refused', frontmatter: { title: 'Nobody listens' } });
    await waitFor(
      'a failed delivery',
      async () => (await cms.webhooks.deliveries(hook.id, { status: 'failed' })).data[0],
      15_000,
    );
    expect(await cms.webhooks.redeliverFailed(hook.id, since)).toEqual({ redelivered: 1 });
    await cms.webhooks.delete(hook.id);
  });
});
