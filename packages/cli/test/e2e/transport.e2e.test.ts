/**
 * The built `cms` binary on the SDK's transport, against a real server behind a loopback proxy that
 * answers chosen requests itself: a 429 or 503 with Retry-After is waited out and retried (shown as
 * progress), and an error envelope reaches the person with its code, message, request id and exit code.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, type Workspace, workspaceOn } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await workspaceOn(server);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

interface Refusal {
  status: number;
  code: string;
  retryAfter?: string;
}

/** A proxy that answers the first `refusals.length` requests to `path` with those refusals, then forwards. */
async function startProxy(path: string, refusals: Refusal[]) {
  const target = new URL(server.url);
  let seen = 0;
  const proxy: Server = createServer((req, res) => {
    const refusal = req.url?.split('?')[0] === path ? refusals[seen++] : undefined;
    if (refusal) {
      req.resume();
      res.writeHead(refusal.status, {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': `proxy-${seen}`,
        ...(refusal.retryAfter ? { 'retry-after': refusal.retryAfter } : {}),
      });
      res.end(
        JSON.stringify({
          error: {
            status: 'error',
            code: refusal.code,
            message: `Refused by the test proxy (${refusal.code}).`,
            statusCode: refusal.status,
            details: {},
            requestId: `proxy-${seen}`,
            timestamp: new Date().toISOString(),
          },
        }),
      );
      return;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen: () => seen,
    close: () => new Promise<void>((done) => proxy.close(() => done())),
  };
}

describe('the CLI on the SDK transport', () => {
  it('waits out a 429 and a 503 with Retry-After, says so, and succeeds', async () => {
    const proxy = await startProxy('/api/v1/me', [
      { status: 429, code: 'RATE_LIMITED', retryAfter: '1' },
      { status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '0' },
    ]);
    try {
      const run = await ws.run(['whoami'], { env: { CMS_SERVER_URL: proxy.url } });
      expect(run.code, run.stderr).toBe(0);
      expect(proxy.seen()).toBe(3);
      expect(run.stderr).toContain('retry 1 in 1000 ms (server answered 429)');
      expect(run.stderr).toContain('retry 2 in 0 ms (server answered 503)');
    } finally {
      await proxy.close();
    }
  });

  it('retries `action run` (a route called by its path) the same way', async () => {
    const proxy = await startProxy('/api/v1/me', [{ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '0' }]);
    try {
      const run = await ws.run(['action', 'run', 'me.get', '--json'], { env: { CMS_SERVER_URL: proxy.url } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.json.data.principalType).toBe('apiKey');
      expect(proxy.seen()).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('an error envelope keeps its code, message and request id; UNAUTHORIZED exits 4', async () => {
    const proxy = await startProxy('/api/v1/me', [{ status: 401, code: 'UNAUTHORIZED' }]);
    try {
      const run = await ws.run(['whoami', '--json'], { env: { CMS_SERVER_URL: proxy.url } });
      expect(run.code).toBe(4);
      expect(run.json).toMatchObject({
        ok: false,
        exitCode: 4,
        error: {
          code: 'UNAUTHORIZED',
          status: 401,
          message: 'Refused by the test proxy (UNAUTHORIZED).',
          requestId: 'proxy-1',
          hint: expect.stringContaining('cms login'),
        },
      });
    } finally {
      await proxy.close();
    }
  });

  it('a refusal that does not go away ends with its own code after the retries, exit 1', async () => {
    const refusals = Array.from({ length: 5 }, () => ({ status: 429, code: 'RATE_LIMITED', retryAfter: '0' }));
    const proxy = await startProxy('/api/v1/me', refusals);
    try {
      const run = await ws.run(['whoami', '--json'], { env: { CMS_SERVER_URL: proxy.url } });
      expect(run.code).toBe(1);
      expect(run.json.error).toMatchObject({ code: 'RATE_LIMITED', status: 429, requestId: 'proxy-5' });
      expect(proxy.seen()).toBe(5);
    } finally {
      await proxy.close();
    }
  });
});
