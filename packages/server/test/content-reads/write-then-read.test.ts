import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAuthor,
  createDocument,
  hashHeader,
  postFrontmatter,
  publishDocument,
  syncSchema,
  uniquePath,
} from '../content/fixtures.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

const get = (id: string, query = '') => t.request('GET', `/api/v1/content/${id}${query}`);

async function updateDraft(id: string, frontmatter: Record<string, unknown>, draftRevision: number) {
  const response = await t.request('PUT', `/api/v1/content/${id}`, {
    body: { frontmatter, body: 'changed', draftRevision },
    headers: hashHeader(),
  });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

describe('reads follow the document lifecycle of the write API', () => {
  it('hides a document from published reads until it is published, and after it is unpublished', async () => {
    const post = await createDocument(t);
    expect((await get(post.documentId)).status).toBe(404);
    expect((await get(post.documentId, '?draft=true')).body.data.frontmatter.title).toBe('Hello world');
    await publishDocument(t, post.documentId);
    expect((await get(post.documentId)).body.data).toMatchObject({ publishedVersion: 1, hasUnpublishedChanges: false });
    const unpublish = await t.request('POST', `/api/v1/content/${post.documentId}/unpublish`);
    expect(unpublish.status, unpublish.text).toBe(200);
    expect((await get(post.documentId)).status).toBe(404);
  });

  it('keeps serving the published content while the draft changes', async () => {
    const post = await createDocument(t);
    await publishDocument(t, post.documentId);
    const draft = await updateDraft(post.documentId, postFrontmatter({ title: 'Edited' }), post.draftRevision);
    const published = await get(post.documentId);
    expect(published.body.data).toMatchObject({ frontmatter: { title: 'Hello world' }, hasUnpublishedChanges: true });
    expect(published.body.data.draftRevision).toBe(draft.draftRevision);
    expect((await get(post.documentId, '?draft=true')).body.data.frontmatter.title).toBe('Edited');
    const list = await t.request('GET', `/api/v1/content?type=post&path=${post.path}`);
    expect(list.body.data[0].frontmatter.title).toBe('Hello world');
  });

  it('resolves a reference once its target is published', async () => {
    const author = await createAuthor(t, 'Ada');
    const post = await createDocument(t, { frontmatter: postFrontmatter({ author }) });
    await publishDocument(t, post.documentId);
    const before = await get(post.documentId, '?resolve=author');
    expect(before.body.data.frontmatter.author).toBeNull();
    expect(before.body.data.resolveErrors['frontmatter.author'].code).toBe('REFERENCE_FORBIDDEN');
    await publishDocument(t, author);
    const after = await get(post.documentId, '?resolve=author');
    expect(after.body.data.frontmatter.author).toMatchObject({
      documentId: author,
      type: 'author',
      frontmatter: { name: 'Ada' },
    });
    const deleted = await t.request('DELETE', `/api/v1/content/${author}`);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await get(post.documentId, '?resolve=author');
    expect(gone.body.data.resolveErrors['frontmatter.author'].code).toBe('REFERENCE_DELETED');
  });

  it('treats a deleted document as absent, and lists it with isDeleted=true', async () => {
    const post = await createDocument(t);
    await publishDocument(t, post.documentId);
    expect((await t.request('DELETE', `/api/v1/content/${post.documentId}`)).status).toBe(200);
    expect((await get(post.documentId)).status).toBe(404);
    const listed = await t.request('GET', `/api/v1/content?type=post&draft=true&isDeleted=true&path=${post.path}`);
    expect(listed.body.data).toEqual([expect.objectContaining({ documentId: post.documentId, isDeleted: true })]);
  });

  it('lists the variants created through a translation group and reads one by locale', async () => {
    const en = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'en',
      frontmatter: { title: 'Hi' },
    });
    const fr = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'fr',
      translationGroupId: en.translationGroupId,
      frontmatter: { title: 'Salut' },
    });
    const variants = await t.request('GET', `/api/v1/content/${fr.documentId}/variants`);
    expect(variants.body.data.map((v: { locale: string }) => v.locale)).toEqual(['en', 'fr']);
    const byLocale = await get(en.documentId, '?draft=true&locale=fr');
    expect(byLocale.body.data).toMatchObject({ documentId: fr.documentId, frontmatter: { title: 'Salut' } });
  });

  it('outdates a preview token when the draft is saved again', async () => {
    const post = await createDocument(t);
    const issued = await t.request('POST', `/api/v1/content/${post.documentId}/preview-token`, {
      body: { previewUrl: 'http://localhost:3000/preview' },
    });
    const preview = () =>
      sendRequest(t.url, null, 'GET', `/api/v1/content/${post.documentId}?draft=true`, {
        headers: { authorization: `Preview ${issued.body.data.token}` },
      });
    expect((await preview()).status).toBe(200);
    await updateDraft(post.documentId, postFrontmatter({ title: 'Newer' }), post.draftRevision);
    const stale = await preview();
    expect(stale.status).toBe(403);
    expect(stale.body.error.details.reason).toBe('PREVIEW_OUTDATED');
  });

  it('answers a read with exactly the document the write answered', async () => {
    const post = await createDocument(t);
    const draft = await get(post.documentId, '?draft=true');
    expect(draft.body.data).toEqual(post);
    const listed = await t.request('GET', `/api/v1/content?type=post&draft=true&path=${encodeURIComponent(post.path)}`);
    expect(listed.body.data).toEqual([post]);
    const updated = await updateDraft(post.documentId, post.frontmatter, post.draftRevision);
    expect((await get(post.documentId, '?draft=true')).body.data).toEqual(updated);
    await publishDocument(t, post.documentId);
    const published = (await get(post.documentId)).body.data;
    expect(published).toEqual({ ...(await get(post.documentId, '?draft=true')).body.data });
    expect(published.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
