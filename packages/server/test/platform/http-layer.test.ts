import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openSocket, type RawAnswer, rawRequest, readAnswer } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  // Small timeouts so slow clients are cut off within the test.
  t = await startTestServer({ env: { CMS_REQUEST_TIMEOUT_MS: '800', CMS_HEADERS_TIMEOUT_MS: '400' } });
});
afterAll(() => t.close());

function expectEnvelope(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toContain('application/json');
  const body = JSON.parse(answer.body);
  expect(body.error).toMatchObject({ status: 'error', code, statusCode: status });
  expect(body.error.requestId).toEqual(expect.any(String));
  expect(body.error.timestamp).toEqual(expect.any(String));
  expect(body.error.message.length).toBeGreaterThan(20);
}

describe('answers Node gives before the framework sees the request', () => {
  it('431 HEADERS_TOO_LARGE for headers over 16 KiB', async () => {
    const answer = await rawRequest(t.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(answer, 431, 'HEADERS_TOO_LARGE');
  });

  it('400 INVALID_INPUT for two Content-Length headers', async () => {
    const answer = await rawRequest(
      t.url,
      'POST /api/v1/content HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    expectEnvelope(answer, 400, 'INVALID_INPUT');
  });

  it('400 INVALID_INPUT for a NUL in a header name', async () => {
    const answer = await rawRequest(t.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A\u0000b: 1\r\n\r\n');
    expectEnvelope(answer, 400, 'INVALID_INPUT');
  });

  it('400 INVALID_INPUT for an unknown method, naming the allowed ones', async () => {
    const answer = await rawRequest(t.url, 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expectEnvelope(answer, 400, 'INVALID_INPUT');
    expect(JSON.parse(answer.body).error.message).toContain('GET, POST, PUT, PATCH, DELETE');
  });
});

describe('slow clients', () => {
  it('cuts off a body sent a byte at a time with 408 REQUEST_TIMEOUT, while others are served', async () => {
    const started = Date.now();
    const slow = await Promise.all(Array.from({ length: 3 }, () => openSocket(t.url)));
    const answers = slow.map((socket) => readAnswer(socket, started));
    const timers = slow.map((socket) => {
      socket.write(
        'POST /api/v1/schema/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
      return setInterval(() => socket.writable && socket.write(' '), 100);
    });
    try {
      // A normal client is served while the slow ones hold their connections.
      const health = await t.request('GET', '/healthz');
      expect(health.status).toBe(200);
      for (const answer of await Promise.all(answers)) {
        expectEnvelope(answer, 408, 'REQUEST_TIMEOUT');
        expect(answer.elapsedMs).toBeLessThan(5000);
      }
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });

  it('cuts off a client that never finishes its headers', async () => {
    const socket = await openSocket(t.url);
    const answer = readAnswer(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const result = await answer;
    expectEnvelope(result, 408, 'REQUEST_TIMEOUT');
    expect(result.elapsedMs).toBeLessThan(5000);
  });
});

describe('half-closed requests', () => {
  it('answers a request whose client shut its write side after sending it', async () => {
    const socket = await openSocket(t.url);
    const answer = readAnswer(socket);
    socket.end(
      'GET /api/v1/content?type=post HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: Bearer ${t.adminKey}\r\nX-CMS-Project: default\r\nX-CMS-Environment: production\r\n\r\n`,
    );
    const result = await answer;
    expect(result.status, result.body).toBeLessThan(500);
    expect(JSON.parse(result.body)).toHaveProperty(result.status === 200 ? 'data' : 'error');
  });

  it('answers a half-closed write that touches the database', async () => {
    const body = JSON.stringify({ name: `half-closed-${Date.now()}` });
    const socket = await openSocket(t.url);
    const answer = readAnswer(socket);
    socket.end(
      'POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nAuthorization: Bearer ${t.adminKey}\r\n\r\n${body}`,
    );
    const result = await answer;
    expect(result.status, result.body).toBeLessThan(500);
    expect(JSON.parse(result.body)).toBeTypeOf('object');
  });
});

describe('URLs the router refuses', () => {
  it('answers a path that is not valid percent-encoded UTF-8 in the envelope', async () => {
    const response = await t.request('GET', '/api/v1/schema/%ED%A0%80');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { fields: { url: expect.any(String) } },
    });
    expect(response.body.error.message).toContain('percent-encoded UTF-8');
  });

  it('answers an over-long path segment in the envelope', async () => {
    const response = await t.request('GET', `/api/v1/webhooks/${'x'.repeat(500)}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(response.body.error.message).toContain('200 characters');
  });
});

describe('timeout settings', () => {
  const base = { CMS_DATA_DIR: '/nonexistent', CMS_SECRET: 'x'.repeat(32), CMS_PREVIEW_TOKEN_SECRET: 'off' };

  it('default to two minutes per request, ten seconds for headers, 72 s keep-alive', () => {
    expect(loadConfig(base)).toMatchObject({
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
    });
  });

  it('refuse a headers timeout longer than the request timeout, and malformed values', () => {
    expect(() => loadConfig({ ...base, CMS_REQUEST_TIMEOUT_MS: '1000', CMS_HEADERS_TIMEOUT_MS: '5000' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...base, CMS_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/CMS_REQUEST_TIMEOUT_MS/);
    expect(loadConfig({ ...base, CMS_REQUEST_TIMEOUT_MS: '0' }).requestTimeoutMs).toBe(0);
  });
});
