import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createDocument,
  createDocumentRequest,
  postFrontmatter,
  publishDocument,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

const del = (id: string) => t.request('DELETE', `/api/v1/content/${id}`);
const restore = (id: string) => t.request('POST', `/api/v1/content/${id}/restore`);
const duplicate = (id: string, body?: unknown) =>
  t.request('POST', `/api/v1/content/${id}/duplicate`, body === undefined ? {} : { body });

describe('DELETE /content/{documentId}', () => {
  it('soft-deletes: the row, id and history stay', async () => {
    const doc = await createDocument(t);
    await publishDocument(t, doc.documentId);
    const response = await del(doc.documentId);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      documentId: doc.documentId,
      isDeleted: true,
      deletedAt: expect.any(String),
      deletedBy: doc.createdBy,
    });
    const row = await t.db.query<{ isDeleted: boolean; deletedAt: Date }>(
      'select is_deleted as "isDeleted", deleted_at as "deletedAt" from documents where id = $1',
      [doc.documentId],
    );
    expect(row.rows[0]?.isDeleted).toBe(true);
    expect(row.rows[0]?.deletedAt.toISOString()).toBe(response.body.data.deletedAt);
    const versions = await t.request('GET', `/api/v1/content/${doc.documentId}/versions`);
    expect(versions.body.pagination.total).toBe(1);
  });

  it('answers NOT_FOUND for an already deleted or unknown document', async () => {
    const doc = await createDocument(t);
    await del(doc.documentId);
    expect((await del(doc.documentId)).status).toBe(404);
    expect((await del('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('makes update, publish, unpublish and duplicate answer NOT_FOUND', async () => {
    const doc = await createDocument(t);
    await del(doc.documentId);
    const answers = await Promise.all([
      t.request('PUT', `/api/v1/content/${doc.documentId}`, {
        headers: { 'x-cms-schema-hash': 'any' },
        body: { frontmatter: postFrontmatter(), body: '', draftRevision: 1 },
      }),
      t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} }),
      t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`),
      duplicate(doc.documentId),
    ]);
    expect(answers.map((a) => [a.status, a.body.error.code])).toEqual(answers.map(() => [404, 'NOT_FOUND']));
  });
});

describe('POST /content/{documentId}/restore', () => {
  it('restores a deleted document', async () => {
    const doc = await createDocument(t);
    await del(doc.documentId);
    const response = await restore(doc.documentId);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      documentId: doc.documentId,
      isDeleted: false,
      restoredAt: expect.any(String),
      restoredBy: doc.createdBy,
    });
    const row = await t.db.query<{ isDeleted: boolean; deletedAt: Date | null }>(
      'select is_deleted as "isDeleted", deleted_at as "deletedAt" from documents where id = $1',
      [doc.documentId],
    );
    expect(row.rows[0]).toEqual({ isDeleted: false, deletedAt: null });
    const publish = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} });
    expect(publish.status).toBe(200);
  });

  it('answers CONTENT_PATH_CONFLICT when the path and locale were taken meanwhile', async () => {
    const doc = await createDocument(t);
    await del(doc.documentId);
    const taker = await createDocument(t, { path: doc.path });
    const response = await restore(doc.documentId);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('CONTENT_PATH_CONFLICT');
    await del(taker.documentId);
    expect((await restore(doc.documentId)).status).toBe(200);
  });

  it('answers CONTENT_PATH_CONFLICT when its group locale was taken meanwhile', async () => {
    const en = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'en',
      frontmatter: { title: 'EN' },
    });
    await del(en.documentId);
    const other = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/q'),
      locale: 'de',
      frontmatter: { title: 'DE' },
    });
    // Put the group's English slot in use by a second document through SQL (only a variant could).
    await t.db.query('update documents set translation_group_id = $1, locale = $2 where id = $3', [
      en.translationGroupId,
      'en',
      other.documentId,
    ]);
    const response = await restore(en.documentId);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('CONTENT_PATH_CONFLICT');
  });

  it('answers a document that is not deleted as it is (idempotent), and NOT_FOUND for an unknown one', async () => {
    const doc = await createDocument(t);
    const response = await restore(doc.documentId);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      documentId: doc.documentId,
      isDeleted: false,
      restoredAt: doc.updatedAt,
    });
    expect((await restore('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('POST /content/{documentId}/duplicate', () => {
  it('copies the draft into a new draft-only document at <path>-copy', async () => {
    const doc = await createDocument(t, {
      body: 'draft body',
      format: 'mdx',
      frontmatter: postFrontmatter({ tags: ['ab'] }),
    });
    await publishDocument(t, doc.documentId);
    const response = await duplicate(doc.documentId);
    expect(response.status).toBe(201);
    const copy = response.body.data;
    expect(copy).toMatchObject({
      path: `${doc.path}-copy`,
      type: 'post',
      locale: doc.locale,
      format: 'mdx',
      version: 0,
      publishedVersion: null,
      draftRevision: 1,
      hasUnpublishedChanges: true,
      isDeleted: false,
      frontmatter: doc.frontmatter,
      body: 'draft body',
    });
    expect(copy.documentId).not.toBe(doc.documentId);
    expect(copy.translationGroupId).not.toBe(doc.translationGroupId);
  });

  it('picks the first free of -copy, -copy-2, -copy-3', async () => {
    const doc = await createDocument(t);
    const paths = [];
    for (let i = 0; i < 3; i += 1) paths.push((await duplicate(doc.documentId)).body.data.path);
    expect(paths).toEqual([`${doc.path}-copy`, `${doc.path}-copy-2`, `${doc.path}-copy-3`]);
    const second = await t.db.query<{ id: string }>('select id from documents where path = $1', [`${doc.path}-copy-2`]);
    await del(second.rows[0]?.id ?? '');
    expect((await duplicate(doc.documentId)).body.data.path).toBe(`${doc.path}-copy-2`);
  });

  it('gives concurrent duplicates distinct paths', async () => {
    const doc = await createDocument(t);
    const answers = await Promise.all([0, 1, 2, 3].map(() => duplicate(doc.documentId)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.data.path)).size).toBe(4);
  });

  it('accepts an explicit path, validated like a create', async () => {
    const doc = await createDocument(t);
    const target = uniquePath();
    const response = await duplicate(doc.documentId, { path: target });
    expect(response.status).toBe(201);
    expect(response.body.data.path).toBe(target);
    const taken = await duplicate(doc.documentId, { path: target });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONTENT_PATH_CONFLICT');
    const invalid = await duplicate(doc.documentId, { path: '../escape' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.fields).toHaveProperty('path');
  });

  it('keeps the locale of a localized document in a new group', async () => {
    const page = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'de',
      frontmatter: { title: 'T' },
    });
    const copy = (await duplicate(page.documentId)).body.data;
    expect(copy).toMatchObject({ locale: 'de', type: 'page', path: `${page.path}-copy` });
    const created = await createDocumentRequest(t, {
      type: 'page',
      path: copy.path,
      locale: 'de',
      frontmatter: { title: 'T' },
    });
    expect(created.status).toBe(409);
  });
});
