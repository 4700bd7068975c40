/**
 * A 2xx answer that is not the API's JSON envelope (a proxy's HTML page, an empty body, other JSON)
 * rejects with `CmsError` `INVALID_RESPONSE` instead of resolving to `undefined`; answers without a
 * body by definition (204, 304) still resolve. A loopback HTTP server plays the misconfigured proxy.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CmsError, createClient, isCmsError } from '@cms/sdk';
import { afterEach, describe, expect, it } from 'vitest';

interface Answer {
  status: number;
  contentType?: string;
  body?: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Answers every request with `answer`, byte for byte; records the methods it saw. */
async function proxy(answer: Answer): Promise<{ url: string; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    methods.push(request.method ?? '');
    request.resume();
    response.writeHead(answer.status, answer.contentType ? { 'content-type': answer.contentType } : {});
    response.end(answer.body ?? '');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, methods };
}

const HTML = '<!doctype html><html><head><title>Sign in</title></head><body>Company SSO</body></html>';

async function failure(promise: Promise<unknown>): Promise<CmsError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CmsError);
  return error as CmsError;
}

describe('a 2xx answer that is not the API', () => {
  it('an HTML page rejects with INVALID_RESPONSE naming the status and content type', async () => {
    const server = await proxy({ status: 200, contentType: 'text/html; charset=utf-8', body: HTML });
    const cms = createClient({ baseUrl: server.url, apiKey: 'k', project: 'site', environment: 'production' });
    const error = await failure(cms.environments.list());
    expect(isCmsError(error, 'INVALID_RESPONSE')).toBe(true);
    expect(error.status).toBe(200);
    expect(error.details).toEqual({ status: 200, contentType: 'text/html; charset=utf-8', body: HTML });
    expect(error.message).toBe(
      `GET ${server.url}/api/v1/environments answered 200 with a text/html; charset=utf-8 body, not the API's JSON ` +
        'envelope: check that baseUrl is the CMS server itself and that no proxy in between answers in its place ' +
        '(a login page, a rewrite to the site, a cache).',
    );
  });

  it('an empty body where JSON was expected rejects too', async () => {
    const server = await proxy({ status: 200, contentType: 'application/json' });
    const cms = createClient({ baseUrl: server.url, apiKey: 'k' });
    const error = await failure(cms.me.get());
    expect(error).toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 200,
      details: { status: 200, contentType: 'application/json', body: '' },
    });
    expect(error.message).toContain('answered 200 with an empty body');
  });

  it('JSON without the envelope, or a page without pagination, rejects too', async () => {
    const other = await proxy({ status: 200, contentType: 'application/json', body: '{"ok":true}' });
    const error = await failure(createClient({ baseUrl: other.url }).me.get());
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toContain('with JSON that is not the envelope `{ "data": … }`');

    const page = await proxy({ status: 200, contentType: 'application/json', body: '{"data":[]}' });
    const paged = await failure(createClient({ baseUrl: page.url }).users.list());
    expect(paged.code).toBe('INVALID_RESPONSE');
  });

  it('a write answered by a page is not sent again: it may have been applied', async () => {
    const server = await proxy({ status: 201, contentType: 'text/html', body: HTML });
    const cms = createClient({ baseUrl: server.url, apiKey: 'k', retries: { retries: 3, baseDelayMs: 1 } });
    const error = await failure(cms.environments.create({ name: 'staging' }));
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 201 });
    expect(server.methods).toEqual(['POST']);
  });

  it('answers without a body by definition (204, 304) still resolve to undefined', async () => {
    for (const status of [204, 304]) {
      const server = await proxy({ status });
      await expect(createClient({ baseUrl: server.url }).me.get()).resolves.toBeUndefined();
    }
  });

  it('the envelope still resolves to its data', async () => {
    const server = await proxy({
      status: 200,
      contentType: 'application/json',
      body: '{"data":[{"name":"production","extends":null,"isDefault":true,"createdAt":"2030-01-01T00:00:00.000Z"}]}',
    });
    const list = await createClient({ baseUrl: server.url }).environments.list();
    expect(list.map((environment) => environment.name)).toEqual(['production']);
  });
});
