import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/input-rules.js';
import { createDocument, createDocumentRequest, hashHeader, syncSchema, uniquePath } from '../content/fixtures.js';
import { openApiContract } from '../support/openapi-contract.js';
import { startTestServer, type TestResponse, type TestServer } from '../support/test-server.js';

let t: TestServer;
let documentId: string;
/** Answers whose status, media type or code the OpenAPI document does not declare for their operation. */
const undeclared: string[] = [];
beforeAll(async () => {
  t = await startTestServer();
  const contract = openApiContract((await t.request('GET', '/api/v1/openapi.json', { key: null })).body);
  const send = t.request;
  t.request = async (method, path, options) => {
    const response = await send(method, path, options);
    const answer = { status: response.status, contentType: response.headers.get('content-type'), text: response.text };
    const problem = contract.problemOf(method, path, answer);
    if (problem) undeclared.push(problem);
    return response;
  };
  await syncSchema(t);
  documentId = (await createDocument(t)).documentId;
});
afterAll(async () => {
  await t.close();
  expect(undeclared).toEqual([]);
});

function expectInvalid(response: TestResponse, code: string, field: string, says: RegExp): void {
  expect(response.status, response.text).toBe(400);
  expect(response.body.error.code).toBe(code);
  expect(Object.keys(response.body.error.details.fields)).toContain(field);
  expect(response.body.error.details.fields[field]).toMatch(says);
  expect(response.body.error.message).toContain(field);
  expect(response.body.error.requestId).toEqual(expect.any(String));
}

function post(frontmatter: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { type: 'post', path: uniquePath(), frontmatter: { title: 'T', slug: 't', ...frontmatter }, ...extra };
}

describe('strings PostgreSQL cannot store', () => {
  const NUL = /NUL character/;
  it.each([
    ['the body', post({}, { body: 'a\u0000b' }), 'body.body'],
    ['a frontmatter value', post({ title: 'a\u0000' }), 'body.frontmatter.title'],
    ['a frontmatter key', post({ 'x\u0000y': 1 }), 'body.frontmatter["x\\u0000y"]'],
    ['an array item', post({ tags: ['ok', 'b\u0000'] }), 'body.frontmatter.tags[1]'],
  ])('refuses NUL in %s with INVALID_INPUT naming the field', async (_name, body, field) => {
    expectInvalid(await createDocumentRequest(t, body), 'INVALID_INPUT', field, NUL);
  });

  it('refuses NUL in changeSummary on publish', async () => {
    const response = await t.request('POST', `/api/v1/content/${documentId}/publish`, {
      body: { changeSummary: 'x\u0000' },
    });
    expectInvalid(response, 'INVALID_INPUT', 'body.changeSummary', NUL);
  });

  it('refuses a lone surrogate in frontmatter', async () => {
    const response = await createDocumentRequest(t, post({ title: 'a\ud800b' }));
    expectInvalid(response, 'INVALID_INPUT', 'body.frontmatter.title', /lone UTF-16 surrogate/);
  });

  it('keeps surrogate pairs (emoji) and ordinary control characters', async () => {
    const response = await createDocumentRequest(t, post({ title: 'ok \u{1F600} tab\there' }));
    expect(response.status, response.text).toBe(201);
    expect(response.body.data.frontmatter.title).toBe('ok \u{1F600} tab\there');
  });

  it('refuses NUL in a query parameter with INVALID_QUERY_PARAM', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post&q=a%00b');
    expectInvalid(response, 'INVALID_QUERY_PARAM', 'q', NUL);
  });

  it('refuses NUL in a path parameter', async () => {
    const response = await t.request('GET', '/api/v1/schema/po%00st');
    expectInvalid(response, 'INVALID_INPUT', 'params.type', NUL);
  });
});

describe('nesting depth', () => {
  /** `{"a":{"a":...}}` as text: JSON.stringify itself would overflow the stack. */
  function nested(levels: number): string {
    return `${'{"a":'.repeat(levels)}"leaf"${'}'.repeat(levels)}`;
  }

  it('answers 400 (not a stack overflow) for frontmatter nested 10,000 levels deep', async () => {
    const frontmatter = `{"title":"T","slug":"t","deep":${nested(10_000)}}`;
    const response = await t.request('POST', '/api/v1/content', {
      rawBody: `{"type":"post","path":"${uniquePath()}","frontmatter":${frontmatter}}`,
      headers: { 'content-type': 'application/json', ...hashHeader() },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    const [field, message] = Object.entries(response.body.error.details.fields)[0] as [string, string];
    expect(field.startsWith('body.frontmatter.deep')).toBe(true);
    expect(message).toContain(`at most ${MAX_JSON_DEPTH}`);
  });

  it('answers 400 for arrays nested 10,000 levels deep on any route', async () => {
    const body = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const response = await t.request('PUT', '/api/v1/schema/sync', {
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('integer bounds', () => {
  it('refuses draftRevision beyond the column range, naming the allowed range', async () => {
    const response = await t.request('PUT', `/api/v1/content/${documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: { title: 'T', slug: 't' }, body: '', draftRevision: 2_147_483_648 },
    });
    expectInvalid(response, 'INVALID_INPUT', 'body.draftRevision', /from 1 to 2147483647/);
  });

  it('refuses a version number beyond the column range in the path', async () => {
    const response = await t.request('GET', `/api/v1/content/${documentId}/versions/99999999999999`);
    expectInvalid(response, 'INVALID_INPUT', 'params.version', /integer from 1 to 2147483647/);
  });

  // '1e309' reads as Infinity, which coercion would let past every bound.
  it.each(['1e309', '-1e400', 'Infinity'])(
    'refuses %s in a path parameter as the malformed number it is',
    async (huge) => {
      const response = await t.request('GET', `/api/v1/content/${documentId}/versions/${huge}`);
      expectInvalid(response, 'INVALID_INPUT', 'params.version', /integer from 1 to 2147483647; got "/);
    },
  );

  it.each(['1e309', 'Infinity'])('refuses %s as a query limit, naming the range', async (huge) => {
    for (const path of ['/api/v1/audit', '/api/v1/content']) {
      const response = await t.request(
        'GET',
        `${path}?limit=${huge}`,
        path === '/api/v1/audit' ? { environment: null } : {},
      );
      expectInvalid(response, 'INVALID_QUERY_PARAM', 'limit', new RegExp(`integer from 1 to \\d+; got "${huge}"`));
    }
  });

  it('keeps a text parameter that reads as a huge number', async () => {
    const response = await t.request('GET', '/api/v1/search?q=1e309');
    expect(response.status, response.text).toBe(200);
  });

  it('refuses a number in a JSON body past the largest double', async () => {
    const response = await t.request('POST', '/api/v1/content', {
      headers: { ...hashHeader(), 'content-type': 'application/json' },
      rawBody: `{"type":"post","path":"${uniquePath()}","frontmatter":{"title":"T","slug":"t","rating":1e400}}`,
    });
    expectInvalid(response, 'INVALID_INPUT', 'body.frontmatter.rating', /past the largest/);
  });
});

describe('Content-Type: application/json with an empty body', () => {
  it('means no body on routes that take none', async () => {
    const doc = await createDocument(t);
    const json = { 'content-type': 'application/json' };
    const publish = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, {
      rawBody: '',
      headers: json,
    });
    expect(publish.status, publish.text).toBe(200);
    const unpublish = await t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`, {
      rawBody: '',
      headers: json,
    });
    expect(unpublish.status, unpublish.text).toBe(200);
    const duplicate = await t.request('POST', `/api/v1/content/${doc.documentId}/duplicate`, {
      rawBody: '',
      headers: json,
    });
    expect(duplicate.status, duplicate.text).toBe(201);
    const remove = await t.request('DELETE', `/api/v1/content/${doc.documentId}`, { rawBody: '', headers: json });
    expect(remove.status, remove.text).toBe(200);
    const restore = await t.request('POST', `/api/v1/content/${doc.documentId}/restore`, {
      rawBody: '',
      headers: json,
    });
    expect(restore.status, restore.text).toBe(200);
  });

  it('is a missing body, named as such, on routes that need one', async () => {
    const response = await t.request('POST', '/api/v1/content', {
      rawBody: '',
      headers: { 'content-type': 'application/json', ...hashHeader() },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.message).toMatch(/^body is required: send an object with/);
  });
});

describe('validation messages', () => {
  it('names a missing property once, with what to send', async () => {
    const response = await createDocumentRequest(t, { path: uniquePath(), frontmatter: {} });
    expectInvalid(response, 'INVALID_INPUT', 'body.type', /^is required: send a string/);
    expect(response.body.error.message).not.toMatch(/must have required property/);
  });

  it('names the allowed values of an enum', async () => {
    const response = await t.request('GET', '/api/v1/content?type=post&sort=size');
    expectInvalid(
      response,
      'INVALID_QUERY_PARAM',
      'sort',
      /^must be one of "[a-zA-Z]+"(, "[a-zA-Z]+")* or "[a-zA-Z]+"; got "size"$/,
    );
  });

  it('lists the allowed properties for an unknown one', async () => {
    const response = await createDocumentRequest(t, post({}, { colour: 'red' }));
    expectInvalid(response, 'INVALID_INPUT', 'body.colour', /^is not an allowed property: use "type", /);
  });

  it('says which Content-Type a JSON route expects on 415', async () => {
    const response = await t.request('POST', '/api/v1/content', {
      rawBody: 'type=post',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...hashHeader() },
    });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(response.body.error.message).toContain('application/x-www-form-urlencoded');
    expect(response.body.error.message).toContain('Content-Type: application/json');
  });

  it('says which Content-Type the upload route expects on 415', async () => {
    const response = await t.request('POST', '/api/v1/media/upload', { body: { file: 'x' } });
    expect(response.status).toBe(415);
    expect(response.body.error.message).toContain('Content-Type: multipart/form-data');
  });

  it('tells how to sync the schema on SCHEMA_HASH_MISMATCH and SCHEMA_NOT_FOUND', async () => {
    const mismatch = await createDocumentRequest(t, post({}), { headers: { 'x-cms-schema-hash': 'sha256:old' } });
    expect(mismatch.body.error.code).toBe('SCHEMA_HASH_MISMATCH');
    expect(mismatch.body.error.message).toContain('cms schema sync');
    expect(mismatch.body.error.message).toContain('PUT /api/v1/schema/sync');
    const missing = await t.request('GET', '/api/v1/schema/nosuchtype');
    expect(missing.body.error.code).toBe('SCHEMA_NOT_FOUND');
    expect(missing.body.error.message).toContain('PUT /api/v1/schema/sync');
  });
});
