import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPreviewToken } from '../../src/modules/domain-content/reads/preview-tokens.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { addEnvironment, seedDocuments, seedSchema } from './read-fixtures.js';

let t: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  await seedSchema(t.db);
  await addEnvironment(t.db, 'staging');
  const group = randomUUID();
  const [draft, other, deleted, fr] = await seedDocuments(t.db, [
    {
      type: 'post',
      path: 'posts/hello',
      locale: 'en',
      translationGroupId: group,
      frontmatter: { title: 'Draft title', author: null },
      body: 'draft body',
      draftRevision: 4,
    },
    { type: 'post', path: 'posts/other', locale: 'en', frontmatter: { title: 'Other' } },
    { type: 'post', path: 'posts/deleted', locale: 'en', frontmatter: { title: 'Deleted' }, isDeleted: true },
    { type: 'post', path: 'posts/bonjour', locale: 'fr', translationGroupId: group, frontmatter: { title: 'Fr' } },
  ]);
  Object.assign(ids, { draft, other, deleted, fr });
});
afterAll(() => t.close());

async function issue(id: string, body?: unknown, key?: string) {
  return t.request('POST', `/api/v1/content/${id}/preview-token`, {
    ...(body === undefined ? {} : { body }),
    ...(key ? { key } : {}),
  });
}

/** A request authenticated by a preview token instead of an API key. */
function withPreview(token: string, method: string, path: string, environment = 'production') {
  return sendRequest(t.url, null, method, path, { environment, headers: { authorization: `Preview ${token}` } });
}

describe('POST /content/{documentId}/preview-token', () => {
  it('issues an HS256 token bound to the draft, valid for 10 minutes', async () => {
    const before = Date.now();
    const response = await issue(ids.draft as string, { previewUrl: 'https://site.example/preview/hello' });
    expect(response.status).toBe(200);
    const { token, expiresAt } = response.body.data;
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      documentId: ids.draft,
      project: 'default',
      environment: 'production',
      locale: 'en',
      path: 'posts/hello',
      draftRevision: 4,
      previewUrl: 'https://site.example/preview/hello',
    });
    const after = Date.now();
    const expires = Date.parse(expiresAt);
    expect(expires).toBe((claims.exp as number) * 1000);
    // Ten minutes from issue, and issued during the request (however long a loaded machine takes).
    expect((claims.exp as number) - (claims.iat as number)).toBe(600);
    expect((claims.iat as number) * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect((claims.iat as number) * 1000).toBeLessThanOrEqual(after);
  });

  it('accepts a request without a body, and leaves previewUrl out of the claims', async () => {
    const response = await issue(ids.draft as string);
    expect(response.status).toBe(200);
    expect(decodeJwt(response.body.data.token)).not.toHaveProperty('previewUrl');
  });

  it.each([
    ['a relative URL', { previewUrl: '/preview' }],
    ['another scheme', { previewUrl: 'javascript:alert(1)' }],
    ['a non-string', { previewUrl: 42 }],
    ['an unknown field', { previewUrl: 'https://a.example', extra: true }],
  ])('rejects %s with INVALID_INPUT', async (_case, body) => {
    const response = await issue(ids.draft as string, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
  });

  it('answers NOT_FOUND for a deleted or absent document', async () => {
    expect((await issue(ids.deleted as string)).body.error.code).toBe('NOT_FOUND');
    expect((await issue(randomUUID())).body.error.code).toBe('NOT_FOUND');
  });

  it('needs content:read:draft', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    const response = await issue(ids.draft as string, undefined, reader);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });

  it('answers PREVIEW_TOKEN_UNAVAILABLE (503) when no secret is configured', async () => {
    const bare = await startTestServer({ env: { CMS_PREVIEW_TOKEN_SECRET: 'off' } });
    try {
      await seedSchema(bare.db);
      const [id] = await seedDocuments(bare.db, [{ type: 'author', path: 'authors/a' }]);
      const response = await bare.request('POST', `/api/v1/content/${id}/preview-token`);
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('PREVIEW_TOKEN_UNAVAILABLE');
      const token = (await signPreviewToken('any-secret', claimsFor(id as string, 1), new Date())).token;
      const read = await sendRequest(bare.url, null, 'GET', `/api/v1/content/${id}?draft=true`, {
        headers: { authorization: `Preview ${token}` },
      });
      expect(read.status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});

function claimsFor(documentId: string, draftRevision: number) {
  return {
    documentId,
    project: 'default',
    environment: 'production',
    locale: 'en',
    path: 'posts/hello',
    draftRevision,
  };
}

describe('Authorization: Preview <token>', () => {
  let token: string;
  beforeAll(async () => {
    token = (await issue(ids.draft as string)).body.data.token;
  });

  it('reads the draft of its document', async () => {
    const response = await withPreview(token, 'GET', `/api/v1/content/${ids.draft}?draft=true`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ documentId: ids.draft, frontmatter: { title: 'Draft title' } });
    expect(response.body.data.body).toBe('draft body');
  });

  it('is FORBIDDEN for published reads, other documents and other locale variants', async () => {
    for (const path of [
      `/api/v1/content/${ids.draft}`,
      `/api/v1/content/${ids.other}?draft=true`,
      `/api/v1/content/${ids.draft}?draft=true&locale=fr`,
    ]) {
      const response = await withPreview(token, 'GET', path);
      expect(response.status, path).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('is FORBIDDEN on every other route, including issuing more tokens', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/content?type=post&draft=true'],
      ['GET', '/api/v1/content/overview'],
      ['GET', `/api/v1/content/${ids.draft}/variants`],
      ['POST', `/api/v1/content/${ids.draft}/preview-token`],
    ] as const) {
      const response = await withPreview(token, method, path);
      expect(response.status, path).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('is FORBIDDEN in another environment of the project', async () => {
    const response = await withPreview(token, 'GET', `/api/v1/content/${ids.draft}?draft=true`, 'staging');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });

  it('stops working once the draft moves to another revision', async () => {
    const fresh = (await issue(ids.other as string)).body.data.token;
    await t.db.query('update documents set draft_revision = draft_revision + 1 where id = $1', [ids.other]);
    const response = await withPreview(fresh, 'GET', `/api/v1/content/${ids.other}?draft=true`);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
    expect(response.body.error.message).toMatch(/outdated/);
    expect(response.body.error.details).toMatchObject({ reason: 'PREVIEW_OUTDATED' });
  });

  it('answers NOT_FOUND once the document is deleted', async () => {
    const [id] = await seedDocuments(t.db, [{ type: 'post', path: 'posts/soon-gone', locale: 'en' }]);
    const fresh = (await issue(id as string)).body.data.token;
    await t.db.query('update documents set is_deleted = true where id = $1', [id]);
    const response = await withPreview(fresh, 'GET', `/api/v1/content/${id}?draft=true`);
    expect(response.status).toBe(404);
  });

  it('answers UNAUTHORIZED for an expired, tampered or foreign token', async () => {
    const secret = t.config.previewTokenSecret as string;
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    const expired = (await signPreviewToken(secret, claimsFor(ids.draft as string, 4), elevenMinutesAgo)).token;
    const foreign = (
      await signPreviewToken('another-secret-0123456789abcdef', claimsFor(ids.draft as string, 4), new Date())
    ).token;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const tampered = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
    for (const bad of [expired, foreign, tampered, 'not-a-jwt']) {
      const response = await withPreview(bad, 'GET', `/api/v1/content/${ids.draft}?draft=true`);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});

describe('preview token lifetime on the server clock', () => {
  it('expires 10 minutes after issue by the clock the server runs on, not the wall clock', async () => {
    let now = new Date();
    const moved = await startTestServer({ clock: () => now });
    try {
      await seedSchema(moved.db);
      const [id] = await seedDocuments(moved.db, [
        { type: 'post', path: 'posts/clocked', locale: 'en', frontmatter: { title: 'Clocked' }, draftRevision: 1 },
      ]);
      const issued = await moved.request('POST', `/api/v1/content/${id}/preview-token`);
      expect(issued.status).toBe(200);
      const read = () =>
        sendRequest(moved.url, null, 'GET', `/api/v1/content/${id}?draft=true`, {
          environment: 'production',
          headers: { authorization: `Preview ${issued.body.data.token}` },
        });
      expect((await read()).status).toBe(200);
      now = new Date(now.getTime() + 11 * 60_000);
      const late = await read();
      expect(late.status).toBe(401);
      expect(late.body.error.code).toBe('UNAUTHORIZED');
    } finally {
      await moved.close();
    }
  });
});
