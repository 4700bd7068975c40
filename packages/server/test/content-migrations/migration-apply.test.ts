import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocument } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createPost,
  documentRow,
  eventsOf,
  migrate,
  migrationRows,
  newProject,
  publish,
} from './migration-fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const RENAME_SUBTITLE = [{ op: 'rename', from: 'subtitle', to: 'seo.description' }];

function without(frontmatter: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(frontmatter).filter(([name]) => name !== key));
}

describe('POST /content/migrations: dry run and apply', () => {
  it('plans on a dry run without writing anything, then applies the same plan', async () => {
    const where = await newProject(t);
    const a = await createPost(t, where, { title: 'A', subtitle: 'About A' });
    const b = await createPost(t, where, { title: 'B' });
    const eventsBefore = await eventsOf(t, where);
    const body = { name: 'subtitle-to-seo', type: 'post', operations: RENAME_SUBTITLE };

    const dry = await migrate(t, where, { ...body, dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    const after = { ...without(a.frontmatter, 'subtitle'), seo: { description: 'About A', noindex: false } };
    expect(dry.body.data).toEqual({
      name: 'subtitle-to-seo',
      type: 'post',
      matched: 2,
      changed: 1,
      applied: false,
      sample: [{ documentId: a.documentId, path: a.path, locale: a.locale, before: a.frontmatter, after }],
    });
    expect(await documentRow(t, a.documentId)).toMatchObject({ draftFrontmatter: a.frontmatter, draftRevision: 1 });
    expect(await eventsOf(t, where)).toEqual(eventsBefore);
    expect(await migrationRows(t, where)).toEqual([]);

    const applied = await migrate(t, where, body);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data).toEqual({ ...dry.body.data, applied: true });
    expect(await documentRow(t, a.documentId)).toMatchObject({ draftFrontmatter: after, draftRevision: 2 });
    expect(await documentRow(t, b.documentId)).toMatchObject({ draftFrontmatter: b.frontmatter, draftRevision: 1 });
    expect(await migrationRows(t, where)).toEqual([
      // Stored as validated: defaults of the body schema filled in.
      {
        name: 'subtitle-to-seo',
        type: 'post',
        matched: 2,
        changed: 1,
        operations: [{ ...RENAME_SUBTITLE[0], overwrite: false }],
      },
    ]);
  });

  it('changes the draft only: published versions stay immutable, the draft has unpublished changes', async () => {
    const where = await newProject(t);
    const doc = await createDocument(
      t,
      { frontmatter: { title: 'Published', slug: 'published', subtitle: 'Old' }, body: 'Body text' },
      where,
    );
    await publish(t, where, doc.documentId);
    const response = await migrate(t, where, { name: 'm1', type: 'post', operations: RENAME_SUBTITLE });
    expect(response.status, response.text).toBe(200);

    expect(await documentRow(t, doc.documentId)).toEqual({
      draftFrontmatter: { ...without(doc.frontmatter, 'subtitle'), seo: { description: 'Old', noindex: false } },
      publishedFrontmatter: doc.frontmatter,
      draftRevision: 2,
      version: 1,
      publishedVersion: 1,
      hasUnpublishedChanges: true,
      draftBody: 'Body text',
    });
    const published = await t.request('GET', `/api/v1/content/${doc.documentId}`, where);
    expect(published.body.data.frontmatter).toEqual(doc.frontmatter);
    const versions = await t.db.query('select frontmatter from document_versions where document_id = $1', [
      doc.documentId,
    ]);
    expect(versions.rows).toEqual([{ frontmatter: doc.frontmatter }]);
  });

  it('applies rename, copy, set (default) and remove in order, through nested paths', async () => {
    const where = await newProject(t);
    const full = await createPost(t, where, {
      title: 'Full',
      readingMinutes: 12,
      subtitle: 'Sub',
      legacy: { flag: true, keep: 1 },
    });
    const bare = await createPost(t, where, { title: 'Bare' });
    const operations = [
      { op: 'rename', from: 'subtitle', to: 'seo.description' },
      { op: 'copy', from: 'title', to: 'meta.og.title' },
      { op: 'set', field: 'readingMinutes', value: 5, onlyIfMissing: true },
      { op: 'set', field: 'seo.noindex', value: true },
      { op: 'remove', field: 'legacy.flag' },
    ];
    const response = await migrate(t, where, { name: 'nested', type: 'post', operations });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ matched: 2, changed: 2, applied: true });

    expect((await documentRow(t, full.documentId))?.draftFrontmatter).toEqual({
      ...without(full.frontmatter, 'subtitle'),
      readingMinutes: 12,
      seo: { description: 'Sub', noindex: true },
      meta: { og: { title: 'Full' } },
      legacy: { keep: 1 },
    });
    expect((await documentRow(t, bare.documentId))?.draftFrontmatter).toEqual({
      ...bare.frontmatter,
      readingMinutes: 5,
      seo: { noindex: true },
      meta: { og: { title: 'Bare' } },
    });
  });

  it('records one content.updated per changed document, as a draft update does', async () => {
    const where = await newProject(t);
    const changed = await createPost(t, where, { subtitle: 'x' });
    const unchanged = await createPost(t, where);
    const before = (await eventsOf(t, where)).length;
    const response = await migrate(t, where, { name: 'events', type: 'post', operations: RENAME_SUBTITLE });
    expect(response.status, response.text).toBe(200);

    const events = (await eventsOf(t, where)).slice(before);
    expect(events.map((event) => [event.type, event.payload.document.documentId])).toEqual([
      ['content.updated', changed.documentId],
    ]);
    expect(events[0]?.payload).toMatchObject({
      event: 'content.updated',
      project: where.project,
      environment: 'production',
      document: {
        documentId: changed.documentId,
        translationGroupId: changed.translationGroupId,
        type: 'post',
        path: changed.path,
        locale: changed.locale,
        format: 'md',
        version: 0,
      },
      user: { id: changed.createdBy },
    });
    expect(events.some((event) => event.payload.document.documentId === unchanged.documentId)).toBe(false);
  });

  it('matches live documents of the type only, and bounds the sample to the first five by path', async () => {
    const where = await newProject(t);
    const posts = [];
    for (let i = 0; i < 7; i += 1) posts.push(await createPost(t, where, { subtitle: `s${i}` }));
    const deleted = posts[6];
    expect((await t.request('DELETE', `/api/v1/content/${deleted.documentId}`, where)).status).toBe(200);
    const author = await createDocument(
      t,
      { type: 'author', path: 'authors/ada', frontmatter: { name: 'Ada', subtitle: 'not a post' } },
      where,
    );

    const response = await migrate(t, where, { name: 'sample', type: 'post', operations: RENAME_SUBTITLE });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ matched: 6, changed: 6, applied: true });
    const expectedPaths = posts
      .slice(0, 6)
      .map((post) => post.path)
      .sort()
      .slice(0, 5);
    expect(response.body.data.sample.map((item: { path: string }) => item.path)).toEqual(expectedPaths);
    expect(await documentRow(t, deleted.documentId)).toMatchObject({ draftFrontmatter: deleted.frontmatter });
    expect(await documentRow(t, author.documentId)).toMatchObject({ draftFrontmatter: author.frontmatter });
  });

  it('applies a migration that changes nothing, and records it', async () => {
    const where = await newProject(t);
    await createPost(t, where);
    const response = await migrate(t, where, {
      name: 'noop',
      type: 'post',
      operations: [{ op: 'remove', field: 'nothing.here' }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual({
      name: 'noop',
      type: 'post',
      matched: 1,
      changed: 0,
      applied: true,
      sample: [],
    });
    expect(await migrationRows(t, where)).toMatchObject([{ name: 'noop', matched: 1, changed: 0 }]);
  });
});
