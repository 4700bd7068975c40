import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createRelease } from './release-fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

async function titleOf(documentId: string, query: string, key?: string) {
  const response = await t.request('GET', `/api/v1/content/${documentId}?${query}`, key ? { key } : {});
  return { status: response.status, title: response.body.data?.frontmatter?.title, response };
}

describe('release preview (`release=<id>` on a content read)', () => {
  it('answers what the site would show once the release is out', async () => {
    const changed = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Live' }) });
    await publishDocument(t, changed.documentId);
    await t.request('PUT', `/api/v1/content/${changed.documentId}`, {
      headers: { 'x-cms-schema-hash': (await t.request('GET', '/api/v1/schema')).body.data.schemaHash },
      body: { frontmatter: postFrontmatter({ title: 'Coming' }), body: '', draftRevision: 1 },
    });
    const fresh = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Brand new' }) });
    const withdrawn = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Going away' }) });
    await publishDocument(t, withdrawn.documentId);
    const untouched = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Untouched' }) });
    await publishDocument(t, untouched.documentId);
    const id = await createRelease(t, 'Preview', {
      [changed.documentId]: 'publish',
      [fresh.documentId]: 'publish',
      [withdrawn.documentId]: 'unpublish',
    });
    const release = `release=${id}`;

    expect(await titleOf(changed.documentId, release)).toMatchObject({ status: 200, title: 'Coming' });
    expect(await titleOf(fresh.documentId, release)).toMatchObject({ status: 200, title: 'Brand new' });
    expect((await titleOf(withdrawn.documentId, release)).status).toBe(404);
    expect(await titleOf(untouched.documentId, release)).toMatchObject({ status: 200, title: 'Untouched' });
    // The ordinary published read still shows what is live, and a preview is never cached for others.
    expect(await titleOf(changed.documentId, '')).toMatchObject({ status: 200, title: 'Live' });
    const previewed = await titleOf(changed.documentId, release);
    expect(previewed.response.headers.get('cache-control')).toContain('private');

    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await titleOf(changed.documentId, release, reader)).status).toBe(403);
    const unknown = await titleOf(changed.documentId, 'release=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.response.body.error.message).toContain('Release');
  });
});
