import { defineConfig, defineType, field, resolveConfigSchema, schemaSyncBody } from '@cms/core';
import { CmsError, createPreviewClient, isCmsError } from '@cms/sdk';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { config, post, type SdkHarness, startSdkServer } from './sdk-fixtures.js';

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkServer();
});
afterAll(() => harness.server.close());

describe('content through the SDK', () => {
  it('writes, publishes and reads a document with a resolved reference', async () => {
    const cms = harness.client();
    const writer = await cms.content.create({ type: 'author', path: 'ada', frontmatter: { name: 'Ada' } });
    const draft = await cms.content.create({
      type: post,
      path: 'hello',
      frontmatter: { title: 'Hello', author: writer.documentId, tags: ['a'] },
      body: '# Hello',
    });
    expect(draft).toMatchObject({ type: 'post', path: 'hello', draftRevision: 1, publishedVersion: null });
    await cms.content.publish(writer.documentId);
    const published = await cms.content.publish(draft.documentId, { changeSummary: 'first' });
    expect(published).toMatchObject({ documentId: draft.documentId, version: 1, publishedVersion: 1 });

    const read = await cms.content.get<typeof post, 'author'>(draft.documentId, { resolve: ['author'] });
    expectTypeOf(read.frontmatter.title).toEqualTypeOf<string>();
    expect(read.frontmatter.author?.frontmatter).toEqual({ name: 'Ada' });

    const page = await cms.content.list({ type: post, resolve: ['author'] });
    expectTypeOf(page.data[0]?.frontmatter.author).toEqualTypeOf<
      { documentId: string; type: string; path: string; frontmatter: { name: string } } | null | undefined
    >();
    expect(page.data.map((doc) => doc.frontmatter.author?.documentId)).toEqual([writer.documentId]);
    expect(page.pagination).toMatchObject({ total: 1, offset: 0, hasMore: false });

    const byName = await cms.content.list({ type: 'post' });
    expectTypeOf(byName.data[0]?.frontmatter.title).toEqualTypeOf<string | undefined>();
  });

  it('updates with the revision, versions, restores a version, deletes, restores and duplicates', async () => {
    const cms = harness.client();
    const doc = await cms.content.create({ type: 'post', path: 'cycle', frontmatter: { title: 'One' } });
    await cms.content.publish(doc.documentId);
    const updated = await cms.content.update(doc.documentId, {
      frontmatter: { title: 'Two' },
      body: 'b',
      draftRevision: doc.draftRevision,
    });
    expect(updated).toMatchObject({ draftRevision: 2, hasUnpublishedChanges: true });
    await cms.content.publish(doc.documentId);

    const conflict = await cms.content
      .update(doc.documentId, { frontmatter: { title: 'x' }, body: '', draftRevision: 1 })
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(CmsError);
    expect(conflict).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((conflict as CmsError).requestId).toEqual(expect.any(String));

    const versions = await cms.content.versions(doc.documentId);
    expect(versions.data.map((entry) => entry.version)).toEqual([2, 1]);
    expect(await cms.content.getVersion(doc.documentId, 1)).toMatchObject({
      version: 1,
      frontmatter: { title: 'One' },
    });
    expect(await cms.content.restoreVersion(doc.documentId, 1)).toMatchObject({ restoredFromVersion: 1 });

    expect(await cms.content.unpublish(doc.documentId)).toMatchObject({ publishedVersion: null });
    expect(await cms.content.delete(doc.documentId)).toMatchObject({ isDeleted: true });
    expect(await cms.content.restore(doc.documentId)).toMatchObject({ isDeleted: false });
    const copy = await cms.content.duplicate(doc.documentId);
    expect(copy.path).toBe('cycle-copy');
    expect(await cms.content.variants(doc.documentId)).toHaveLength(1);
    const overview = await cms.content.overview({ type: ['post'] });
    expect(overview.counts[0]).toMatchObject({ type: 'post' });
  });

  it('iterates across pages lazily', async () => {
    const cms = harness.client();
    for (let i = 0; i < 7; i += 1) {
      await cms.content.create({ type: 'post', path: `many/${i}`, frontmatter: { title: `Post ${i}`, slug: `s${i}` } });
    }
    const seen: string[] = [];
    for await (const doc of cms.content.iterate({ type: 'post', draft: true, limit: 3, sort: 'path', order: 'asc' })) {
      if (doc.path.startsWith('many/')) seen.push(doc.path);
    }
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `many/${i}`));
  });

  it('lists documents without their text: no body, no source, the fields and states kept', async () => {
    const cms = harness.client();
    const body = 'A long body.\n'.repeat(500);
    const created = await cms.content.create({
      type: 'post',
      path: 'summaries/one',
      frontmatter: { title: 'Summaries', slug: 'summaries' },
      body,
    });
    const full = await cms.content.list({ type: 'post', draft: true, path: 'summaries/one' });
    expect(full.data[0]?.body).toBe(body);
    const page = await cms.content.listSummaries({ type: 'post', draft: true, path: 'summaries/one' });
    expect(page.pagination.total).toBe(1);
    const [summary] = page.data;
    expect(summary).toMatchObject({ documentId: created.documentId, frontmatter: { title: 'Summaries' } });
    expect(summary && 'body' in summary).toBe(false);
    expect(summary && 'source' in summary).toBe(false);
    expectTypeOf(page.data[0]).not.toHaveProperty('body');
  });

  it('sends the config hash, and with fetch refreshes it once on SCHEMA_HASH_MISMATCH', async () => {
    const hash = resolveConfigSchema(config, 'production').effectiveSchemaHash;
    const fixed = harness.client({ schemaHash: hash });
    await expect(
      fixed.content.create({ type: 'post', path: 'hash/ok', frontmatter: { title: 'ok' } }),
    ).resolves.toBeDefined();
    const stale = harness.client({ schemaHash: 'f'.repeat(64) });
    await expect(
      stale.content.create({ type: 'post', path: 'hash/no', frontmatter: { title: 'no' } }),
    ).rejects.toMatchObject({
      code: 'SCHEMA_HASH_MISMATCH',
      status: 409,
    });
    const fetching = harness.client();
    await fetching.content.create({ type: 'post', path: 'hash/a', frontmatter: { title: 'a' } });
    // The schema changes under the client: its cached hash goes stale, and the write still lands.
    const note = defineType({ name: 'note', fields: { text: field.string() } });
    await harness.client().schema.sync(schemaSyncBody(defineConfig({ types: [...config.types, note] })));
    await expect(
      fetching.content.create({ type: 'post', path: 'hash/b', frontmatter: { title: 'b' } }),
    ).resolves.toMatchObject({
      path: 'hash/b',
    });
  });

  it('answers typed errors: NOT_FOUND, INVALID_INPUT with fields, UNAUTHORIZED', async () => {
    const cms = harness.client();
    const missing = await cms.content.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
    expect(isCmsError(missing, 'NOT_FOUND')).toBe(true);
    const invalid = await cms.content
      .create({ type: 'post', path: 'bad', frontmatter: {} })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ code: 'INVALID_INPUT', status: 400 });
    expect((invalid as CmsError).details.fields).toHaveProperty(['frontmatter.title']);
    const anonymous = harness.client({ apiKey: 'cms_key_live_nope' });
    await expect(anonymous.me.get()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('mints a preview token and reads the draft with the preview client', async () => {
    const cms = harness.client();
    const doc = await cms.content.create({ type: 'post', path: 'preview/me', frontmatter: { title: 'Draft' } });
    const { token, expiresAt } = await cms.content.previewToken(doc.documentId, {
      previewUrl: 'https://site.test/preview',
    });
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const preview = createPreviewClient({ baseUrl: harness.server.url, token });
    expect(preview.claims).toMatchObject({ documentId: doc.documentId, project: 'default', environment: 'production' });
    expect(preview.expired).toBe(false);
    const draft = await preview.get<typeof post>();
    expect(draft.frontmatter.title).toBe('Draft');
  });

  it('previews a release with a release preview token: the document and lists as the release would publish them', async () => {
    const cms = harness.client();
    const coming = await cms.content.create({ type: 'post', path: 'release/coming', frontmatter: { title: 'Coming' } });
    const release = await cms.releases.create({ title: 'SDK preview' });
    await cms.releases.addItems(release.id, [{ documentId: coming.documentId, action: 'publish' }]);
    const listed = await cms.content.list({ type: 'post', release: release.id, path: 'release/coming' });
    expect(listed.data.map((d) => d.frontmatter.title)).toEqual(['Coming']);

    const { token } = await cms.content.previewToken(coming.documentId, { release: release.id });
    const preview = createPreviewClient({ baseUrl: harness.server.url, token });
    expect(preview.claims.release).toBe(release.id);
    expect((await preview.get()).frontmatter.title).toBe('Coming');
    const page = await preview.list({ type: 'post', path: 'release/coming' });
    expect(page.data.map((d) => d.documentId)).toEqual([coming.documentId]);
    // A plain preview token reads one draft and does not list.
    const plain = createPreviewClient({
      baseUrl: harness.server.url,
      token: (await cms.content.previewToken(coming.documentId)).token,
    });
    expect(() => plain.list({ type: 'post' })).toThrow(TypeError);
  });
});
