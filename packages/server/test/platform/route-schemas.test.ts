import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeferredCompilers } from '../../src/http/deferred-compilers.js';
import { syncSchema } from '../content/fixtures.js';
import { expectError } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

describe('route schemas compiled at first use (http/deferred-compilers.ts)', () => {
  it('are not compiled by the start, and every one of them compiles without an error', () => {
    // The start compiled none of them (the routes the setup requests called excepted).
    expect(t.server.routeSchemas.pending()).toBeGreaterThan(100);
    expect(t.server.routeSchemas.compileAll()).toBeGreaterThan(100);
    expect(t.server.routeSchemas.pending()).toBe(0);
  });

  it('validate, coerce and serialise exactly as compiled at the start', async () => {
    // Coerced query (limit is a number), defaults, and a refused parameter with its field.
    const list = await t.request('GET', '/api/v1/content?type=post&limit=2');
    expect(list.status, list.text).toBe(200);
    // Serialised by the response schema (fast-json-stringify): numbers and booleans as declared.
    expect(list.body).toEqual({ data: [], pagination: { total: 0, limit: 2, offset: 0, hasMore: false } });
    const refused = await t.request('GET', '/api/v1/content?type=post&limit=500');
    expectError(refused, 400, 'INVALID_QUERY_PARAM');
    expect(refused.body.error.details.fields).toHaveProperty('limit');
    // Headers are validated with their lower-case names.
    const locale = await t.request('GET', '/api/v1/content?type=post', {
      headers: { 'X-CMS-Locale': 'x'.repeat(300) },
    });
    expectError(locale, 400, 'INVALID_INPUT');
  });
});

describe('createDeferredCompilers', () => {
  it('compiles nothing until a validator is first called, then each one once', () => {
    const compilers = createDeferredCompilers();
    const build = compilers.compilersFactory.buildValidator({}, { customOptions: {} });
    const validate = build({ schema: { type: 'object', required: ['a'] }, method: 'GET', url: '/', httpPart: 'body' });
    expect(compilers.pending()).toBe(1);
    expect(validate({})).toBe(false);
    expect(validate.errors).toMatchObject([{ keyword: 'required' }]);
    expect(compilers.pending()).toBe(0);
    expect(validate({ a: 1 })).toBe(true);
    expect(validate.errors).toBeNull();
  });
});
