import { computeSchemaHash } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  BLOG_SCHEMA_HASH,
  createDocument,
  createDocumentRequest,
  postFrontmatter,
  syncSchema,
  uniquePath,
} from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await syncSchema(t);
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /content', () => {
  it('creates a draft-only document with every field of the document response', async () => {
    const path = uniquePath();
    const response = await createDocumentRequest(t, {
      type: 'post',
      path,
      frontmatter: postFrontmatter(),
      body: '# Hi',
    });
    expect(response.status).toBe(201);
    const doc = response.body.data;
    expect(Object.keys(doc).sort()).toEqual(
      [
        'documentId',
        'translationGroupId',
        'project',
        'environment',
        'path',
        'type',
        'locale',
        'format',
        'isDeleted',
        'hasUnpublishedChanges',
        'version',
        'publishedVersion',
        'draftRevision',
        'frontmatter',
        'body',
        'resolveErrors',
        'createdBy',
        'updatedBy',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(doc).toMatchObject({
      project: 'default',
      environment: 'production',
      path,
      type: 'post',
      locale: '__cms_default__',
      format: 'md',
      isDeleted: false,
      hasUnpublishedChanges: true,
      version: 0,
      publishedVersion: null,
      draftRevision: 1,
      body: '# Hi',
      resolveErrors: {},
    });
    expect(doc.documentId).toMatch(UUID);
    expect(doc.translationGroupId).toMatch(UUID);
    expect(doc.translationGroupId).not.toBe(doc.documentId);
    expect(new Date(doc.createdAt).toISOString()).toBe(doc.createdAt);
    expect(doc.updatedAt).toBe(doc.createdAt);
    expect(doc.createdBy).toBe(doc.updatedBy);
  });

  it('applies frontmatter defaults, keeps unknown properties, defaults body to "" and accepts mdx', async () => {
    const doc = await createDocument(t, { format: 'mdx', frontmatter: postFrontmatter({ extra: { any: 'thing' } }) });
    expect(doc.format).toBe('mdx');
    expect(doc.body).toBe('');
    expect(doc.frontmatter).toEqual({
      title: 'Hello world',
      slug: 'hello-world',
      tags: [],
      status: 'draft',
      extra: { any: 'thing' },
    });
  });

  it('refuses a format other than md or mdx and unknown body fields', async () => {
    const format = await createDocumentRequest(t, {
      type: 'post',
      path: uniquePath(),
      format: 'html',
      frontmatter: postFrontmatter(),
    });
    expect(format.status).toBe(400);
    expect(format.body.error.details.fields).toHaveProperty(['body.format']);
    const extra = await createDocumentRequest(t, {
      type: 'post',
      path: uniquePath(),
      frontmatter: postFrontmatter(),
      draft: 1,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details.fields).toHaveProperty(['body.draft']);
    const missing = await createDocumentRequest(t, { type: 'post' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error.details.fields)).toEqual(
      expect.arrayContaining(['body.path', 'body.frontmatter']),
    );
  });

  it.each([
    ['', 'must be 1 to 512'],
    ['x'.repeat(513), 'must be 1 to 512'],
    ['/posts/a', 'leading or trailing slash'],
    ['posts/a/', 'leading or trailing slash'],
    ['posts//a', 'empty'],
    ['posts/./a', '"."'],
    ['posts/../a', '".."'],
    ['posts\\a', 'backslash'],
    ['posts/a\u0007b', 'control characters'],
    ['posts/a\nb', 'control characters'],
    ['posts/hello.md', 'file extension'],
    ['posts/hello.MDX', 'file extension'],
  ])('refuses the path %j with INVALID_INPUT on field path', async (path, message) => {
    const response = await createDocumentRequest(t, { type: 'post', path, frontmatter: postFrontmatter() });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(response.body.error.details.fields.path).toContain(message);
  });

  it('accepts paths with dots, spaces and unicode inside segments', async () => {
    for (const path of ['posts/v1.2-release', 'posts/größe', 'docs/a b/c', 'x'.repeat(512)]) {
      const response = await createDocumentRequest(t, { type: 'post', path, frontmatter: postFrontmatter() });
      expect(response.status, path).toBe(201);
    }
  });

  it('reports path, locale and frontmatter problems together', async () => {
    const response = await createDocumentRequest(t, { type: 'page', path: '/bad', frontmatter: {} });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.details.fields).sort()).toEqual(['frontmatter.title', 'locale', 'path']);
  });

  it('answers SCHEMA_NOT_FOUND for a type not in the registry', async () => {
    const response = await createDocumentRequest(t, { type: 'recipe', path: uniquePath(), frontmatter: {} });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('SCHEMA_NOT_FOUND');
  });

  it('answers CONTENT_PATH_CONFLICT for a taken path and locale, and frees the path of a deleted document', async () => {
    const path = uniquePath();
    const first = await createDocument(t, { path });
    const again = await createDocumentRequest(t, { type: 'post', path, frontmatter: postFrontmatter() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONTENT_PATH_CONFLICT');
    expect(again.body.error.message).toContain(path);
    const otherType = await createDocumentRequest(t, { type: 'author', path, frontmatter: { name: 'A' } });
    expect(otherType.status).toBe(409);
    await t.request('DELETE', `/api/v1/content/${first.documentId}`);
    const reused = await createDocument(t, { path });
    expect(reused.documentId).not.toBe(first.documentId);
  });

  it('lets exactly one of concurrent creates at one path win', async () => {
    const path = uniquePath();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => createDocumentRequest(t, { type: 'post', path, frontmatter: postFrontmatter() })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'CONTENT_PATH_CONFLICT')).toBe(
      true,
    );
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
  });
});

describe('X-CMS-Schema-Hash', () => {
  it('is required: a missing header is SCHEMA_HASH_MISMATCH with the server hash', async () => {
    const response = await t.request('POST', '/api/v1/content', {
      body: { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('SCHEMA_HASH_MISMATCH');
    expect(response.body.error.details).toEqual({ schemaHash: BLOG_SCHEMA_HASH });
  });

  it('must equal the server hash', async () => {
    const response = await createDocumentRequest(
      t,
      { type: 'post', path: uniquePath(), frontmatter: postFrontmatter() },
      { headers: { 'x-cms-schema-hash': computeSchemaHash({ types: [] }) } },
    );
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('SCHEMA_HASH_MISMATCH');
    expect(response.body.error.details.schemaHash).toBe(BLOG_SCHEMA_HASH);
  });
});

describe('locales and translation groups', () => {
  it('requires a locale for a localized type and stores it in canonical form', async () => {
    const missing = await createDocumentRequest(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      frontmatter: { title: 'T' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields.locale).toMatch(/required/);
    const doc = await createDocument(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'en-us',
      frontmatter: { title: 'T' },
    });
    expect(doc.locale).toBe('en-US');
  });

  it.each(['en_US', 'e', '123', '__cms_default__', 'x'.repeat(40)])(
    'refuses the locale %j for a localized type',
    async (locale) => {
      const response = await createDocumentRequest(t, {
        type: 'page',
        path: uniquePath('pages/p'),
        locale,
        frontmatter: { title: 'T' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.details.fields).toHaveProperty('locale');
    },
  );

  it('takes the locale of a localized type from X-CMS-Locale when the body names none; the body wins', async () => {
    const fromHeader = await createDocument(
      t,
      { type: 'page', path: uniquePath('pages/p'), frontmatter: { title: 'T' } },
      { headers: { 'x-cms-locale': 'fr-ca' } },
    );
    expect(fromHeader.locale).toBe('fr-CA');
    const bodyWins = await createDocument(
      t,
      { type: 'page', path: uniquePath('pages/p'), locale: 'it', frontmatter: { title: 'T' } },
      { headers: { 'x-cms-locale': 'fr' } },
    );
    expect(bodyWins.locale).toBe('it');
    const nonLocalized = await createDocument(t, {}, { headers: { 'x-cms-locale': 'fr' } });
    expect(nonLocalized.locale).toBe('__cms_default__');
  });

  it('gives non-localized types __cms_default__ and refuses another locale for them', async () => {
    const explicit = await createDocument(t, { locale: '__cms_default__' });
    expect(explicit.locale).toBe('__cms_default__');
    const other = await createDocumentRequest(t, {
      type: 'post',
      path: uniquePath(),
      locale: 'en',
      frontmatter: postFrontmatter(),
    });
    expect(other.status).toBe(400);
    expect(other.body.error.details.fields.locale).toMatch(/not localized/);
  });

  it('adds a variant to an existing translation group; the same locale twice is CONTENT_PATH_CONFLICT', async () => {
    const en = await createDocument(t, {
      type: 'page',
      path: 'pages/about',
      locale: 'en',
      frontmatter: { title: 'About' },
    });
    const de = await createDocument(t, {
      type: 'page',
      path: 'pages/ueber-uns',
      locale: 'de',
      frontmatter: { title: 'Über uns' },
      translationGroupId: en.translationGroupId.toUpperCase(),
    });
    expect(de.translationGroupId).toBe(en.translationGroupId);
    const again = await createDocumentRequest(t, {
      type: 'page',
      path: 'pages/ueber-uns-2',
      locale: 'de',
      frontmatter: { title: 'Nochmal' },
      translationGroupId: en.translationGroupId,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONTENT_PATH_CONFLICT');
    const samePathOtherLocale = await createDocument(t, {
      type: 'page',
      path: 'pages/about',
      locale: 'fr',
      frontmatter: { title: 'À propos' },
    });
    expect(samePathOtherLocale.locale).toBe('fr');
  });

  it('refuses a translation group that does not exist here or holds another type', async () => {
    const unknown = await createDocumentRequest(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'en',
      frontmatter: { title: 'T' },
      translationGroupId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields).toHaveProperty('translationGroupId');
    const post = await createDocument(t);
    const otherType = await createDocumentRequest(t, {
      type: 'page',
      path: uniquePath('pages/p'),
      locale: 'en',
      frontmatter: { title: 'T' },
      translationGroupId: post.translationGroupId,
    });
    expect(otherType.status).toBe(400);
    expect(otherType.body.error.details.fields.translationGroupId).toMatch(/same type/);
  });
});
