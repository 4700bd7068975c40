/**
 * Transport behaviour against a scripted loopback HTTP server: retries on 503 and 429 honouring
 * Retry-After, writes retried only when the API says nothing was written, timeouts and network
 * failures as their own errors.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CmsError, CmsNetworkError, CmsTimeoutError, createClient } from '@cms/sdk';
import { afterEach, describe, expect, it } from 'vitest';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

interface Scripted {
  url: string;
  hits: { method: string; url: string; headers: IncomingMessage['headers']; at: number }[];
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function envelope(code: string, status: number) {
  return {
    error: { status: 'error', code, message: code, statusCode: status, details: {}, requestId: 'req-1', timestamp: '' },
  };
}

async function scripted(answers: Answer[]): Promise<Scripted> {
  const hits: Scripted['hits'] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    hits.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      at: performance.now(),
    });
    const answer = answers[Math.min(hits.length - 1, answers.length - 1)] ?? { status: 200 };
    if (answer === 'hang') return;
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.body ?? { data: { ok: true } }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: async () => {} };
}

const fast = { retries: 2, baseDelayMs: 1, maxDelayMs: 5_000 };

describe('retries', () => {
  it('retries a read on 503, waiting the Retry-After seconds, then returns the data', async () => {
    const server = await scripted([
      { status: 503, headers: { 'retry-after': '1' }, body: envelope('SERVICE_UNAVAILABLE', 503) },
      { status: 200, body: { data: { principalType: 'apiKey' } } },
    ]);
    const cms = createClient({ baseUrl: server.url, apiKey: 'k', retries: fast });
    await expect(cms.me.get()).resolves.toEqual({ principalType: 'apiKey' });
    expect(server.hits).toHaveLength(2);
    const [first, second] = server.hits;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries a read on a bare 429 or 503 and gives up after the allowed attempts', async () => {
    const server = await scripted([{ status: 503, body: 'busy' }]);
    const cms = createClient({ baseUrl: server.url, retries: fast });
    const error = await cms.me.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CmsError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(server.hits).toHaveLength(3);
  });

  it('retries a write when the envelope says nothing was written', async () => {
    const server = await scripted([
      { status: 429, headers: { 'retry-after': '0' }, body: envelope('RATE_LIMITED', 429) },
      { status: 201, body: { data: { id: 'w1' } } },
    ]);
    const cms = createClient({ baseUrl: server.url, retries: fast });
    await expect(
      cms.webhooks.create({ url: 'https://x.test', events: ['content.created'], secret: 's' }),
    ).resolves.toEqual({ id: 'w1' });
    expect(server.hits.map((hit) => hit.method)).toEqual(['POST', 'POST']);
  });

  it('does not retry a write on a 503 that is not the API saying nothing was written', async () => {
    const server = await scripted([{ status: 503, body: '<html>proxy</html>' }, { status: 201 }]);
    const cms = createClient({ baseUrl: server.url, retries: fast });
    await expect(cms.content.publish('d1')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(server.hits).toHaveLength(1);
  });

  it('never retries other errors, and gives up when Retry-After exceeds the longest wait', async () => {
    const server = await scripted([{ status: 409, body: envelope('CONFLICT', 409) }]);
    const cms = createClient({ baseUrl: server.url, retries: fast });
    await expect(cms.me.get()).rejects.toMatchObject({ code: 'CONFLICT', requestId: 'req-1' });
    expect(server.hits).toHaveLength(1);

    const slow = await scripted([
      { status: 503, headers: { 'retry-after': '120' }, body: envelope('SERVICE_UNAVAILABLE', 503) },
    ]);
    const patient = createClient({ baseUrl: slow.url, retries: fast });
    await expect(patient.me.get()).rejects.toMatchObject({ retryAfterSeconds: 120 });
    expect(slow.hits).toHaveLength(1);
  });
});

describe('headers', () => {
  it('sends the key, routing headers, extra headers and the CSRF header in session mode', async () => {
    const server = await scripted([{ status: 200 }]);
    const cms = createClient({
      baseUrl: `${server.url}/`,
      apiKey: 'cms_key_live_x',
      project: 'site',
      environment: 'staging',
      headers: { 'x-trace': 't1' },
    });
    await cms.me.get();
    expect(server.hits[0]?.headers).toMatchObject({
      authorization: 'Bearer cms_key_live_x',
      'x-cms-project': 'site',
      'x-cms-environment': 'staging',
      'x-trace': 't1',
    });
    const studio = createClient({ baseUrl: server.url, session: { csrfToken: () => 'csrf-1' } });
    await studio.me.get();
    await studio.auth.logout();
    expect(server.hits[1]?.headers['x-cms-csrf-token']).toBeUndefined();
    expect(server.hits[2]?.headers['x-cms-csrf-token']).toBe('csrf-1');
    expect(server.hits[2]?.headers.authorization).toBeUndefined();
  });
});

describe('session mode in a browser', () => {
  it('reads the CSRF token from the cms_csrf cookie and sends credentials', async () => {
    const server = await scripted([{ status: 200 }]);
    const seen: RequestInit[] = [];
    const recording: typeof fetch = (input, init) => {
      seen.push(init ?? {});
      return fetch(input, init);
    };
    const global = globalThis as { document?: { cookie: string } };
    global.document = { cookie: 'theme=dark; cms_csrf=tok%2B1; other=x' };
    try {
      const studio = createClient({ baseUrl: server.url, session: true, fetch: recording });
      await studio.me.get();
      await studio.auth.logout();
    } finally {
      delete global.document;
    }
    expect(server.hits[0]?.headers['x-cms-csrf-token']).toBeUndefined();
    expect(server.hits[1]?.headers['x-cms-csrf-token']).toBe('tok+1');
    expect(seen.map((init) => init.credentials)).toEqual(['include', 'include']);
  });
});

describe('timeouts and network failures', () => {
  it('throws CmsTimeoutError when no answer comes within timeoutMs, and does not retry it', async () => {
    const server = await scripted(['hang']);
    const cms = createClient({ baseUrl: server.url, timeoutMs: 200, retries: fast });
    const error = await cms.me.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CmsTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, method: 'GET' });
    expect(server.hits).toHaveLength(1);
  });

  it('rejects with the caller signal reason when the caller aborts', async () => {
    const server = await scripted(['hang']);
    const cms = createClient({ baseUrl: server.url });
    const controller = new AbortController();
    const pending = cms.me.get({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('navigated away')), 50);
    await expect(pending).rejects.toThrow('navigated away');
  });

  it('throws CmsNetworkError when nothing listens, after retrying the read', async () => {
    const server = await scripted([{ status: 200 }]);
    const url = server.url;
    const closing = servers.pop();
    await new Promise((resolve) => closing?.close(resolve));
    const cms = createClient({ baseUrl: url, retries: fast });
    const error = await cms.me.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CmsNetworkError);
    expect(error).not.toBeInstanceOf(CmsError);
  });
});
