import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument, hashHeader, postFrontmatter, publishDocument, syncSchema } from '../content/fixtures.js';
import { createRelease } from '../releases/release-fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * The search vectors are columns a trigger keeps (migration 0048): a publish takes the draft's vector,
 * a revert computes the restored version's, an edit changes the draft's only. Search must follow each.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

async function found(word: string, draft = false): Promise<string[]> {
  const response = await t.request('GET', `/api/v1/search?q=${word}${draft ? '&draft=true' : ''}`);
  expect(response.status, response.text).toBe(200);
  return (response.body.data as Array<{ documentId: string }>).map((hit) => hit.documentId);
}

async function edit(documentId: string, title: string, body: string) {
  const current = await t.request('GET', `/api/v1/content/${documentId}?draft=true`);
  const response = await t.request('PUT', `/api/v1/content/${documentId}`, {
    headers: hashHeader(),
    body: { frontmatter: postFrontmatter({ title }), body, draftRevision: current.body.data.draftRevision },
  });
  expect(response.status, response.text).toBe(200);
}

describe('search after releases publish, unpublish and revert', () => {
  it('finds what each step leaves published, and drafts as they are', async () => {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Aardvark' }), body: 'first body' });
    const id = doc.documentId as string;
    await publishDocument(t, id);
    await edit(id, 'Bumblebee', 'second body with zeppelin');
    // The draft moved on; what readers see did not.
    expect(await found('aardvark')).toEqual([id]);
    expect(await found('zeppelin')).toEqual([]);
    expect(await found('zeppelin', true)).toEqual([id]);
    expect(await found('aardvark', true)).toEqual([]);

    const release = await createRelease(t, 'Search', { [id]: 'publish' });
    expect((await t.request('POST', `/api/v1/releases/${release}/publish`)).body.data.status).toBe('published');
    expect(await found('zeppelin')).toEqual([id]);
    expect(await found('bumblebee')).toEqual([id]);
    expect(await found('aardvark')).toEqual([]);

    // The revert publishes version 1 again: its words, not the draft's, are what readers find.
    const reverted = await t.request('POST', `/api/v1/releases/${release}/revert`);
    expect(reverted.status, reverted.text).toBe(200);
    expect(await found('aardvark')).toEqual([id]);
    expect(await found('zeppelin')).toEqual([]);
    expect(await found('zeppelin', true)).toEqual([id]);

    const withdraw = await createRelease(t, 'Withdraw', { [id]: 'unpublish' });
    expect((await t.request('POST', `/api/v1/releases/${withdraw}/publish`)).body.data.status).toBe('published');
    expect(await found('aardvark')).toEqual([]);
    expect(await found('bumblebee', true)).toEqual([id]);
  });
});
