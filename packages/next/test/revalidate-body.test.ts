/**
 * `revalidateHandler` looks at the signature headers before it reads a body, and reads at most
 * `maxBodyBytes`: an unsigned POST is refused with 400 having pulled nothing from its body stream,
 * a signed-looking one over the limit is refused with 413 having pulled little more than the limit
 * (or nothing, when `Content-Length` says so), and a signed delivery under the limit still
 * revalidates. Bodies are streams counted as they are pulled, sent as Next's `NextRequest`.
 */
import { randomUUID } from 'node:crypto';
import { signWebhook } from '@cms/core';
import { NextRequest } from 'next/server.js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_BODY_LIMIT, revalidateHandler } from '../src/index.js';

const SECRET = 'whsec_test_0123456789abcdef';
const MiB = 1024 * 1024;

/** A body stream of `size` bytes in 64 KiB chunks, counting what the reader pulled. */
function countedBody(size: number) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= size) return controller.close();
      const next = chunk.subarray(0, Math.min(chunk.length, size - pulled.bytes));
      pulled.bytes += next.length;
      controller.enqueue(next);
    },
  });
  return { stream, pulled };
}

function post(body: ReadableStream<Uint8Array> | string, headers: Record<string, string>) {
  return new NextRequest('https://site.test/api/revalidate', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as never);
}

const handler = (revalidated: string[] = [], maxBodyBytes?: number) =>
  revalidateHandler({
    secret: SECRET,
    revalidate: (tag) => void revalidated.push(tag),
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  });

describe('revalidateHandler reads headers first and caps the body', () => {
  it('refuses an unsigned 100 MB POST with 400 without reading its body', async () => {
    const { stream, pulled } = countedBody(100 * MiB);
    const response = await handler()(post(stream, { 'content-type': 'application/json' }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('missing_header');
    // A stream may be asked for its first chunk when it is set up; never for more.
    expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses a signed-looking body over the limit with 413, reading little past the limit', async () => {
    const headers = { ...signWebhook({ secret: SECRET, body: 'x', deliveryId: 'dlv_big' }) };
    const { stream, pulled } = countedBody(100 * MiB);
    const response = await handler()(post(stream, headers));
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(`over ${DEFAULT_WEBHOOK_BODY_LIMIT} bytes`);
    expect(pulled.bytes).toBeLessThanOrEqual(DEFAULT_WEBHOOK_BODY_LIMIT + 2 * 64 * 1024);
  });

  it('refuses at once when Content-Length is over the limit', async () => {
    const headers = { ...signWebhook({ secret: SECRET, body: 'x', deliveryId: 'dlv_len' }) };
    const { stream, pulled } = countedBody(4 * MiB);
    const response = await handler([], MiB)(post(stream, { ...headers, 'content-length': String(4 * MiB) }));
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('refuses malformed signature headers before the body too', async () => {
    const malformed: Record<string, string>[] = [
      { 'x-cms-signature': 'v1=abc' },
      { 'x-cms-signature': 't=abc,v1=00' },
      { 'webhook-id': 'a', 'webhook-timestamp': 'soon', 'webhook-signature': 'v1,AAAA' },
      { 'webhook-id': 'a', 'webhook-timestamp': '1700000000' },
    ];
    for (const headers of malformed) {
      const { stream, pulled } = countedBody(10 * MiB);
      const response = await handler()(post(stream, headers));
      expect(response.status, JSON.stringify(headers)).toBe(400);
      expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it('still revalidates a signed delivery under the limit, with either header style', async () => {
    const documentId = randomUUID();
    const body = JSON.stringify({
      event: 'content.published',
      timestamp: new Date().toISOString(),
      project: 'default',
      environment: 'production',
      user: { id: 'u1', email: '' },
      document: {
        documentId,
        translationGroupId: documentId,
        type: 'post',
        path: 'p',
        locale: 'en',
        format: 'md',
        version: 1,
      },
    });
    const signed = signWebhook({ secret: SECRET, body, deliveryId: 'dlv_ok' });
    const standard = Object.fromEntries(Object.entries(signed).filter(([name]) => name.startsWith('webhook-')));
    for (const headers of [{ ...signed }, standard]) {
      const revalidated: string[] = [];
      const response = await handler(revalidated)(post(body, headers));
      expect(response.status).toBe(200);
      expect(revalidated).toContain(`cms:document:${documentId}`);
    }
  });
});
