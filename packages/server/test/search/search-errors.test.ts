import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEnvironment, seedDocuments, seedSchema } from '../content-reads/read-fixtures.js';
import { type RequestOptions, startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await addEnvironment(t.db, 'staging');
  await seedSchema(t.db);
  await seedSchema(t.db, undefined, 'staging');
  const [production, staging] = await seedDocuments(t.db, [
    { type: 'author', path: 'authors/ada', published: { frontmatter: { name: 'Ada Lovelace' } } },
    {
      type: 'author',
      path: 'authors/ada',
      environment: 'staging',
      published: { frontmatter: { name: 'Ada Staging' } },
      frontmatter: { name: 'Ada Staging draft' },
    },
  ]);
  Object.assign(ids, { production, staging });
});
afterAll(() => t.close());

function search(query: string, options: RequestOptions = {}) {
  return t.request('GET', `/api/v1/search?${query}`, options);
}

async function expectError(query: string, status: number, code: string, options: RequestOptions = {}) {
  const response = await search(query, options);
  expect(response.status, `${query}: ${response.text}`).toBe(status);
  expect(response.body.error.code, query).toBe(code);
  return response.body.error;
}

describe('GET /search: tenant isolation', () => {
  it('finds only documents of the requested environment', async () => {
    const production = await search('q=ada');
    expect(production.body.data.map((hit: { documentId: string }) => hit.documentId)).toEqual([ids.production]);
    const staging = await search('q=ada', { environment: 'staging' });
    expect(staging.body.data.map((hit: { documentId: string }) => hit.documentId)).toEqual([ids.staging]);
    expect((await search('q=staging')).body.pagination.total).toBe(0);
    expect((await search('q=lovelace&draft=true', { environment: 'staging' })).body.pagination.total).toBe(0);
  });

  it('needs a key allowed in the environment', async () => {
    const stagingOnly = await t.createKey({
      scopes: ['content:read'],
      allowlist: [{ project: 'default', environment: 'staging' }],
    });
    expect((await search('q=ada', { key: stagingOnly, environment: 'staging' })).status).toBe(200);
    await expectError('q=ada', 403, 'FORBIDDEN', { key: stagingOnly });
  });
});

describe('GET /search: errors', () => {
  it('needs the routing headers and credentials', async () => {
    await expectError('q=ada', 400, 'TARGET_REQUIRED', { environment: null });
    await expectError('q=ada', 401, 'UNAUTHORIZED', { key: null });
    const writer = await t.createKey({ scopes: ['content:write'] });
    await expectError('q=ada', 403, 'FORBIDDEN', { key: writer });
  });

  it('needs content:read:draft for draft=true', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await search('q=ada', { key: reader })).status).toBe(200);
    const error = await expectError('q=ada&draft=true', 403, 'FORBIDDEN', { key: reader });
    expect(error.details.missing).toEqual(['content:read:draft']);
    const drafter = await t.createKey({ scopes: ['content:read', 'content:read:draft'] });
    expect((await search('q=ada&draft=true', { key: drafter })).status).toBe(200);
  });

  it('rejects a missing, blank or too long q', async () => {
    for (const query of ['', 'type=author', 'q=', 'q=%20%20%09', `q=${'a'.repeat(201)}`]) {
      await expectError(query, 400, 'INVALID_QUERY_PARAM');
    }
    expect((await search(`q=${'a'.repeat(200)}`)).status).toBe(200);
  });

  it('rejects unknown, repeated and malformed parameters', async () => {
    for (const query of [
      'q=ada&sort=score',
      'q=ada&q=lovelace',
      'q=ada&type=author&type=post',
      'q=ada&limit=0',
      'q=ada&limit=101',
      'q=ada&limit=ten',
      'q=ada&offset=-1',
      'q=ada&draft=yes',
      'q=ada&locale=not_a_locale!',
    ]) {
      await expectError(query, 400, 'INVALID_QUERY_PARAM');
    }
  });

  it('answers SCHEMA_NOT_FOUND for a type outside the schema', async () => {
    const error = await expectError('q=ada&type=nope', 404, 'SCHEMA_NOT_FOUND');
    expect(error.details).toEqual({ type: 'nope' });
  });

  it('finds nothing, without error, in an environment without a schema', async () => {
    await addEnvironment(t.db, 'empty');
    const response = await search('q=ada', { environment: 'empty' });
    expect(response.status).toBe(200);
    expect(response.body.pagination.total).toBe(0);
    await expectError('q=ada&type=author', 404, 'SCHEMA_NOT_FOUND', { environment: 'empty' });
  });
});
