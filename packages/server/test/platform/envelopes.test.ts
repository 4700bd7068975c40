import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_PARTY_MODULES } from '../../src/modules/first-party.js';
import { probeModule } from '../support/probe-module.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ modules: [...FIRST_PARTY_MODULES, probeModule()], env: { CMS_MAX_BODY_BYTES: '2048' } });
});
afterAll(() => t.close());

function expectEnvelope(response: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body.error).toMatchObject({ status: 'error', code, statusCode: status });
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.details).toBeTypeOf('object');
  expect(response.body.error.requestId).toBe(response.headers.get('x-request-id'));
  expect(new Date(response.body.error.timestamp).toISOString()).toBe(response.body.error.timestamp);
}

describe('envelopes and error codes', () => {
  it('wraps a single resource in { data } with the declared status', async () => {
    const response = await t.request('POST', '/api/v1/probe/echo', { body: { name: 'a', count: 2 } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ data: { name: 'a', count: 2 } });
  });

  it('wraps lists in { data, pagination } with hasMore', async () => {
    const first = await t.request('GET', '/api/v1/probe/items?limit=20&offset=20');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.pagination).toEqual({ total: 45, limit: 20, offset: 20, hasMore: true });
    const last = await t.request('GET', '/api/v1/probe/items?limit=20&offset=40');
    expect(last.body.pagination).toEqual({ total: 45, limit: 20, offset: 40, hasMore: false });
  });

  it('answers unknown routes with NOT_FOUND in the envelope', async () => {
    expectEnvelope(await t.request('GET', '/api/v1/nothing-here'), 404, 'NOT_FOUND');
  });

  it('answers malformed JSON with INVALID_INPUT', async () => {
    const response = await t.request('POST', '/api/v1/probe/echo', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(response, 400, 'INVALID_INPUT');
  });

  it('answers schema violations with INVALID_INPUT and field details', async () => {
    const response = await t.request('POST', '/api/v1/probe/echo', { body: { count: -1, extra: true } });
    expectEnvelope(response, 400, 'INVALID_INPUT');
    expect(Object.keys(response.body.error.details.fields).sort()).toEqual(['body.count', 'body.extra', 'body.name']);
  });

  it('answers oversize bodies with PAYLOAD_TOO_LARGE', async () => {
    const response = await t.request('POST', '/api/v1/probe/echo', { body: { name: 'x'.repeat(5000) } });
    expectEnvelope(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a wrong content type with UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await t.request('POST', '/api/v1/probe/echo', {
      rawBody: 'name=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('rejects unknown, repeated and malformed query parameters with INVALID_QUERY_PARAM', async () => {
    const unknown = await t.request('GET', '/api/v1/probe/items?colour=red');
    expectEnvelope(unknown, 400, 'INVALID_QUERY_PARAM');
    expect(unknown.body.error.details.fields).toHaveProperty('colour');
    const repeated = await t.request('GET', '/api/v1/probe/items?limit=1&limit=2');
    expectEnvelope(repeated, 400, 'INVALID_QUERY_PARAM');
    expect(repeated.body.error.details.fields).toEqual({ limit: 'must not be repeated' });
    expectEnvelope(await t.request('GET', '/api/v1/probe/items?limit=abc'), 400, 'INVALID_QUERY_PARAM');
    expectEnvelope(await t.request('GET', '/api/v1/probe/items?limit=101'), 400, 'INVALID_QUERY_PARAM');
  });

  it('accepts declared repeatable parameters', async () => {
    const response = await t.request('GET', '/api/v1/probe/items?tag=a&tag=b');
    expect(response.status).toBe(200);
  });

  it('turns a bug into INTERNAL_ERROR without leaking its message', async () => {
    const response = await t.request('GET', '/api/v1/probe/crash');
    expectEnvelope(response, 500, 'INTERNAL_ERROR');
    expect(response.text).not.toContain('secret internal detail');
  });

  it('sets extra headers of an error, such as Retry-After', async () => {
    const response = await t.request('GET', '/api/v1/probe/rate');
    expectEnvelope(response, 429, 'RATE_LIMITED');
    expect(response.headers.get('retry-after')).toBe('7');
  });

  it('returns the request id on every response and keeps a safe incoming one', async () => {
    const ok = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(ok.headers.get('x-request-id')).toBe('trace-123');
    const unsafe = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
