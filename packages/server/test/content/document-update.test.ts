import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createDocument, hashHeader, postFrontmatter, publishDocument, syncSchema } from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

function update(documentId: string, body: Record<string, unknown>, headers: Record<string, string> = hashHeader()) {
  return t.request('PUT', `/api/v1/content/${documentId}`, { headers, body });
}

describe('PUT /content/{documentId}', () => {
  it('replaces frontmatter and body, bumps draftRevision and keeps versions', async () => {
    const doc = await createDocument(t, { body: 'old' });
    const response = await update(doc.documentId, {
      frontmatter: postFrontmatter({ title: 'New title' }),
      body: 'new',
      draftRevision: 1,
    });
    expect(response.status).toBe(200);
    const updated = response.body.data;
    expect(updated).toMatchObject({
      documentId: doc.documentId,
      draftRevision: 2,
      hasUnpublishedChanges: true,
      version: 0,
      publishedVersion: null,
      body: 'new',
      path: doc.path,
      createdAt: doc.createdAt,
    });
    expect(updated.frontmatter.title).toBe('New title');
    expect(updated.frontmatter.tags).toEqual([]);
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(doc.updatedAt).getTime());
  });

  it('is a complete replacement: omitted frontmatter fields are gone', async () => {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ readingMinutes: 3 }) });
    const response = await update(doc.documentId, { frontmatter: postFrontmatter(), body: '', draftRevision: 1 });
    expect(response.body.data.frontmatter).not.toHaveProperty('readingMinutes');
  });

  it('requires frontmatter, body and draftRevision', async () => {
    const doc = await createDocument(t);
    const response = await update(doc.documentId, {});
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.details.fields).sort()).toEqual([
      'body.body',
      'body.draftRevision',
      'body.frontmatter',
    ]);
  });

  it('answers CONFLICT with the server revision when the sent revision is stale, changing nothing', async () => {
    const doc = await createDocument(t);
    await update(doc.documentId, { frontmatter: postFrontmatter({ title: 'Second' }), body: '', draftRevision: 1 });
    const stale = await update(doc.documentId, {
      frontmatter: postFrontmatter({ title: 'Lost' }),
      body: '',
      draftRevision: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('CONFLICT');
    expect(stale.body.error.details).toEqual({ draftRevision: 2 });
    const row = await t.db.query<{ title: string; rev: number }>(
      `select draft_frontmatter->>'title' as title, draft_revision as rev from documents where id = $1`,
      [doc.documentId],
    );
    expect(row.rows[0]).toEqual({ title: 'Second', rev: 2 });
  });

  it('accepts a revision that is not behind the server one (interface.md: only a higher server revision conflicts)', async () => {
    const doc = await createDocument(t);
    const ahead = await update(doc.documentId, { frontmatter: postFrontmatter(), body: '', draftRevision: 7 });
    expect(ahead.status).toBe(200);
    expect(ahead.body.data.draftRevision).toBe(2);
  });

  it('keeps version and publishedVersion and marks unpublished changes on a published document', async () => {
    const doc = await createDocument(t);
    await publishDocument(t, doc.documentId);
    const response = await update(doc.documentId, {
      frontmatter: postFrontmatter({ title: 'Edited' }),
      body: '',
      draftRevision: 1,
    });
    expect(response.body.data).toMatchObject({
      version: 1,
      publishedVersion: 1,
      hasUnpublishedChanges: true,
      draftRevision: 2,
    });
  });

  it('needs the schema hash header, equal to the server one', async () => {
    const doc = await createDocument(t);
    const missing = await update(doc.documentId, { frontmatter: postFrontmatter(), body: '', draftRevision: 1 }, {});
    expect(missing.status).toBe(409);
    expect(missing.body.error.code).toBe('SCHEMA_HASH_MISMATCH');
    const wrong = await update(
      doc.documentId,
      { frontmatter: postFrontmatter(), body: '', draftRevision: 1 },
      { 'x-cms-schema-hash': 'abc' },
    );
    expect(wrong.status).toBe(409);
    expect(wrong.body.error.details.schemaHash).toBe(hashHeader()['x-cms-schema-hash']);
  });

  it('answers NOT_FOUND for an unknown or soft-deleted document, INVALID_INPUT for a malformed id', async () => {
    const body = { frontmatter: postFrontmatter(), body: '', draftRevision: 1 };
    const unknown = await update('00000000-0000-4000-8000-000000000000', body);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const doc = await createDocument(t);
    await t.request('DELETE', `/api/v1/content/${doc.documentId}`);
    const deleted = await update(doc.documentId, body);
    expect(deleted.status).toBe(404);
    expect(deleted.body.error.code).toBe('NOT_FOUND');
    const malformed = await update('not-a-uuid', body);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('concurrent updates', () => {
  it('lets exactly one of N updates with the same draftRevision win; the others get CONFLICT', async () => {
    const doc = await createDocument(t);
    const n = 8;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        update(doc.documentId, {
          frontmatter: postFrontmatter({ title: `Writer ${i}` }),
          body: `${i}`,
          draftRevision: 1,
        }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    const losers = answers.filter((a) => a.status === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(n - 1);
    for (const loser of losers) {
      expect(loser.body.error.code).toBe('CONFLICT');
      expect(loser.body.error.details.draftRevision).toBe(2);
    }
    const row = await t.db.query<{ body: string; rev: number }>(
      'select draft_body as body, draft_revision as rev from documents where id = $1',
      [doc.documentId],
    );
    expect(row.rows[0]).toEqual({ body: winners[0]?.body.data.body, rev: 2 });
    const events = await t.db.query<{ n: number }>(
      `select count(*)::int as n from outbox_events where type = 'content.updated' and payload->'document'->>'documentId' = $1`,
      [doc.documentId],
    );
    expect(events.rows[0]?.n).toBe(1);
  });

  it('serializes updates that each send the revision they read', async () => {
    const doc = await createDocument(t);
    let revision = 1;
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(
        [0, 1, 2].map((i) =>
          update(doc.documentId, {
            frontmatter: postFrontmatter({ title: `${round}-${i}` }),
            body: '',
            draftRevision: revision,
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      revision += 1;
    }
    const final = await t.db.query<{ rev: number }>('select draft_revision as rev from documents where id = $1', [
      doc.documentId,
    ]);
    expect(final.rows[0]?.rev).toBe(4);
  });
});
