import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { sendRequest, startTestServer, type TestServer } from '../support/test-server.js';
import { createRelease } from './release-fixtures.js';

let t: TestServer;
const ids = { changed: '', other: '', hidden: '' };
let releaseId = '';

/** A request authenticated by a preview token instead of an API key. */
function withPreview(token: string, path: string, method = 'GET') {
  return sendRequest(t.url, null, method, path, { headers: { authorization: `Preview ${token}` } });
}

async function issue(documentId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/v1/content/${documentId}/preview-token`, { body });
}

beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
  ids.changed = (await createDocument(t, { frontmatter: postFrontmatter({ title: 'Live' }) })).documentId;
  await publishDocument(t, ids.changed);
  const edited = await t.request('PUT', `/api/v1/content/${ids.changed}`, {
    headers: hashHeader(),
    body: { frontmatter: postFrontmatter({ title: 'In the release' }), body: '', draftRevision: 1 },
  });
  expect(edited.status, edited.text).toBe(200);
  ids.other = (await createDocument(t, { frontmatter: postFrontmatter({ title: 'Other live' }) })).documentId;
  await publishDocument(t, ids.other);
  ids.hidden = (await createDocument(t, { frontmatter: postFrontmatter({ title: 'Unreleased draft' }) })).documentId;
  releaseId = await createRelease(t, 'Token', { [ids.changed]: 'publish' });
});
afterAll(() => t.close());

describe('release preview tokens (`POST /content/{documentId}/preview-token` with `release`)', () => {
  it('carries the release, and its holder reads and lists content as the release would publish it', async () => {
    const issued = await issue(ids.changed, { release: releaseId });
    expect(issued.status, issued.text).toBe(200);
    const { token } = issued.body.data;
    expect(decodeJwt(token)).toMatchObject({ documentId: ids.changed, release: releaseId });

    const own = await withPreview(token, `/api/v1/content/${ids.changed}`);
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.frontmatter.title).toBe('In the release');
    // Any document of the environment, as the release leaves it: a site preview renders whole pages.
    const other = await withPreview(token, `/api/v1/content/${ids.other}?release=${releaseId}`);
    expect(other.body.data.frontmatter.title).toBe('Other live');
    expect((await withPreview(token, `/api/v1/content/${ids.hidden}`)).status).toBe(404);
    const list = await withPreview(token, '/api/v1/content?type=post&limit=100');
    expect(list.status, list.text).toBe(200);
    const titles = (list.body.data as any[]).map((d) => d.frontmatter.title).sort();
    expect(titles).toEqual(['In the release', 'Other live']);

    // The draft keeps moving: the token shows the release as it is now, it does not go stale.
    const current = await t.request('GET', `/api/v1/content/${ids.changed}?draft=true`);
    await t.request('PUT', `/api/v1/content/${ids.changed}`, {
      headers: hashHeader(),
      body: {
        frontmatter: postFrontmatter({ title: 'Edited again' }),
        body: '',
        draftRevision: current.body.data.draftRevision,
      },
    });
    expect((await withPreview(token, `/api/v1/content/${ids.changed}`)).body.data.frontmatter.title).toBe(
      'Edited again',
    );
  });

  it('reads nothing else: not drafts, not another release, no writes', async () => {
    const { token } = (await issue(ids.changed, { release: releaseId })).body.data;
    const draft = await withPreview(token, `/api/v1/content/${ids.hidden}?draft=true`);
    expect(draft.status).toBe(403);
    const otherRelease = await createRelease(t, 'Another');
    const wrong = await withPreview(token, `/api/v1/content/${ids.changed}?release=${otherRelease}`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toContain('another release');
    const write = await withPreview(token, `/api/v1/content/${ids.changed}/publish`, 'POST');
    expect(write.status).toBe(403);
    const releases = await withPreview(token, '/api/v1/releases');
    expect(releases.status).toBe(403);
  });

  it('is refused for an unknown release, and a plain token still cannot list', async () => {
    const unknown = await issue(ids.changed, { release: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('Release');
    const plain = (await issue(ids.changed, {})).body.data.token;
    expect(decodeJwt(plain)).not.toHaveProperty('release');
    expect((await withPreview(plain, '/api/v1/content?type=post')).status).toBe(403);
  });
});
