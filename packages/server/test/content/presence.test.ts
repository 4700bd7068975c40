import { randomUUID } from 'node:crypto';
import { PRESENCE_TTL_SECONDS } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEnvironment, seedDocuments, seedSchema } from '../content-reads/read-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
let now = new Date('2026-03-01T10:00:00.000Z');
let docId: string;
let deletedId: string;
let ana: string;
let bo: string;

/** Two keys stand for two people: each is its own principal (named by its label). */
async function keyLabelled(label: string): Promise<string> {
  const key = await t.createKey();
  await t.db.query(`update api_keys set label = $1 where $2 like prefix || '%'`, [label, key]);
  return key;
}

beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await addEnvironment(t.db, 'staging');
  await seedSchema(t.db);
  [docId, deletedId] = (await seedDocuments(t.db, [
    { type: 'author', path: 'authors/ada', frontmatter: { name: 'Ada' } },
    { type: 'author', path: 'authors/gone', frontmatter: { name: 'Gone' }, isDeleted: true },
  ])) as [string, string];
  ana = await keyLabelled('Ana');
  bo = await keyLabelled('Bo');
});
afterAll(() => t.close());

const beat = (key: string, id = docId, environment?: string) =>
  t.request('PUT', `/api/v1/content/${id}/presence`, { key, ...(environment ? { environment } : {}) });
const names = (response: { body: { data: { editors: { name: string }[] } } }) =>
  response.body.data.editors.map((editor) => editor.name);

describe('presence on a document', () => {
  it('lists the others with the document open, never the caller', async () => {
    const first = await beat(ana);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ documentId: docId, editors: [], ttlSeconds: PRESENCE_TTL_SECONDS });
    const second = await beat(bo);
    expect(second.body.data.editors).toEqual([
      { principalId: expect.any(String), name: 'Ana', since: '2026-03-01T10:00:00.000Z' },
    ]);
    expect(names(await beat(ana))).toEqual(['Bo']);
  });

  it('forgets a mark not renewed within the time to live, and keeps one that is', async () => {
    now = new Date(now.getTime() + (PRESENCE_TTL_SECONDS - 1) * 1000);
    expect(names(await beat(bo))).toEqual(['Ana']);
    now = new Date(now.getTime() + 2000); // Ana's last mark has lapsed; Bo renewed his
    expect(names(await beat(bo))).toEqual([]);
    const back = await beat(ana);
    expect(names(back)).toEqual(['Bo']);
    // Ana's new stay starts now; Bo's goes on from his first mark.
    expect(back.body.data.editors[0].since).toBe('2026-03-01T10:00:00.000Z');
    expect((await beat(bo)).body.data.editors[0].since).toBe(now.toISOString());
  });

  it('drops the mark at once when the editor is closed', async () => {
    const left = await t.request('DELETE', `/api/v1/content/${docId}/presence`, { key: ana });
    expect(left.status).toBe(200);
    expect(names(left)).toEqual(['Bo']);
    expect(names(await beat(bo))).toEqual([]);
    // Leaving twice is harmless.
    expect((await t.request('DELETE', `/api/v1/content/${docId}/presence`, { key: ana })).status).toBe(200);
  });

  it('is NOT_FOUND for an unknown, a deleted or another environment’s document', async () => {
    for (const response of [
      await beat(ana, randomUUID()),
      await beat(ana, deletedId),
      await beat(ana, docId, 'staging'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('rejects a malformed id, and callers without content:read:draft', async () => {
    expect((await beat(ana, 'nope')).status).toBe(400);
    const reader = await t.createKey({ scopes: ['content:read'] });
    const refused = await beat(reader);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await t.request('PUT', `/api/v1/content/${docId}/presence`, { key: null })).status).toBe(401);
  });
});
