/**
 * Webhook events carry the change feed's cursor (docs/webhooks.md "Events and envelope"): following the
 * feed from an event's cursor lists what came after that change, and the event is sent only once its
 * change is in the feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, publishDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createWebhook,
  createWebhookTestEnv,
  type ScriptedReceiver,
  startScriptedReceiver,
  type WebhookTestEnv,
  waitFor,
} from '../webhooks/webhook-fixtures.js';
import { followFeed, summary } from './change-fixtures.js';

let webhookEnv: WebhookTestEnv;
let t: TestServer;
let receiver: ScriptedReceiver;

beforeAll(async () => {
  webhookEnv = await createWebhookTestEnv();
  t = await startTestServer({ env: webhookEnv.env });
  await syncSchema(t);
  receiver = await startScriptedReceiver(webhookEnv.certificates, [204]);
});

afterAll(async () => {
  await receiver.close();
  await t.close();
  await webhookEnv.cleanup();
});

describe('the cursor of webhook events', () => {
  it('is the change feed cursor of the change the event reports', async () => {
    await createWebhook(t, { url: receiver.url('/feed'), events: ['content.published', 'content.unpublished'] });
    const start = (await followFeed(t)).cursor;
    const a = await createDocument(t);
    await publishDocument(t, a.documentId);
    const b = await createDocument(t);
    await publishDocument(t, b.documentId);
    expect((await t.request('POST', `/api/v1/content/${a.documentId}/unpublish`)).status).toBe(200);

    const bodies = await waitFor('three deliveries', () =>
      receiver.received.length >= 3
        ? receiver.received.map((request) => JSON.parse(request.rawBody.toString()))
        : undefined,
    );
    const cursorOf = (event: string, documentId: string) =>
      bodies.find((body) => body.event === event && body.document.documentId === documentId)?.cursor as string;
    const afterA = cursorOf('content.published', a.documentId);
    const afterB = cursorOf('content.published', b.documentId);
    const afterUnpublish = cursorOf('content.unpublished', a.documentId);
    for (const cursor of [afterA, afterB, afterUnpublish]) expect(typeof cursor).toBe('string');

    expect(summary((await followFeed(t, start)).entries)).toEqual([
      `${a.documentId}:published:1`,
      `${b.documentId}:published:1`,
      `${a.documentId}:unpublished:1`,
    ]);
    expect(summary((await followFeed(t, afterA)).entries)).toEqual([
      `${b.documentId}:published:1`,
      `${a.documentId}:unpublished:1`,
    ]);
    expect(summary((await followFeed(t, afterB)).entries)).toEqual([`${a.documentId}:unpublished:1`]);
    expect((await followFeed(t, afterUnpublish)).entries).toEqual([]);
  });
});
