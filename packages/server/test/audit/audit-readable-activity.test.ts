/**
 * A log a person can read (docs/audit.md "Routine entries", "Not written", the target's `label`):
 * presence marks write no entry; preview tokens are written but left out of the lists unless asked
 * for; entries name documents and releases by their title as it was then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { createRelease } from '../releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditEntries } from './audit-helpers.js';

let now = new Date('2026-11-28T09:00:00.000Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await syncSchema(t);
});
afterAll(() => t.close());

async function activityOf(documentId: string, query = ''): Promise<any[]> {
  const response = await t.request('GET', `/api/v1/content/${documentId}/activity${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

/** Every entry of the project's log, routine ones included, as the export has them. */
async function exported(): Promise<any[]> {
  const response = await fetch(`${t.url}/api/v1/audit/export`, {
    headers: { authorization: `Bearer ${t.adminKey}`, 'x-cms-project': 'default' },
  });
  expect(response.status).toBe(200);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('an audit log a person can read', () => {
  it('writes no entry for presence: opening and leaving a document changes nothing', async () => {
    const doc = await createDocument(t);
    const marked = await t.request('PUT', `/api/v1/content/${doc.documentId}/presence`);
    expect(marked.status, marked.text).toBe(200);
    const left = await t.request('DELETE', `/api/v1/content/${doc.documentId}/presence`);
    expect(left.status, left.text).toBe(200);
    const actions = (await exported()).map((entry) => entry.action);
    expect(actions).not.toContain('content.presence.heartbeat');
    expect(actions).not.toContain('content.presence.leave');
    expect((await activityOf(doc.documentId, '?includeRoutine=true')).map((entry) => entry.action)).toEqual([
      'content.create',
    ]);
  });

  it('keeps preview tokens on record but out of the lists, unless asked for or filtered by', async () => {
    const doc = await createDocument(t);
    for (let i = 0; i < 3; i += 1) {
      const issued = await t.request('POST', `/api/v1/content/${doc.documentId}/preview-token`, { body: {} });
      expect(issued.status, issued.text).toBe(200);
    }
    const tokens = (entries: any[]) =>
      entries.filter(
        (entry) => entry.action === 'content.previewTokens.create' && entry.target.documentId === doc.documentId,
      );

    expect(tokens(await auditEntries(t))).toHaveLength(0);
    expect(tokens(await auditEntries(t, { documentId: doc.documentId }))).toHaveLength(0);
    expect(tokens(await auditEntries(t, { includeRoutine: 'true' }))).toHaveLength(3);
    expect(tokens(await auditEntries(t, { action: 'content.previewTokens.create' }))).toHaveLength(3);
    expect(tokens(await exported())).toHaveLength(3);
    // Named like a change of the document: its type and title.
    expect(tokens(await exported())[0].target).toMatchObject({ type: 'post', label: 'Hello world' });

    expect((await activityOf(doc.documentId)).map((entry) => entry.action)).toEqual(['content.create']);
    expect(tokens(await activityOf(doc.documentId, '?includeRoutine=true'))).toHaveLength(3);

    // A page of the list is full of activity, however many routine entries lie between.
    const page = await auditEntries(t, { limit: '2' });
    expect(page).toHaveLength(2);
    expect(tokens(page)).toHaveLength(0);

    const refused = await t.request('GET', '/api/v1/audit?includeRoutine=yes', { environment: null });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_QUERY_PARAM',
      details: { fields: { includeRoutine: expect.any(String) } },
    });
  });

  it('names a document by its title as it was then, and by its path when it has none', async () => {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Getting started' }) });
    await publishDocument(t, doc.documentId);
    const renamed = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Start here' }), body: '', draftRevision: doc.draftRevision },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const deleted = await t.request('DELETE', `/api/v1/content/${doc.documentId}`);
    expect(deleted.status, deleted.text).toBe(200);

    const entries = await auditEntries(t, { documentId: doc.documentId });
    expect(entries.map((entry) => [entry.action, entry.target.label, entry.target.type])).toEqual([
      ['content.delete', 'Start here', 'post'],
      ['content.update', 'Start here', 'post'],
      ['content.publish', 'Getting started', 'post'],
      ['content.create', 'Getting started', 'post'],
    ]);

    // A blank name names nothing: the path does.
    const author = await createDocument(t, {
      type: 'author',
      path: 'authors/untitled-one',
      frontmatter: { name: ' ' },
    });
    const [created] = await auditEntries(t, { documentId: author.documentId });
    expect(created.target.label).toBe('authors/untitled-one');
    // The chain still holds with the new field.
    const verified = await t.request('GET', '/api/v1/audit/verify', { environment: null });
    expect(verified.body.data.ok).toBe(true);
  });

  it('names a release by its title, also when the scheduler publishes it', async () => {
    const doc = await createDocument(t);
    const release = await createRelease(t, 'Spring launch', { [doc.documentId]: 'publish' });
    const scheduled = await t.request('POST', `/api/v1/releases/${release}/schedule`, {
      body: { scheduledAt: new Date(now.getTime() + 60_000).toISOString() },
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    now = new Date(now.getTime() + 61_000);
    const ran = await t.request('POST', '/api/v1/releases/run-due', { body: {} });
    expect(ran.status, ran.text).toBe(200);

    const entries = (await auditEntries(t)).filter((entry) => entry.target.id === release);
    expect(entries.map((entry) => [entry.action, entry.actor.type, entry.target.label])).toEqual([
      ['releases.publish', 'system', 'Spring launch'],
      ['releases.schedule', 'apiKey', 'Spring launch'],
      ['releases.items.add', 'apiKey', 'Spring launch'],
      ['releases.create', 'apiKey', 'Spring launch'],
    ]);
  });
});
