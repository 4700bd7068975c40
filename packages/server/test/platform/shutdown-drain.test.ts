import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_MODULES } from '../../src/modules/first-party.js';
import { probeModule } from '../support/probe-module.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads one HTTP/1.1 response with a Content-Length from a socket. */
function readResponse(socket: Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      socket.off('data', onData);
      socket.off('error', reject);
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestServer;
const logLines: Array<Record<string, any>> = [];
beforeAll(async () => {
  t = await startTestServer({
    modules: [...FIRST_PARTY_MODULES, probeModule({ slowMs: 500 })],
    env: { LOG_LEVEL: 'warn' },
    logStream: { write: (line) => logLines.push(JSON.parse(line)) },
  });
});
afterAll(() => t.close());

describe('requests that arrive while the server is closing', () => {
  it('answer 503 SERVICE_UNAVAILABLE in the error envelope with Connection: close, in-flight ones finish', async () => {
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    try {
      // A keep-alive connection that has served a request.
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const first = await readResponse(socket);
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');

      // Another connection holds the server open with a request in flight.
      const inFlight = t.request('GET', '/api/v1/probe/slow');
      await sleep(100);
      // The next request has begun (so the connection is not idle when the close starts) ...
      socket.write('GET /api/v1/me HTTP/1.1\r\n');
      await sleep(20);
      const closing = t.server.close();
      await sleep(50);
      // ... and arrives in full while the server is closing.
      const answer = readResponse(socket);
      socket.write('Host: localhost\r\nX-Request-Id: drain-check\r\n\r\n');
      const refused = await answer;

      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe('close');
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.headers['x-request-id']).toBe('drain-check');
      const envelope = JSON.parse(refused.body);
      expect(envelope).toMatchObject({
        error: { status: 'error', code: 'SERVICE_UNAVAILABLE', statusCode: 503, requestId: 'drain-check', details: {} },
      });
      expect(typeof envelope.error.message).toBe('string');
      expect(typeof envelope.error.timestamp).toBe('string');
      // Like every 503, it is logged at warn with its cause.
      expect(logLines.filter((line) => line.level === 40 && line.requestId === 'drain-check')).toMatchObject([
        { code: 'SERVICE_UNAVAILABLE', url: '/api/v1/me', msg: 'The server is shutting down; retry the request.' },
      ]);
      await ended;

      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(finished.body).toEqual({ data: { done: true } });
      await closing;
    } finally {
      socket.destroy();
    }
  });
});

describe('a connection that never sent a request', () => {
  it('is closed by the shutdown instead of holding it open (Node leaves such connections alone)', async () => {
    const spare = await startTestServer();
    const { port } = new URL(spare.url);
    // An HTTP client's spare connection, or a load balancer's warm one: open, and silent.
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closedByServer = new Promise((resolve) => socket.once('close', resolve));
    try {
      await spare.close();
      await closedByServer;
      expect(socket.destroyed).toBe(true);
    } finally {
      socket.destroy();
    }
  });
});
