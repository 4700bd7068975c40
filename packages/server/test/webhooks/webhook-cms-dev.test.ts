/**
 * CMS_DEV, for trying webhooks locally: a receiver on 127.0.0.1 with a self-signed certificate is
 * accepted without CMS_WEBHOOK_ALLOW_PRIVATE or CMS_WEBHOOK_CA_FILE; without it both are refused;
 * with NODE_ENV=production the setting stops the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createTestCertificates, type TestCertificates } from './https-receiver.js';
import {
  createWebhook,
  listDeliveries,
  recordEvent,
  type ScriptedReceiver,
  startScriptedReceiver,
  WEBHOOK_SECRET,
  waitFor,
  waitForDeliveryStatus,
} from './webhook-fixtures.js';

let certificates: TestCertificates;
let receiver: ScriptedReceiver;
let dev: TestServer;
let plain: TestServer;

beforeAll(async () => {
  // A CA the server is not told about: to the server, the receiver's certificate is self-signed.
  certificates = await createTestCertificates();
  receiver = await startScriptedReceiver(certificates, [204, 204, 204]);
  dev = await startTestServer({ env: { CMS_DEV: 'true' } });
  plain = await startTestServer({ env: { CMS_WEBHOOK_ALLOW_PRIVATE: 'true' } });
});

afterAll(async () => {
  await receiver?.close();
  await dev?.close();
  await plain?.close();
});

describe('CMS_DEV and local webhook receivers', () => {
  it('accepts a loopback receiver and delivers to it over a self-signed certificate', async () => {
    const webhook = await createWebhook(dev, { url: receiver.url('/hooks') });
    await recordEvent(dev.db);
    const delivery = await waitForDeliveryStatus(dev, webhook.id, 'succeeded');
    expect(delivery).toMatchObject({ status: 'succeeded' });
    expect(receiver.received.at(-1)?.path).toBe('/hooks');
  });

  it('without CMS_DEV, refuses the loopback url', async () => {
    const refused = await startTestServer();
    try {
      const response = await refused.request('POST', '/api/v1/webhooks', {
        body: { url: receiver.url('/hooks'), events: ['content.created'], secret: WEBHOOK_SECRET },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('INVALID_INPUT');
      expect(response.body.error.details.fields.url).toMatch(/CMS_WEBHOOK_ALLOW_PRIVATE/);
    } finally {
      await refused.close();
    }
  });

  it('without CMS_DEV, fails the delivery on the untrusted certificate', async () => {
    const webhook = await createWebhook(plain, { url: receiver.url('/hooks') });
    await recordEvent(plain.db);
    const delivery = await waitFor('a failed first attempt', async () =>
      (await listDeliveries(plain, webhook.id)).data.find((entry) => entry.attempts >= 1),
    );
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: null });
    expect(delivery.lastError).toMatch(/certificate/i);
  });

  it('cannot be set in production', () => {
    expect(() => loadConfig({ CMS_SECRET: 'x'.repeat(32), CMS_DEV: 'true', NODE_ENV: 'production' })).toThrow(
      new ConfigError('CMS_DEV cannot be set with NODE_ENV=production.'),
    );
    expect(loadConfig({ CMS_SECRET: 'x'.repeat(32), CMS_DEV: 'yes' }).dev).toBe(true);
  });
});
