import { verifyWebhook } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, publishDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { type ReceivedRequest, startReceiver, type TestReceiver } from './https-receiver.js';
import {
  createWebhook,
  createWebhookTestEnv,
  WEBHOOK_SECRET,
  type WebhookTestEnv,
  waitFor,
} from './webhook-fixtures.js';

// End to end: a content write through the API reaches a receiver as a signed delivery.

interface Seen {
  request: ReceivedRequest;
  /** The document as the receiver read it back through the API while handling the delivery. */
  readBack: { status: number; publishedVersion: number | null };
}

let webhookEnv: WebhookTestEnv;
let t: TestServer;
let receiver: TestReceiver;
const seen: Seen[] = [];

beforeAll(async () => {
  webhookEnv = await createWebhookTestEnv();
  t = await startTestServer({ env: webhookEnv.env });
  await syncSchema(t);
  // A receiver that reads the document back before answering, as receivers commonly do.
  receiver = await startReceiver(webhookEnv.certificates, (request, response) => {
    const { document } = JSON.parse(request.rawBody.toString('utf8'));
    t.request('GET', `/api/v1/content/${document.documentId}?draft=true`).then(
      (read) => {
        seen.push({
          request,
          readBack: { status: read.status, publishedVersion: read.body?.data?.publishedVersion ?? null },
        });
        response.writeHead(204).end();
      },
      () => response.writeHead(500).end(),
    );
  });
});

afterAll(async () => {
  await receiver.close();
  await t.close();
  await webhookEnv.cleanup();
});

describe('content events delivered to webhooks', () => {
  it('creating a document delivers content.created with the exact envelope, after the commit', async () => {
    await createWebhook(t, { url: receiver.url('/content'), events: ['content.created', 'content.published'] });
    const doc = await createDocument(t, { format: 'mdx' });

    const [first] = await waitFor('content.created', () => (seen.length >= 1 ? seen : undefined));
    if (!first) throw new Error('nothing received');
    const raw = first.request.rawBody;
    expect(verifyWebhook(raw, String(first.request.headers['x-cms-signature']), WEBHOOK_SECRET).ok).toBe(true);
    const envelope = JSON.parse(raw.toString('utf8'));
    expect(envelope).toEqual({
      event: 'content.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      project: 'default',
      environment: 'production',
      document: {
        documentId: doc.documentId,
        translationGroupId: doc.translationGroupId,
        type: 'post',
        path: doc.path,
        locale: doc.locale,
        format: 'mdx',
        version: 0,
      },
      user: { id: doc.createdBy, email: expect.any(String) },
      cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
    });
    expect(Object.keys(envelope)).toEqual([
      'event',
      'timestamp',
      'project',
      'environment',
      'document',
      'user',
      'cursor',
    ]);
    expect(Object.keys(envelope.document)).toEqual([
      'documentId',
      'translationGroupId',
      'type',
      'path',
      'locale',
      'format',
      'version',
    ]);
    expect(first.readBack).toEqual({ status: 200, publishedVersion: null });

    await publishDocument(t, doc.documentId);
    const [, second] = await waitFor('content.published', () => (seen.length >= 2 ? seen : undefined));
    const published = JSON.parse(second?.request.rawBody.toString('utf8') ?? '{}');
    expect(published).toMatchObject({
      event: 'content.published',
      document: { documentId: doc.documentId, version: 1 },
    });
    expect(second?.readBack).toEqual({ status: 200, publishedVersion: 1 });
    expect(second?.request.headers['x-cms-delivery']).not.toBe(first.request.headers['x-cms-delivery']);
  });
});
