/**
 * What a release checks and who may send it (docs/api.md "Releases"): every item against the schema in
 * force at the moment it goes out, the undo of an `unpublish` item, and the scopes of each route.
 */
import { randomUUID } from 'node:crypto';
import type { ResolvedSchema } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOG_SCHEMA,
  createDocument,
  field,
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

/** BLOG_SCHEMA with post titles of at most `max` characters. */
function titlesUpTo(max: number): ResolvedSchema {
  return {
    types: BLOG_SCHEMA.types.map((type) =>
      type.name === 'post'
        ? {
            ...type,
            fields: {
              ...type.fields,
              title: field('string', { required: true, checks: [{ type: 'max', value: max }] }),
            },
          }
        : type,
    ),
  };
}

describe('release checks at the moment of publishing', () => {
  it('fails, changing nothing, when the schema in force no longer accepts a draft; goes out once it does again', async () => {
    const short = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Short' }) });
    const long = await createDocument(t, { frontmatter: postFrontmatter({ title: 'A rather long title' }) });
    const id = await createRelease(t, 'Schema moved', { [short.documentId]: 'publish', [long.documentId]: 'publish' });

    await syncSchema(t, titlesUpTo(10));
    const failed = await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.data.status).toBe('failed');
    const errors = Object.fromEntries(failed.body.data.items.map((item: any) => [item.documentId, item.error]));
    expect(errors[short.documentId]).toBeNull();
    expect(errors[long.documentId]).toMatch(/^its draft is invalid: .*title/);
    expect(await documentState(t, short.documentId)).toMatchObject({ publishedVersion: null, versions: 0 });
    expect(await documentState(t, long.documentId)).toMatchObject({ publishedVersion: null, versions: 0 });

    await syncSchema(t);
    const published = await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(published.body.data.status).toBe('published');
    expect(published.body.data.items.every((item: any) => item.error === null)).toBe(true);
    expect(await documentState(t, long.documentId)).toMatchObject({ publishedVersion: 1, versions: 1 });
  });
});

describe('revert', () => {
  it('publishes again, as a new version, what an `unpublish` item withdrew', async () => {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ title: 'Withdrawn for a while' }) });
    await publishDocument(t, doc.documentId);
    const id = await createRelease(t, 'Withdraw', { [doc.documentId]: 'unpublish' });
    const out = await t.request('POST', `/api/v1/releases/${id}/publish`);
    expect(out.body.data.items[0]).toMatchObject({ previousVersion: 1, publishedVersion: null });
    expect(await documentState(t, doc.documentId)).toMatchObject({ publishedVersion: null, versions: 1 });

    const inverse = await t.request('POST', `/api/v1/releases/${id}/revert`);
    expect(inverse.status, inverse.text).toBe(200);
    expect(inverse.body.data.items).toMatchObject([
      { documentId: doc.documentId, action: 'publish', previousVersion: null, publishedVersion: 2 },
    ]);
    expect(await documentState(t, doc.documentId)).toMatchObject({
      publishedVersion: 2,
      publishedTitle: 'Withdrawn for a while',
      versions: 2,
    });
    expect((await getRelease(t, id)).status).toBe('reverted');
  });
});

describe('size', () => {
  it('takes at most 10,000 documents in one addition', async () => {
    const id = await createRelease(t, 'Too big');
    const tooMany = Array.from({ length: 10_001 }, () => ({ documentId: randomUUID(), action: 'publish' }));
    const refused = await t.request('POST', `/api/v1/releases/${id}/items`, { body: { items: tooMany } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toHaveProperty(['body.items']);
    expect((await getRelease(t, id)).itemCount).toBe(0);
  });
});

describe('scopes', () => {
  it('content:write edits a release; publishing, scheduling, unscheduling, reverting and run-due need content:publish', async () => {
    const doc = await createDocument(t);
    const writer = await t.createKey({ scopes: ['content:read', 'content:read:draft', 'content:write'] });
    const as = (method: string, path: string, body?: unknown) =>
      t.request(method, path, { key: writer, ...(body === undefined ? {} : { body }) });

    const created = await as('POST', '/api/v1/releases', { title: 'By a writer' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const item = { items: [{ documentId: doc.documentId, action: 'publish' }] };
    expect((await as('POST', `/api/v1/releases/${id}/items`, item)).status).toBe(200);
    expect((await as('DELETE', `/api/v1/releases/${id}/items/${doc.documentId}`)).status).toBe(200);
    expect((await as('POST', `/api/v1/releases/${id}/items`, item)).status).toBe(200);
    expect((await as('GET', `/api/v1/releases/${id}`)).status).toBe(200);

    const at = new Date(Date.now() + 60 * 60_000).toISOString();
    for (const [method, path, body] of [
      ['POST', `/api/v1/releases/${id}/publish`],
      ['POST', `/api/v1/releases/${id}/schedule`, { scheduledAt: at }],
      ['POST', `/api/v1/releases/${id}/unschedule`],
      ['POST', `/api/v1/releases/${id}/revert`],
      ['POST', '/api/v1/releases/run-due'],
    ] as const) {
      const refused = await as(method, path, body);
      expect(refused.status, `${path}: ${refused.text}`).toBe(403);
    }

    const reader = await t.createKey({ scopes: ['content:read'] });
    expect((await t.request('GET', `/api/v1/releases/${id}`, { key: reader })).status).toBe(403);
    expect((await t.request('POST', '/api/v1/releases', { key: reader, body: { title: 'No' } })).status).toBe(403);
    expect((await getRelease(t, id)).status).toBe('open');
  });
});
