import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, publishDocument, syncSchema } from '../content/fixtures.js';
import { createUser } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Larger than PostgreSQL's bigint: it used to reach SQL and answer 500. */
const HUGE_OFFSET = '10000000000000000000';

let t: TestServer;
let userId: string;
let documentId: string;
let webhookId: string;
beforeAll(async () => {
  t = await startTestServer({ env: { CMS_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  userId = (await createUser(t)).id;
  await syncSchema(t);
  documentId = (await createDocument(t)).documentId;
  await publishDocument(t, documentId);
  const webhook = await t.request('POST', '/api/v1/webhooks', {
    body: { url: 'https://127.0.0.1:9/hook', events: ['media.uploaded'], secret: 'x'.repeat(32) },
  });
  expect(webhook.status, webhook.text).toBe(201);
  webhookId = webhook.body.data.id;
});
afterAll(() => t.close());

function expectInvalidQueryParam(response: { status: number; text: string; body: any }, field: string): void {
  expect(response.status, response.text).toBe(400);
  expect(response.body.error.code).toBe('INVALID_QUERY_PARAM');
  expect(response.body.error.details.fields).toHaveProperty(field);
  expect(response.body.error.requestId).toEqual(expect.any(String));
}

describe('routes that declare no query parameters', () => {
  // Routes whose declarations have no `request.query`: mountActions gives them one that allows none.
  const routes: [string, () => string][] = [
    ['GET /webhooks', () => '/api/v1/webhooks'],
    ['GET /schema', () => '/api/v1/schema'],
    ['GET /environments', () => '/api/v1/environments'],
    ['GET /projects', () => '/api/v1/projects'],
    ['GET /api-keys', () => '/api/v1/api-keys'],
    ['GET /auth/sessions', () => '/api/v1/auth/sessions'],
    ['GET /users/{id}/grants', () => `/api/v1/users/${userId}/grants`],
    ['GET /users/{id}', () => `/api/v1/users/${userId}`],
    ['GET /me', () => '/api/v1/me'],
    ['GET /actions', () => '/api/v1/actions'],
    ['GET /studio/bootstrap', () => '/api/v1/studio/bootstrap'],
    ['GET /content/{id}/versions/{version}', () => `/api/v1/content/${documentId}/versions/1`],
    ['GET /content/{id}/variants', () => `/api/v1/content/${documentId}/variants`],
  ];

  it.each(routes)(
    '%s answers 200 without parameters and INVALID_QUERY_PARAM with an unknown one',
    async (_name, path) => {
      expect((await t.request('GET', path())).status).toBe(200);
      expectInvalidQueryParam(await t.request('GET', `${path()}?foo=1`), 'foo');
    },
  );

  it('rejects unknown parameters on commands too', async () => {
    const response = await t.request('POST', `/api/v1/content/${documentId}/publish?foo=1`);
    expectInvalidQueryParam(response, 'foo');
  });

  it('leaves raw documents (health, OpenAPI) alone: a query string there is ignored', async () => {
    expect((await t.request('GET', '/healthz?foo=1', { key: null })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/openapi.json?v=2', { key: null })).status).toBe(200);
  });
});

describe('offset is bounded on every list', () => {
  const lists: [string, () => string][] = [
    ['GET /content/{id}/versions', () => `/api/v1/content/${documentId}/versions`],
    ['GET /webhooks/{id}/deliveries', () => `/api/v1/webhooks/${webhookId}/deliveries`],
    ['GET /users', () => '/api/v1/users'],
    ['GET /content', () => '/api/v1/content?type=post'],
    ['GET /media', () => '/api/v1/media'],
    ['GET /search', () => '/api/v1/search?q=hello'],
  ];

  it.each(lists)('%s answers INVALID_QUERY_PARAM above 2147483647 and a page at it', async (_name, path) => {
    const separator = path().includes('?') ? '&' : '?';
    expectInvalidQueryParam(await t.request('GET', `${path()}${separator}offset=${HUGE_OFFSET}`), 'offset');
    expectInvalidQueryParam(await t.request('GET', `${path()}${separator}offset=2147483648`), 'offset');
    const last = await t.request('GET', `${path()}${separator}offset=2147483647`);
    expect(last.status, last.text).toBe(200);
    expect(last.body.data).toEqual([]);
    expect(last.body.pagination.offset).toBe(2147483647);
  });
});
