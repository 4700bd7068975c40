import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createDocument,
  createDocumentRequest,
  hashHeader,
  outboxEvents,
  postFrontmatter,
  publishDocument,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
let principalId: string;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  principalId = (await createDocument(t)).createdBy;
});
afterAll(() => t.close());

function documentPayload(doc: Record<string, unknown>, version: number) {
  return {
    documentId: doc.documentId,
    translationGroupId: doc.translationGroupId,
    type: doc.type,
    path: doc.path,
    locale: doc.locale,
    format: doc.format,
    version,
  };
}

describe('content events in the outbox', () => {
  it('records every transition with the delivery envelope, in order', async () => {
    const doc = await createDocument(t, { format: 'mdx' });
    await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Changed' }), body: 'b', draftRevision: 1 },
    });
    await publishDocument(t, doc.documentId);
    await t.request('POST', `/api/v1/content/${doc.documentId}/unpublish`);
    await t.request('POST', `/api/v1/content/${doc.documentId}/versions/1/restore`);
    await t.request('DELETE', `/api/v1/content/${doc.documentId}`);
    await t.request('POST', `/api/v1/content/${doc.documentId}/restore`);

    const events = await outboxEvents(t, { documentId: doc.documentId });
    expect(events.map((e) => [e.type, e.payload.document.version])).toEqual([
      ['content.created', 0],
      ['content.updated', 0],
      ['content.published', 1],
      ['content.unpublished', 1],
      ['content.updated', 1],
      ['content.deleted', 1],
      ['content.restored', 1],
    ]);
    for (const event of events) {
      expect(Object.keys(event.payload).sort()).toEqual([
        'document',
        'environment',
        'event',
        'project',
        'timestamp',
        'user',
      ]);
      expect(event.payload).toMatchObject({
        event: event.type,
        project: 'default',
        environment: 'production',
        user: { id: principalId, email: '' },
      });
      expect(event.payload.document).toEqual(documentPayload(doc, event.payload.document.version));
      expect(new Date(event.payload.timestamp).toISOString()).toBe(event.payload.timestamp);
    }
  });

  it('records content.created for a duplicate, with the copy', async () => {
    const doc = await createDocument(t);
    const copy = (await t.request('POST', `/api/v1/content/${doc.documentId}/duplicate`)).body.data;
    const events = await outboxEvents(t, { documentId: copy.documentId });
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe('content.created');
    expect(events[0]?.payload.document).toEqual(documentPayload(copy, 0));
  });

  it('writes no event when the change is refused (same transaction)', async () => {
    const before = (await outboxEvents(t)).length;
    const path = uniquePath();
    await createDocument(t, { path });
    const conflict = await createDocumentRequest(t, { type: 'post', path, frontmatter: postFrontmatter() });
    expect(conflict.status).toBe(409);
    const invalid = await createDocumentRequest(t, { type: 'post', path: uniquePath(), frontmatter: {} });
    expect(invalid.status).toBe(400);
    const doc = await createDocument(t);
    const put = (draftRevision: number) =>
      t.request('PUT', `/api/v1/content/${doc.documentId}`, {
        headers: hashHeader(),
        body: { frontmatter: postFrontmatter(), body: '', draftRevision },
      });
    expect((await put(1)).status).toBe(200);
    expect((await put(1)).status).toBe(409);
    expect((await outboxEvents(t)).length).toBe(before + 3);
  });

  it('rolls back the change when recording its event fails', async () => {
    // A trigger makes the outbox insert fail inside the transaction of the create.
    await t.db.query(`create function reject_event() returns trigger language plpgsql as $$
      begin raise exception 'outbox down'; end $$`);
    await t.db.query(
      'create trigger reject_event before insert on outbox_events for each row execute function reject_event()',
    );
    const path = uniquePath();
    try {
      const response = await createDocumentRequest(t, { type: 'post', path, frontmatter: postFrontmatter() });
      expect(response.status).toBe(500);
      expect(response.body.error.code).toBe('INTERNAL_ERROR');
    } finally {
      await t.db.query('drop trigger reject_event on outbox_events');
      await t.db.query('drop function reject_event()');
    }
    const rows = await t.db.query('select 1 from documents where path = $1', [path]);
    expect(rows.rowCount).toBe(0);
  });
});
