import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  addEnvironment,
  createAuthor,
  createDocument,
  createDocumentRequest,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from './fixtures.js';

let t: TestServer;
let doc: { documentId: string; path: string };
beforeAll(async () => {
  t = await startTestServer();
  await addEnvironment(t, 'staging');
  await syncSchema(t);
  await syncSchema(t, undefined, { environment: 'staging' });
  doc = await createDocument(t);
  await publishDocument(t, doc.documentId);
});
afterAll(() => t.close());

describe('tenant isolation', () => {
  it('answers NOT_FOUND from another environment for every document route', async () => {
    const id = doc.documentId;
    const staging = { environment: 'staging' };
    const answers = await Promise.all([
      t.request('PUT', `/api/v1/content/${id}`, {
        ...staging,
        headers: hashHeader(),
        body: { frontmatter: postFrontmatter(), body: '', draftRevision: 1 },
      }),
      t.request('POST', `/api/v1/content/${id}/publish`, { ...staging, body: {} }),
      t.request('POST', `/api/v1/content/${id}/unpublish`, staging),
      t.request('GET', `/api/v1/content/${id}/versions`, staging),
      t.request('GET', `/api/v1/content/${id}/versions/1`, staging),
      t.request('POST', `/api/v1/content/${id}/versions/1/restore`, staging),
      t.request('DELETE', `/api/v1/content/${id}`, staging),
      t.request('POST', `/api/v1/content/${id}/restore`, staging),
      t.request('POST', `/api/v1/content/${id}/duplicate`, staging),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 404));
    const row = await t.db.query<{ isDeleted: boolean; version: number }>(
      'select is_deleted as "isDeleted", version from documents where id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ isDeleted: false, version: 1 });
  });

  it('keeps paths per environment: the same path is free in another one', async () => {
    const response = await createDocumentRequest(
      t,
      { type: 'post', path: doc.path, frontmatter: postFrontmatter() },
      { environment: 'staging' },
    );
    expect(response.status).toBe(201);
    expect(response.body.data.environment).toBe('staging');
  });

  it('refuses references to documents of another environment', async () => {
    const author = await createAuthor(t);
    const response = await createDocumentRequest(
      t,
      { type: 'post', path: 'posts/cross', frontmatter: postFrontmatter({ author }) },
      { environment: 'staging' },
    );
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields['frontmatter.author']).toMatch(/does not exist/);
  });

  it('refuses a translation group of another environment', async () => {
    const page = await createDocument(t, {
      type: 'page',
      path: 'pages/home',
      locale: 'en',
      frontmatter: { title: 'Home' },
    });
    const response = await createDocumentRequest(
      t,
      {
        type: 'page',
        path: 'pages/home',
        locale: 'de',
        frontmatter: { title: 'Start' },
        translationGroupId: page.translationGroupId,
      },
      { environment: 'staging' },
    );
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toHaveProperty('translationGroupId');
  });

  it('refuses a key whose allowlist does not admit the environment', async () => {
    const key = await t.createKey({ allowlist: [{ project: 'default', environment: 'staging' }] });
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { key, body: {} });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });
});
