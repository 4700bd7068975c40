import { MAX_BATCH_OPERATIONS } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createAuthor,
  createDocument,
  hashHeader,
  outboxEvents,
  postFrontmatter,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

function batch(operations: unknown[], options: { headers?: Record<string, string>; key?: string } = {}) {
  return t.request('POST', '/api/v1/content/batch', {
    headers: options.headers ?? hashHeader(),
    body: { operations },
    ...(options.key ? { key: options.key } : {}),
  });
}

async function draftOf(documentId: string) {
  const response = await t.request('GET', `/api/v1/content/${documentId}?draft=true`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

describe('POST /content/batch', () => {
  it('creates and updates drafts in one request, answering one result per operation in order', async () => {
    const existing = await createDocument(t, { body: 'old' });
    const path = uniquePath();
    const response = await batch([
      { op: 'create', type: 'post', path, frontmatter: postFrontmatter({ title: 'Made in a batch' }), body: 'new' },
      {
        op: 'update',
        documentId: existing.documentId,
        frontmatter: postFrontmatter({ title: 'Changed' }),
        body: 'edited',
        draftRevision: 1,
      },
    ]);
    expect(response.status, response.text).toBe(200);
    const { results, applied, failed } = response.body.data;
    expect({ applied, failed }).toEqual({ applied: 2, failed: 0 });
    expect(results[0]).toMatchObject({ ok: true, status: 201, document: { path, draftRevision: 1, body: 'new' } });
    expect(results[1]).toMatchObject({
      ok: true,
      status: 200,
      document: { documentId: existing.documentId, draftRevision: 2, body: 'edited' },
    });
    // Defaults are filled as on the single routes.
    expect(results[0].document.frontmatter).toMatchObject({ title: 'Made in a batch', tags: [], status: 'draft' });
    expect(await draftOf(existing.documentId)).toMatchObject({ body: 'edited', frontmatter: { title: 'Changed' } });
    expect(await draftOf(results[0].document.documentId)).toMatchObject({ path, body: 'new' });
    // Each write records its event, as the single routes do.
    expect((await outboxEvents(t, { documentId: existing.documentId })).map((e) => e.type)).toEqual([
      'content.created',
      'content.updated',
    ]);
  });

  it('refuses a stale revision for that document only: nothing of it is overwritten, the others apply', async () => {
    const stale = await createDocument(t, { body: 'server edit 1' });
    const editedOnServer = await t.request('PUT', `/api/v1/content/${stale.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Editor' }), body: 'server edit 2', draftRevision: 1 },
    });
    expect(editedOnServer.status).toBe(200);
    const fresh = await createDocument(t);
    const response = await batch([
      {
        op: 'update',
        documentId: stale.documentId,
        frontmatter: postFrontmatter({ title: 'Mine' }),
        body: 'mine',
        draftRevision: 1,
      },
      { op: 'update', documentId: fresh.documentId, frontmatter: postFrontmatter(), body: 'ok', draftRevision: 1 },
    ]);
    expect(response.status).toBe(200);
    const [conflict, ok] = response.body.data.results;
    expect(conflict).toMatchObject({
      ok: false,
      status: 409,
      error: { code: 'CONFLICT', details: { draftRevision: 2 } },
    });
    expect(ok).toMatchObject({ ok: true, document: { draftRevision: 2, body: 'ok' } });
    expect(response.body.data).toMatchObject({ applied: 1, failed: 1 });
    expect(await draftOf(stale.documentId)).toMatchObject({
      draftRevision: 2,
      body: 'server edit 2',
      frontmatter: { title: 'Editor' },
    });
  });

  it('rolls back a failed operation alone: invalid frontmatter, a taken path, an unknown document', async () => {
    const taken = await createDocument(t);
    const freePath = uniquePath();
    const missing = '00000000-0000-4000-8000-000000000000';
    const response = await batch([
      { op: 'create', type: 'post', path: uniquePath(), frontmatter: { slug: 'no-title' } },
      { op: 'create', type: 'post', path: taken.path, frontmatter: postFrontmatter() },
      { op: 'update', documentId: missing, frontmatter: postFrontmatter(), body: '', draftRevision: 1 },
      { op: 'create', type: 'post', path: freePath, frontmatter: postFrontmatter() },
    ]);
    expect(response.status, response.text).toBe(200);
    const codes = response.body.data.results.map((r: any) => (r.ok ? 'ok' : r.error.code));
    expect(codes).toEqual(['INVALID_INPUT', 'CONTENT_PATH_CONFLICT', 'NOT_FOUND', 'ok']);
    expect(response.body.data.results[0].error.details.fields).toHaveProperty('frontmatter.title');
    const listed = await t.request('GET', `/api/v1/content?type=post&draft=true&path=${encodeURIComponent(freePath)}`);
    expect(listed.body.data).toHaveLength(1);
  });

  it('answers creates checked together as the single route would: paths, locales, references, groups, sources', async () => {
    const author = await createAuthor(t);
    const post = await createDocument(t);
    const existing = await createDocument(t, { body: 'old' });
    const page = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'en',
      frontmatter: { title: 'P' },
    });
    const [twice, pagePath] = [uniquePath(), uniquePath('pages/q')];
    const source = `\uFEFF---\r\ntitle: "Kept" # as written\r\nslug: kept\r\ntags: [ab, 'cd']\r\nauthor: ${author}\r\nstatus: draft\r\n---\r\nbody\r\n`;
    const missing = '00000000-0000-4000-8000-000000000000';
    const create = (path: string, frontmatter: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
      op: 'create',
      type: 'post',
      path,
      frontmatter: postFrontmatter(frontmatter),
      ...extra,
    });
    const before = (await outboxEvents(t)).length;
    const response = await batch([
      create(twice, { title: 'Kept', slug: 'kept', tags: ['ab', 'cd'], author }, { body: 'body\r\n', source }),
      create(twice),
      create(uniquePath(), { author: missing }),
      create(uniquePath(), { author: post.documentId }),
      { op: 'update', documentId: existing.documentId, frontmatter: postFrontmatter(), body: 'new', draftRevision: 1 },
      create(post.path),
      { op: 'create', type: 'page', path: pagePath, locale: 'en', frontmatter: { title: 'en' } },
      { op: 'create', type: 'page', path: pagePath, locale: 'de', frontmatter: { title: 'de' } },
      { op: 'create', type: 'page', path: pagePath, locale: 'EN', frontmatter: { title: 'en again' } },
      {
        op: 'create',
        type: 'page',
        path: page.path,
        locale: 'fr',
        frontmatter: { title: 'fr' },
        translationGroupId: page.translationGroupId,
      },
      {
        op: 'create',
        type: 'page',
        path: uniquePath('pages/r'),
        locale: 'fr',
        frontmatter: { title: 'fr' },
        translationGroupId: page.translationGroupId,
      },
      create(uniquePath(), { title: '' }),
      create(uniquePath()),
    ]);
    expect(response.status, response.text).toBe(200);
    const { results, applied, failed } = response.body.data;
    const codes = results.map((r: any) => (r.ok ? r.status : r.error.code));
    expect(codes).toEqual([
      201,
      'CONTENT_PATH_CONFLICT',
      'INVALID_INPUT',
      'INVALID_INPUT',
      200,
      'CONTENT_PATH_CONFLICT',
      201,
      201,
      'CONTENT_PATH_CONFLICT',
      201,
      'CONTENT_PATH_CONFLICT',
      'INVALID_INPUT',
      201,
    ]);
    expect({ applied, failed }).toEqual({ applied: 6, failed: 7 });
    expect(results[1].error.details).toEqual({ path: twice, locale: '__cms_default__' });
    expect(results[2].error.details.fields['frontmatter.author']).toMatch(/does not exist/);
    expect(results[3].error.details.fields['frontmatter.author']).toMatch(/is a "post" document/);
    expect(results[8].error.details).toEqual({ path: pagePath, locale: 'en' });
    expect(results[10].error.message).toMatch(/already has a variant in locale "fr"/);
    expect(results[11].error.details.fields).toHaveProperty('frontmatter.title');
    // The row written is the one the single route writes: source bytes, defaults, group, locale.
    const kept = results[0].document;
    expect(kept).toMatchObject({ source, body: 'body\r\n', draftRevision: 1, version: 0 });
    expect(await draftOf(kept.documentId)).toEqual(kept);
    expect(results[9].document).toMatchObject({ translationGroupId: page.translationGroupId, locale: 'fr' });
    expect(results[7].document.translationGroupId).not.toBe(results[6].document.translationGroupId);
    // One event per write, in operation order.
    const events = (await outboxEvents(t)).slice(before);
    expect(events.map((e) => [e.type, e.payload.document.documentId])).toEqual(
      results
        .filter((r: any) => r.ok)
        .map((r: any) => [r.status === 201 ? 'content.created' : 'content.updated', r.document.documentId]),
    );
  });

  it('refuses the whole batch on a stale schema hash, writing nothing', async () => {
    const path = uniquePath();
    const response = await batch([{ op: 'create', type: 'post', path, frontmatter: postFrontmatter() }], {
      headers: hashHeader('0'.repeat(64)),
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('SCHEMA_HASH_MISMATCH');
    const listed = await t.request('GET', `/api/v1/content?type=post&draft=true&path=${encodeURIComponent(path)}`);
    expect(listed.body.data).toHaveLength(0);
  });

  it(`takes 1 to ${MAX_BATCH_OPERATIONS} operations of a known kind`, async () => {
    const empty = await batch([]);
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('INVALID_INPUT');
    const op = { op: 'create', type: 'post', path: 'x', frontmatter: postFrontmatter() };
    const tooMany = await batch(Array.from({ length: MAX_BATCH_OPERATIONS + 1 }, () => op));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('INVALID_INPUT');
    const unknown = await batch([{ op: 'delete', documentId: '00000000-0000-4000-8000-000000000000' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_INPUT');
  });

  it('needs a draft-write scope', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    const refused = await batch([{ op: 'create', type: 'post', path: uniquePath(), frontmatter: postFrontmatter() }], {
      key: reader,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const drafter = await t.createKey({ scopes: ['content:write:draft'] });
    const allowed = await batch([{ op: 'create', type: 'post', path: uniquePath(), frontmatter: postFrontmatter() }], {
      key: drafter,
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.applied).toBe(1);
  });
});
