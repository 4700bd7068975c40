import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createDocument,
  hashHeader,
  outboxEvents,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from '../content/fixtures.js';
import { asSession, expectError, type Session, signInAs } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createRelease, documentState, getRelease } from './release-fixtures.js';

/**
 * A scheduled release is a publisher's decision: an author (no `content:publish`) can neither change its
 * items nor, by editing a draft in it, get that edit published at its time (docs/api.md "Releases").
 */
let now = new Date('2026-11-27T09:00:00.000Z');
let t: TestServer;
let author: Session;
let editor: Session;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await syncSchema(t);
  author = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'author' }] });
  editor = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'editor' }] });
});
afterAll(() => t.close());

const HOUR = 60 * 60_000;

async function schedule(id: string, as: Session = editor): Promise<void> {
  const response = await asSession(t.url, as, 'POST', `/api/v1/releases/${id}/schedule`, {
    body: { scheduledAt: new Date(now.getTime() + HOUR).toISOString() },
  });
  expect(response.status, response.text).toBe(200);
}

/** Moves the clock past the schedule and runs the due releases; answers the release once it left `scheduled`. */
async function fire(id: string): Promise<any> {
  now = new Date(now.getTime() + HOUR + 1_000);
  const run = await t.request('POST', '/api/v1/releases/run-due');
  expect(run.status, run.text).toBe(200);
  // The poller of the server may have taken it first: either way it ran once.
  await vi.waitFor(async () => expect((await getRelease(t, id)).status).not.toBe('scheduled'), {
    timeout: 8_000,
    interval: 100,
  });
  return getRelease(t, id);
}

describe('the items of a scheduled release', () => {
  it('need content:publish to be added, changed or removed; an open release takes an author’s items', async () => {
    const live = await createDocument(t);
    await publishDocument(t, live.documentId);
    const planned = await createDocument(t);
    const id = await createRelease(t, 'Planned');
    // Open: an author gathers documents (publishing it still needs a publisher).
    const added = await asSession(t.url, author, 'POST', `/api/v1/releases/${id}/items`, {
      body: { items: [{ documentId: planned.documentId, action: 'publish' }] },
    });
    expect(added.status, added.text).toBe(200);
    await schedule(id);

    const attempts = [
      // Adding an unpublish of someone else's live document.
      ['POST', `/api/v1/releases/${id}/items`, { items: [{ documentId: live.documentId, action: 'unpublish' }] }],
      // Changing the action of an item already there.
      ['POST', `/api/v1/releases/${id}/items`, { items: [{ documentId: planned.documentId, action: 'unpublish' }] }],
      ['DELETE', `/api/v1/releases/${id}/items/${planned.documentId}`, undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const response = await asSession(t.url, author, method, path, body === undefined ? {} : { body });
      expectError(response, 403, 'FORBIDDEN');
      expect(response.body.error.details).toMatchObject({ missing: ['content:publish'], status: 'scheduled' });
      expect(response.body.error.message).toContain('content:publish');
    }
    expect((await getRelease(t, id)).items.map((item: any) => [item.documentId, item.action])).toEqual([
      [planned.documentId, 'publish'],
    ]);

    // A publisher may change it while it is scheduled.
    const byEditor = await asSession(t.url, editor, 'POST', `/api/v1/releases/${id}/items`, {
      body: { items: [{ documentId: live.documentId, action: 'unpublish' }] },
    });
    expect(byEditor.status, byEditor.text).toBe(200);
    expect(byEditor.body.data).toMatchObject({ status: 'scheduled', itemCount: 2 });

    const released = await fire(id);
    expect(released.status).toBe('published');
    expect(await documentState(t, live.documentId)).toMatchObject({ publishedVersion: null });
    expect(await documentState(t, planned.documentId)).toMatchObject({ publishedVersion: 1 });
  });

  it('fails at its time, naming the documents whose drafts changed since it was scheduled, and publishes nothing', async () => {
    const edited = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Reviewed' }) });
    const untouched = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Untouched' }) });
    const id = await createRelease(t, 'Reviewed set', {
      [edited.documentId]: 'publish',
      [untouched.documentId]: 'publish',
    });
    await schedule(id);
    expect((await getRelease(t, id)).items.every((item: any) => item.changedSinceAdded === false)).toBe(true);

    // The author may still edit the draft (it is their document), but the edit is not what was scheduled.
    const edit = await asSession(t.url, author, 'PUT', `/api/v1/content/${edited.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Slipped in' }), body: '', draftRevision: 1 },
    });
    expect(edit.status, edit.text).toBe(200);
    const flagged = await getRelease(t, id);
    expect(flagged.items.find((item: any) => item.documentId === edited.documentId)).toMatchObject({
      draftRevision: 1,
      changedSinceAdded: true,
    });

    const released = await fire(id);
    expect(released.status).toBe('failed');
    const errors = Object.fromEntries(released.items.map((item: any) => [item.documentId, item.error]));
    expect(errors[edited.documentId]).toBe(
      'its draft changed after the release was scheduled (revision 2 now, 1 when scheduled): review it, then schedule the release again or publish it now',
    );
    expect(errors[untouched.documentId]).toBeNull();
    expect(await documentState(t, edited.documentId)).toMatchObject({ publishedVersion: null, versions: 0 });
    expect(await documentState(t, untouched.documentId)).toMatchObject({ publishedVersion: null, versions: 0 });
    const failed = (await outboxEvents(t)).filter((event) => event.payload.release?.id === id);
    expect(failed.map((event) => event.type)).toEqual(['release.failed']);
    expect(failed[0]?.payload.release.failures).toEqual([
      { documentId: edited.documentId, error: errors[edited.documentId] },
    ]);

    // A publisher who reviewed the edit schedules again: that accepts the drafts as they are then.
    await schedule(id);
    expect((await getRelease(t, id)).items.map((item: any) => item.draftRevision).sort()).toEqual([1, 2]);
    const again = await fire(id);
    expect(again.status).toBe('published');
    expect(await documentState(t, edited.documentId)).toMatchObject({
      publishedVersion: 1,
      publishedTitle: 'Slipped in',
    });
  });

  it('publishes an unpublish item at its time whatever happened to the draft, and a release published now as it is', async () => {
    const withdrawn = await createDocument(t);
    await publishDocument(t, withdrawn.documentId);
    const scheduled = await createRelease(t, 'Withdraw', { [withdrawn.documentId]: 'unpublish' });
    await schedule(scheduled);
    const edit = await asSession(t.url, author, 'PUT', `/api/v1/content/${withdrawn.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Draft moved on' }), body: '', draftRevision: 1 },
    });
    expect(edit.status, edit.text).toBe(200);
    expect((await fire(scheduled)).status).toBe('published');
    expect(await documentState(t, withdrawn.documentId)).toMatchObject({ publishedVersion: null });

    // Published now by a publisher, the drafts go out as they are at that moment (they see the flag).
    const doc = await createDocument(t);
    const now_ = await createRelease(t, 'Now', { [doc.documentId]: 'publish' });
    await asSession(t.url, author, 'PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Latest' }), body: '', draftRevision: 1 },
    });
    const published = await asSession(t.url, editor, 'POST', `/api/v1/releases/${now_}/publish`);
    expect(published.status, published.text).toBe(200);
    expect(published.body.data.status).toBe('published');
    expect(await documentState(t, doc.documentId)).toMatchObject({ publishedTitle: 'Latest' });
  });
});
