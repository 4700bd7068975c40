import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createDocument, hashHeader, outboxEvents, postFrontmatter, publishDocument, syncSchema } from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

async function documentRow(id: string) {
  const result = await t.db.query<Record<string, unknown>>(
    `select version, published_version as "publishedVersion", has_unpublished_changes as "hasUnpublishedChanges",
       published_frontmatter as "publishedFrontmatter", published_body as "publishedBody", draft_revision as "draftRevision"
     from documents where id = $1`,
    [id],
  );
  return result.rows[0];
}

describe('POST /content/{documentId}/publish', () => {
  it('creates version 1 from the draft and copies the snapshot to the published columns', async () => {
    const doc = await createDocument(t, { body: 'Body v1' });
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, {
      body: { changeSummary: 'First' },
    });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      documentId: doc.documentId,
      version: 1,
      publishedVersion: 1,
      hasUnpublishedChanges: false,
      changeSummary: 'First',
    });
    expect(Object.keys(data).sort()).toEqual(
      [
        'changeSummary',
        'documentId',
        'hasUnpublishedChanges',
        'publishedAt',
        'publishedBy',
        'publishedVersion',
        'version',
      ].sort(),
    );
    expect(new Date(data.publishedAt).toISOString()).toBe(data.publishedAt);
    expect(await documentRow(doc.documentId)).toMatchObject({
      version: 1,
      publishedVersion: 1,
      hasUnpublishedChanges: false,
      publishedFrontmatter: doc.frontmatter,
      publishedBody: 'Body v1',
      draftRevision: 1,
    });
  });

  it('accepts no body and records a null changeSummary', async () => {
    const doc = await createDocument(t);
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`);
    expect(response.status).toBe(200);
    expect(response.body.data.changeSummary).toBeNull();
  });

  it('is an idempotent no-op with nothing unpublished: same version, no new version, no event', async () => {
    const doc = await createDocument(t);
    const first = await publishDocument(t, doc.documentId, 'Only');
    const eventsBefore = await outboxEvents(t, { documentId: doc.documentId });
    const again = await publishDocument(t, doc.documentId, 'Ignored');
    expect(again).toEqual(first);
    const versions = await t.db.query('select 1 from document_versions where document_id = $1', [doc.documentId]);
    expect(versions.rowCount).toBe(1);
    expect(await outboxEvents(t, { documentId: doc.documentId })).toEqual(eventsBefore);
  });

  it('publishes the next version after an update', async () => {
    const doc = await createDocument(t);
    await publishDocument(t, doc.documentId);
    await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Two' }), body: 'two', draftRevision: 1 },
    });
    const second = await publishDocument(t, doc.documentId, 'Second');
    expect(second).toMatchObject({
      version: 2,
      publishedVersion: 2,
      hasUnpublishedChanges: false,
      changeSummary: 'Second',
    });
    expect(await documentRow(doc.documentId)).toMatchObject({ publishedBody: 'two' });
  });

  it('never produces one version twice under concurrent publishes and updates', async () => {
    const doc = await createDocument(t);
    const requests = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} })
        : t.request('PUT', `/api/v1/content/${doc.documentId}`, {
            headers: hashHeader(),
            // A revision ahead of the server's is never stale, so every update lands.
            body: { frontmatter: postFrontmatter({ title: `Edit ${i}` }), body: `${i}`, draftRevision: 1000 },
          }),
    );
    const answers = await Promise.all(requests);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const versions = await t.db.query<{ version: number }>(
      'select version from document_versions where document_id = $1 order by version',
      [doc.documentId],
    );
    const numbers = versions.rows.map((row) => row.version);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect((await documentRow(doc.documentId))?.version).toBe(numbers.length);
    const published = await outboxEvents(t, { documentId: doc.documentId });
    expect(published.filter((e) => e.type === 'content.published').map((e) => e.payload.document.version)).toEqual(
      numbers,
    );
  });

  it('lets exactly one of N concurrent publishes of one draft create the version', async () => {
    const doc = await createDocument(t);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} })),
    );
    expect(answers.every((a) => a.status === 200 && a.body.data.version === 1)).toBe(true);
    const versions = await t.db.query('select 1 from document_versions where document_id = $1', [doc.documentId]);
    expect(versions.rowCount).toBe(1);
  });

  it('answers NOT_FOUND for unknown and soft-deleted documents', async () => {
    const unknown = await t.request('POST', '/api/v1/content/00000000-0000-4000-8000-000000000000/publish', {
      body: {},
    });
    expect(unknown.status).toBe(404);
    const doc = await createDocument(t);
    await t.request('DELETE', `/api/v1/content/${doc.documentId}`);
    const deleted = await t.request('POST', `/api/v1/content/${doc.documentId}/publish`, { body: {} });
    expect(deleted.status).toBe(404);
    expect(deleted.body.error.code).toBe('NOT_FOUND');
  });
});

describe('POST /content/{documentId}/unpublish', () => {
  it('withdraws the published version and keeps version and history', async () => {
    const doc = await createDocument(t);
    await publishDocument(t, doc.documentId);
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      documentId: doc.documentId,
      version: 1,
      publishedVersion: null,
      hasUnpublishedChanges: true,
    });
    expect(await documentRow(doc.documentId)).toMatchObject({
      version: 1,
      publishedVersion: null,
      publishedFrontmatter: null,
      publishedBody: null,
    });
    const history = await t.request('GET', `/api/v1/content/${doc.documentId}/versions`);
    expect(history.body.pagination.total).toBe(1);
  });

  it('then publishing again makes version 2', async () => {
    const doc = await createDocument(t);
    await publishDocument(t, doc.documentId);
    await t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`);
    const again = await publishDocument(t, doc.documentId);
    expect(again).toMatchObject({ version: 2, publishedVersion: 2, hasUnpublishedChanges: false });
  });

  it('is a no-op without event on a document that is not published', async () => {
    const doc = await createDocument(t);
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      documentId: doc.documentId,
      version: 0,
      publishedVersion: null,
      hasUnpublishedChanges: true,
    });
    const events = await outboxEvents(t, { documentId: doc.documentId });
    expect(events.map((e) => e.type)).toEqual(['content.created']);
  });

  it('answers NOT_FOUND for a soft-deleted document', async () => {
    const doc = await createDocument(t);
    await publishDocument(t, doc.documentId);
    await t.request('DELETE', `/api/v1/content/${doc.documentId}`);
    const response = await t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`);
    expect(response.status).toBe(404);
  });
});
