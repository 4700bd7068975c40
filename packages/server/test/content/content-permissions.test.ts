import type { Scope } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createDocument,
  createDocumentRequest,
  hashHeader,
  postFrontmatter,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
let doc: { documentId: string };
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  doc = await createDocument(t);
});
afterAll(() => t.close());

async function keyWith(...scopes: Scope[]) {
  return t.createKey({ scopes });
}

describe('scopes of the write routes', () => {
  it('lets content:write:draft create and update drafts', async () => {
    const key = await keyWith('content:write:draft');
    const created = await createDocumentRequest(
      t,
      { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
      { key },
    );
    expect(created.status).toBe(201);
    const updated = await t.request('PUT', `/api/v1/content/${created.body.data.documentId}`, {
      key,
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter(), body: 'x', draftRevision: 1 },
    });
    expect(updated.status).toBe(200);
  });

  it('refuses content:write:draft everything beyond drafts', async () => {
    const key = await keyWith('content:write:draft', 'content:read');
    const id = doc.documentId;
    const answers = await Promise.all([
      t.request('POST', `/api/v1/content/${id}/publish`, { key, body: {} }),
      t.request('POST', `/api/v1/content/${id}/unpublish`, { key }),
      t.request('POST', `/api/v1/content/${id}/versions/1/restore`, { key }),
      t.request('POST', `/api/v1/content/${id}/duplicate`, { key }),
      t.request('POST', `/api/v1/content/${id}/restore`, { key }),
      t.request('DELETE', `/api/v1/content/${id}`, { key }),
    ]);
    expect(answers.map((a) => [a.status, a.body.error.code])).toEqual(answers.map(() => [403, 'FORBIDDEN']));
  });

  it('lets content:write alone create and update', async () => {
    const key = await keyWith('content:write');
    const created = await createDocumentRequest(
      t,
      { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
      { key },
    );
    expect(created.status).toBe(201);
  });

  it('answers FORBIDDEN before reading the body when neither write scope is held', async () => {
    const key = await keyWith('content:read', 'content:publish', 'content:delete');
    const create = await t.request('POST', '/api/v1/content', { key, body: {} });
    expect(create.status).toBe(403);
    expect(create.body.error.code).toBe('FORBIDDEN');
    expect(create.body.error.details.missing).toEqual(['content:write', 'content:write:draft']);
    const update = await t.request('PUT', `/api/v1/content/${doc.documentId}`, { key, body: { nonsense: true } });
    expect(update.status).toBe(403);
  });

  it('answers UNAUTHORIZED without credentials on every write route', async () => {
    const id = doc.documentId;
    const routes: Array<[string, string]> = [
      ['POST', '/api/v1/content'],
      ['PUT', `/api/v1/content/${id}`],
      ['POST', `/api/v1/content/${id}/publish`],
      ['POST', `/api/v1/content/${id}/unpublish`],
      ['GET', `/api/v1/content/${id}/versions`],
      ['GET', `/api/v1/content/${id}/versions/1`],
      ['POST', `/api/v1/content/${id}/versions/1/restore`],
      ['DELETE', `/api/v1/content/${id}`],
      ['POST', `/api/v1/content/${id}/restore`],
      ['POST', `/api/v1/content/${id}/duplicate`],
      ['PUT', '/api/v1/schema/sync'],
    ];
    for (const [method, path] of routes) {
      const response = await t.request(method, path, { key: null });
      expect([method, path, response.status]).toEqual([method, path, 401]);
    }
  });

  it('needs each route its scope', async () => {
    const id = doc.documentId;
    const cases: Array<[Scope, string, string]> = [
      ['content:publish', 'POST', `/api/v1/content/${id}/publish`],
      ['content:publish', 'POST', `/api/v1/content/${id}/unpublish`],
      ['content:read', 'GET', `/api/v1/content/${id}/versions`],
      ['content:write', 'POST', `/api/v1/content/${id}/versions/1/restore`],
      ['content:delete', 'DELETE', `/api/v1/content/${id}`],
      ['content:write', 'POST', `/api/v1/content/${id}/restore`],
      ['content:write', 'POST', `/api/v1/content/${id}/duplicate`],
    ];
    const everything = [
      'content:read',
      'content:read:draft',
      'content:write',
      'content:write:draft',
      'content:publish',
      'content:delete',
    ] as const;
    for (const [scope, method, path] of cases) {
      const key = await keyWith(...everything.filter((s) => s !== scope));
      const response = await t.request(method, path, { key });
      expect([method, path, response.status]).toEqual([method, path, 403]);
      expect(response.body.error.details.missing).toEqual([scope]);
    }
  });

  it('answers TARGET_REQUIRED without the routing headers', async () => {
    const response = await t.request('POST', '/api/v1/content', { environment: null, body: {} });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('TARGET_REQUIRED');
  });
});
