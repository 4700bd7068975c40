import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { signWebhook, verifyWebhook } from '@cms/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendWebhookRequest, WEBHOOK_RESPONSE_SNIPPET_BYTES } from '../../src/webhooks/https-sender.js';
import { assertWebhookUrlAllowed, type WebhookDnsLookup } from '../../src/webhooks/webhook-url-policy.js';
import {
  createTestCertificates,
  type ReceiverHandler,
  startReceiver,
  type TestCertificates,
  type TestReceiver,
} from './https-receiver.js';

const secret = 'webhook-test-secret-of-at-least-32-chars';
const body = JSON.stringify({ event: 'content.published', project: 'default', title: 'Crème brûlée' });
const TEST_TIMEOUT_MS = 300;

let certificates: TestCertificates;
let receiver: TestReceiver | undefined;

beforeAll(async () => {
  certificates = await createTestCertificates();
});

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function receive(handler: ReceiverHandler): Promise<TestReceiver> {
  receiver = await startReceiver(certificates, handler);
  return receiver;
}

function answer(status: number, text = '', headers: Record<string, string> = {}): ReceiverHandler {
  return (_request, response) => response.writeHead(status, headers).end(text);
}

function send(url: string, overrides: Partial<Parameters<typeof sendWebhookRequest>[0]> = {}) {
  const headers = { ...signWebhook({ secret, body, deliveryId: 'dlv_1' }), 'X-CMS-Delivery': 'dlv_1' };
  return sendWebhookRequest({ url, body, headers, ca: certificates.caCert, allowPrivate: true, ...overrides });
}

describe('sendWebhookRequest over HTTPS', () => {
  it('delivers a signed body the receiver can verify on the raw bytes, and reports 2xx as success', async () => {
    const { url, received } = await receive(answer(204));
    const result = await send(url('/hooks/cms?x=1'));

    expect(result).toMatchObject({ ok: true, statusCode: 204 });
    expect(result.error).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    const [request] = received;
    if (!request) throw new Error('receiver got nothing');
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/cms?x=1' });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'cms-webhooks/1',
      'content-length': String(Buffer.byteLength(body)),
      'x-cms-delivery': 'dlv_1',
      'webhook-id': 'dlv_1',
    });
    expect(request.rawBody.toString('utf8')).toBe(body);
    expect(verifyWebhook(request.rawBody, String(request.headers['x-cms-signature']), secret)).toMatchObject({
      ok: true,
    });
    const t = String(request.headers['webhook-timestamp']);
    const expected = createHmac('sha256', secret).update(`dlv_1.${t}.`).update(request.rawBody).digest('base64');
    expect(request.headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('keeps the Content-Type and User-Agent it owns even if the caller passes others', async () => {
    const { url, received } = await receive(answer(200, 'thanks'));
    const result = await send(url('/'), { headers: { 'content-type': 'text/plain', 'user-agent': 'evil' } });
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseBodySnippet: 'thanks' });
    expect(received[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'cms-webhooks/1' });
  });

  it.each([400, 404, 410, 500, 503])('reports %i as a failure with its status and body snippet', async (status) => {
    const { url } = await receive(answer(status, `{"error":"status ${status}"}`));
    const result = await send(url('/'));
    expect(result).toMatchObject({
      ok: false,
      statusCode: status,
      responseBodySnippet: `{"error":"status ${status}"}`,
    });
  });

  it('does not follow redirects', async () => {
    const { url, received } = await receive((request, response) => {
      if (request.path === '/moved') response.writeHead(302, { Location: '/elsewhere' }).end();
      else response.writeHead(200).end();
    });
    const result = await send(url('/moved'));
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: 'redirect to /elsewhere not followed' });
    expect(received.map((request) => request.path)).toEqual(['/moved']);
  });

  it('reads at most 4 KiB of the answer and does not wait for the rest', async () => {
    const { url } = await receive((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('x'.repeat(3 * WEBHOOK_RESPONSE_SNIPPET_BYTES));
      // Never ends: the sender must stop reading on its own, well before the timeout.
    });
    const result = await send(url('/'), { timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.responseBodySnippet).toBe('x'.repeat(WEBHOOK_RESPONSE_SNIPPET_BYTES));
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('fails with a timeout when the receiver never answers', async () => {
    const { url, received } = await receive(() => {});
    const result = await send(url('/'), { timeoutMs: TEST_TIMEOUT_MS });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: `timed out after ${TEST_TIMEOUT_MS} ms` });
    expect(result.durationMs).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 5);
    expect(result.durationMs).toBeLessThan(TEST_TIMEOUT_MS + 1_000);
    expect(received).toHaveLength(1);
  });

  it('fails with a timeout when the receiver answers the status line but never finishes', async () => {
    const { url } = await receive((_request, response) => response.writeHead(200).write('partial'));
    const result = await send(url('/'), { timeoutMs: TEST_TIMEOUT_MS });
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: `timed out after ${TEST_TIMEOUT_MS} ms` });
  });

  it('fails with a timeout when the TLS handshake never completes', async () => {
    const sockets: Socket[] = [];
    const silent: TcpServer = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const result = await send(`https://127.0.0.1:${port}/`, { timeoutMs: TEST_TIMEOUT_MS });
      expect(result).toMatchObject({ ok: false, statusCode: null, error: `timed out after ${TEST_TIMEOUT_MS} ms` });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('fails with the network error when the connection is refused', async () => {
    const { port } = await receive(answer(200));
    await receiver?.close();
    receiver = undefined;
    const result = await send(`https://127.0.0.1:${port}/`);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('fails when the certificate is not trusted (no CA, or another CA)', async () => {
    const { url, received } = await receive(answer(200));
    const withoutCa = await send(url('/'), { ca: undefined });
    expect(withoutCa).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/certificate|issuer/i),
    });
    const otherCa = (await createTestCertificates('Another CA')).caCert;
    const withOtherCa = await send(url('/'), { ca: Buffer.from(otherCa) });
    expect(withOtherCa).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/certificate|issuer/i),
    });
    expect(received).toHaveLength(0);
  });
});

describe('sendWebhookRequest and the url policy', () => {
  const loopback: WebhookDnsLookup = async () => [{ address: '127.0.0.1', family: 4 }];

  it('connects to the address the policy checked, verifying the certificate by hostname', async () => {
    const { port, received } = await receive(answer(200));
    const result = await send(`https://receiver.test:${port}/hook`, { lookup: loopback });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(received[0]?.headers.host).toBe(`receiver.test:${port}`);
  });

  it('refuses http:// and private targets without connecting, unless private targets are allowed', async () => {
    const { port, url, received } = await receive(answer(200));
    const refusals = [
      await send(`http://127.0.0.1:${port}/`),
      await send(url('/'), { allowPrivate: false }),
      await send(`https://[::ffff:127.0.0.1]:${port}/`, { allowPrivate: false }),
      await send(`https://receiver.test:${port}/`, { allowPrivate: false, lookup: loopback }),
    ];
    for (const result of refusals) {
      expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^url: /) });
    }
    expect(refusals[0]?.error).toMatch(/https:\/\//);
    expect(refusals[1]?.error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(refusals[3]?.error).toMatch(/"receiver\.test" resolves to 127\.0\.0\.1 is a loopback address/);
    expect(received).toHaveLength(0);
  });

  it('refuses a host whose DNS answer turned private after the url was accepted (DNS rebinding)', async () => {
    const { port, received } = await receive(answer(200));
    let calls = 0;
    const rebinding: WebhookDnsLookup = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const url = `https://receiver.test:${port}/`;
    await expect(assertWebhookUrlAllowed(url, { allowPrivate: false, lookup: rebinding })).resolves.toHaveLength(1);
    const result = await send(url, { allowPrivate: false, lookup: rebinding });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/loopback address/) });
    expect(received).toHaveLength(0);
  });

  it('reports a host that does not resolve as a failed attempt', async () => {
    const nowhere: WebhookDnsLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND gone.example'), { code: 'ENOTFOUND' });
    };
    const result = await send('https://gone.example/', { lookup: nowhere });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/does not resolve/) });
  });
});

afterAll(async () => {
  await receiver?.close();
});
