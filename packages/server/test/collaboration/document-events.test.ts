import { randomUUID } from 'node:crypto';
import { PRESENCE_TTL_SECONDS } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, syncSchema } from '../content/fixtures.js';
import { type ServerOnDatabase, startServerOn } from '../support/server-on-database.js';
import { createTestDatabase, type TestDatabase, testEngine } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { insertLabelledKey, openDocumentEvents } from './document-events-support.js';

describe('a document’s event stream in one process', () => {
  let t: TestServer;
  let now = new Date('2026-03-01T10:00:00.000Z');
  let docId: string;
  let ana: string;
  let bo: string;
  let cy: string;
  beforeAll(async () => {
    t = await startTestServer({ clock: () => now });
    await syncSchema(t);
    docId = (await createDocument(t)).documentId;
    [ana, bo, cy] = (await Promise.all(['Ana', 'Bo', 'Cy'].map((label) => insertLabelledKey(t.db, label)))) as [
      string,
      string,
      string,
    ];
  });
  afterAll(() => t.close());

  it('shows who comes and who goes, without a heartbeat from the client', async () => {
    const anaEvents = await openDocumentEvents(t.url, ana, docId);
    expect(anaEvents.status).toBe(200);
    expect(await anaEvents.nextNames()).toEqual([]);
    const boEvents = await openDocumentEvents(t.url, bo, docId);
    expect(await boEvents.nextNames()).toEqual(['Ana']);
    expect(await anaEvents.nextNames()).toEqual(['Bo']);
    // Bo's tab goes away without a word: the server notices the closed stream and removes his mark.
    boEvents.close();
    expect(await anaEvents.nextNames()).toEqual([]);
    // A client that polls the PUT heartbeat is seen by the stream too.
    await t.request('PUT', `/api/v1/content/${docId}/presence`, { key: cy });
    expect(await anaEvents.nextNames()).toEqual(['Cy']);
    anaEvents.close();
  });

  it('ends the stream of a person who said they left, and shows them gone', async () => {
    const anaEvents = await openDocumentEvents(t.url, ana, docId);
    await anaEvents.nextNames();
    const boEvents = await openDocumentEvents(t.url, bo, docId);
    await boEvents.nextNames();
    expect(await anaEvents.nextNames()).toContain('Bo');
    // A browser may hold an aborted stream's connection open: the editor says it left.
    expect((await t.request('DELETE', `/api/v1/content/${docId}/presence`, { key: bo })).status).toBe(200);
    await boEvents.ended;
    expect(await anaEvents.nextNames()).not.toContain('Bo');
    anaEvents.close();
  });

  it('never shows a mark that lapsed (its process went away without leaving)', async () => {
    // A document of its own, so no late announcement from the streams of the tests above reaches it.
    const lapseDocId = (await createDocument(t)).documentId;
    await t.request('PUT', `/api/v1/content/${lapseDocId}/presence`, { key: cy });
    const anaEvents = await openDocumentEvents(t.url, ana, lapseDocId);
    expect(await anaEvents.nextNames()).toEqual(['Cy']);
    // Cy's heartbeat stops; past the time to live, no read lists Cy any more. Ana's own arrival may be
    // announced after this point (LISTEN/NOTIFY is asynchronous), showing the page without Cy before Bo
    // comes: every update must leave Cy out, and the one after Bo's arrival shows Bo alone.
    now = new Date(now.getTime() + (PRESENCE_TTL_SECONDS + 1) * 1000);
    const boEvents = await openDocumentEvents(t.url, bo, lapseDocId);
    let names = await anaEvents.nextNames();
    while (!names.includes('Bo')) {
      expect(names).not.toContain('Cy');
      names = await anaEvents.nextNames();
    }
    expect(names).toEqual(['Bo']);
    boEvents.close();
    anaEvents.close();
  });

  it('answers an unknown document with the NOT_FOUND envelope, not a stream', async () => {
    const missing = await openDocumentEvents(t.url, ana, randomUUID());
    expect(missing.status).toBe(404);
    expect(missing.error.error.code).toBe('NOT_FOUND');
    const staging = await fetch(`${t.url}/api/v1/content/${docId}/events`, {
      headers: { authorization: `Bearer ${ana}`, 'x-cms-project': 'default' },
    });
    expect(staging.status).toBe(400);
    expect(((await staging.json()) as { error: { code: string } }).error.code).toBe('TARGET_REQUIRED');
  });

  it('is refused to a caller who may not read drafts', async () => {
    const reader = await t.createKey({ scopes: ['content:read'] });
    const refused = await openDocumentEvents(t.url, reader, docId);
    expect(refused.status).toBe(403);
    expect(refused.error.error.code).toBe('FORBIDDEN');
  });
});

// Two server processes (each its own pool and LISTEN connection) on one PostgreSQL database.
describe.runIf(testEngine() === 'postgres')('a document’s event stream across two processes', () => {
  let database: TestDatabase;
  let first: ServerOnDatabase;
  let second: ServerOnDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    first = await startServerOn(database, { ownConnection: true });
    second = await startServerOn(database, { ownConnection: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await database?.close();
  });

  it('shows a person who opened the document through the other process, and their leaving', async () => {
    const w = first as unknown as TestServer;
    await syncSchema(w);
    const docId = (await createDocument(w)).documentId;
    const ana = await insertLabelledKey(database.db, 'Ana');
    const bo = await insertLabelledKey(database.db, 'Bo');
    const anaEvents = await openDocumentEvents(first.url, ana, docId);
    expect(await anaEvents.nextNames()).toEqual([]);
    const boEvents = await openDocumentEvents(second.url, bo, docId);
    expect(await boEvents.nextNames()).toEqual(['Ana']);
    expect(await anaEvents.nextNames()).toEqual(['Bo']);
    boEvents.close();
    expect(await anaEvents.nextNames()).toEqual([]);
    anaEvents.close();
  });
});
