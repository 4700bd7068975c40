import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthor,
  createDocument,
  hashHeader,
  outboxEvents,
  postFrontmatter,
  publishDocument,
  syncSchema,
} from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createRelease, documentState, getRelease } from './release-fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

describe('a release going out', () => {
  it('publishes every item as a new version whose change summary names the release, with the events', async () => {
    const first = await createDocument(t, { frontmatter: postFrontmatter({ title: 'First' }) });
    const second = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Second' }) });
    const withdrawn = await createDocument(t);
    await publishDocument(t, withdrawn.documentId);
    const id = await createRelease(t, 'Spring launch', {
      [first.documentId]: 'publish',
      [second.documentId]: 'publish',
      [withdrawn.documentId]: 'unpublish',
    });

    const response = await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(response.status, response.text).toBe(200);
    const release = response.body.data;
    expect(release).toMatchObject({ id, title: 'Spring launch', status: 'published', itemCount: 3 });
    expect(release.publishedAt).not.toBeNull();
    expect(release.items.map((item: any) => [item.documentId, item.publishedVersion])).toEqual([
      [first.documentId, 1],
      [second.documentId, 1],
      [withdrawn.documentId, null],
    ]);
    expect(await documentState(t, first.documentId)).toMatchObject({ publishedVersion: 1, publishedTitle: 'First' });
    expect(await documentState(t, withdrawn.documentId)).toMatchObject({ publishedVersion: null, versions: 1 });
    const version = await t.request('GET', `/api/v1/content/${second.documentId}/versions/1`);
    expect(version.body.data.changeSummary).toBe(`Release "Spring launch" (${id})`);

    const events = (await outboxEvents(t)).filter((event) =>
      [first.documentId, second.documentId, withdrawn.documentId, undefined].includes(
        event.payload.document?.documentId,
      ),
    );
    const tail = events.slice(-4).map((event) => event.type);
    expect(tail).toEqual(['content.published', 'content.published', 'content.unpublished', 'release.published']);
    expect(events.at(-1)?.payload.release).toMatchObject({ id, title: 'Spring launch', status: 'published' });
  });

  it('publishes nothing when one item became invalid, and fails with the reason for that item', async () => {
    const author = await createAuthor(t, 'Grace');
    const good = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Good' }) });
    const published = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Live' }) });
    await publishDocument(t, published.documentId);
    const broken = await createDocument(t, { frontmatter: postFrontmatter({ author }) });
    const id = await createRelease(t, 'Doomed', {
      [good.documentId]: 'publish',
      [published.documentId]: 'unpublish',
      [broken.documentId]: 'publish',
    });
    expect((await t.request('DELETE', `/api/v1/content/${author}`)).status).toBe(200);
    const before = [await documentState(t, good.documentId), await documentState(t, published.documentId)];

    const response = await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(response.status, response.text).toBe(200);
    const release = response.body.data;
    expect(release.status).toBe('failed');
    const errors = Object.fromEntries(release.items.map((item: any) => [item.documentId, item.error]));
    expect(errors[good.documentId]).toBeNull();
    expect(errors[published.documentId]).toBeNull();
    expect(errors[broken.documentId]).toContain(`${author} is deleted`);
    expect([await documentState(t, good.documentId), await documentState(t, published.documentId)]).toEqual(before);
    expect(await documentState(t, broken.documentId)).toMatchObject({ publishedVersion: null, versions: 0 });
    const last = (await outboxEvents(t)).at(-1);
    expect(last?.type).toBe('release.failed');
    expect(last?.payload.release.failures).toEqual([
      { documentId: broken.documentId, error: errors[broken.documentId] },
    ]);

    // Fixed, it goes out on the next attempt.
    await t.request('DELETE', `/api/v1/releases/${id}/items/${broken.documentId}`);
    const retry = await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(retry.body.data.status).toBe('published');
    expect(await documentState(t, good.documentId)).toMatchObject({ publishedVersion: 1 });
  });

  it('flags an item whose draft changed after it was added', async () => {
    const doc = await createDocument(t);
    const id = await createRelease(t, 'Review', { [doc.documentId]: 'publish' });
    expect((await getRelease(t, id)).items[0]).toMatchObject({ draftRevision: 1, changedSinceAdded: false });
    const update = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'Edited' }), body: '', draftRevision: 1 },
    });
    expect(update.status, update.text).toBe(200);
    expect((await getRelease(t, id)).items[0]).toMatchObject({ draftRevision: 1, changedSinceAdded: true });
  });

  it('reverts by publishing the earlier versions again and unpublishing what was new', async () => {
    const existing = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Old title' }) });
    await publishDocument(t, existing.documentId);
    await t.request('PUT', `/api/v1/content/${existing.documentId}`, {
      headers: hashHeader(),
      body: { frontmatter: postFrontmatter({ title: 'New title' }), body: '', draftRevision: 1 },
    });
    const fresh = await createDocument(t);
    const id = await createRelease(t, 'Rebrand', { [existing.documentId]: 'publish', [fresh.documentId]: 'publish' });
    await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(await documentState(t, existing.documentId)).toMatchObject({
      publishedVersion: 2,
      publishedTitle: 'New title',
    });

    const response = await t.request('POST', `/api/v1/releases/${id}/revert`);
    expect(response.status, response.text).toBe(200);
    const inverse = response.body.data;
    expect(inverse).toMatchObject({ status: 'published', revertOf: id, title: 'Revert "Rebrand"' });
    expect(await documentState(t, existing.documentId)).toMatchObject({
      publishedVersion: 3,
      publishedTitle: 'Old title',
      versions: 3,
    });
    expect(await documentState(t, fresh.documentId)).toMatchObject({ publishedVersion: null });
    expect(await getRelease(t, id)).toMatchObject({ status: 'reverted', revertedBy: inverse.id });

    const again = await t.request('POST', `/api/v1/releases/${id}/revert`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('RELEASE_STATE_CONFLICT');
  });

  it('refuses unknown documents, and publishing without content:publish', async () => {
    const id = await createRelease(t, 'Checks');
    const unknown = await t.request('POST', `/api/v1/releases/${id}/items`, {
      body: { items: [{ documentId: '00000000-0000-4000-8000-000000000000', action: 'publish' }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields).toHaveProperty(['body.items[0].documentId']);
    const writer = await t.createKey({ scopes: ['content:read', 'content:read:draft', 'content:write'] });
    const denied = await t.request('POST', `/api/v1/releases/${id}/publish`, { key: writer });
    expect(denied.status).toBe(403);
    const missing = await t.request('GET', '/api/v1/releases/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    const list = await t.request('GET', '/api/v1/releases?status=open');
    expect(list.status).toBe(200);
    expect(list.body.data.map((release: any) => release.id)).toContain(id);
  });
});
