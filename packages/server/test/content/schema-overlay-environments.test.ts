import { randomBytes } from 'node:crypto';
import { computeSchemaHash, type ResolvedSchema, type SchemaType } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { BLOG_SCHEMA, BLOG_SCHEMA_HASH, field, hashHeader, postFrontmatter, syncBody } from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const note: SchemaType = { name: 'note', directory: 'notes', localized: false, fields: { text: field('string') } };
/** `production` (blog schema) extended by `preview`, whose layer adds `note`. */
const PREVIEW: ResolvedSchema = { types: [...BLOG_SCHEMA.types, note] };
const PREVIEW_HASH = computeSchemaHash(PREVIEW);

async function sync(project: string, environment: string, schema: ResolvedSchema) {
  const response = await t.request('PUT', '/api/v1/schema/sync', { project, environment, body: syncBody(schema) });
  expect(response.status, response.text).toBe(200);
}

async function createEnvironment(project: string, body: Record<string, unknown>) {
  const created = await t.request('POST', '/api/v1/environments', { project, environment: null, body });
  expect(created.status, created.text).toBe(201);
}

async function setUp(): Promise<string> {
  const project = `overlay-env-${randomBytes(4).toString('hex')}`;
  expect((await t.request('POST', '/api/v1/projects', { body: { slug: project } })).status).toBe(201);
  await createEnvironment(project, { name: 'preview', extends: 'production' });
  await sync(project, 'production', BLOG_SCHEMA);
  await sync(project, 'preview', { types: [note] });
  return project;
}

async function hashOf(project: string, environment: string): Promise<string> {
  return (await t.request('GET', '/api/v1/schema', { project, environment })).body.data.schemaHash;
}

async function createPublished(
  project: string,
  environment: string,
  hash: string,
  body: Record<string, unknown>,
): Promise<string> {
  const created = await t.request('POST', '/api/v1/content', { project, environment, headers: hashHeader(hash), body });
  expect(created.status, created.text).toBe(201);
  const id = created.body.data.documentId;
  const published = await t.request('POST', `/api/v1/content/${id}/publish`, { project, environment, body: {} });
  expect(published.status, published.text).toBe(200);
  return id;
}

function promote(project: string, source: string, target: string) {
  return t.request('POST', `/api/v1/environments/${source}/promote`, {
    project,
    environment: null,
    body: { target, dryRun: true },
  });
}

describe('schema overlays and environment clones', () => {
  it("gives a clone the source's effective schema, whatever the clone extends", async () => {
    const project = await setUp();
    await createPublished(project, 'preview', PREVIEW_HASH, { type: 'note', path: 'notes/a', frontmatter: {} });
    await createEnvironment(project, { name: 'copy', cloneFrom: 'preview' });
    await createEnvironment(project, { name: 'overlaid', cloneFrom: 'preview', extends: 'production' });
    expect(await hashOf(project, 'copy')).toBe(PREVIEW_HASH);
    expect(await hashOf(project, 'overlaid')).toBe(PREVIEW_HASH);

    // A later base sync reaches the clone that extends the base (fields only in the base are
    // merged in), never the one that does not.
    const featured = field('boolean');
    const post = BLOG_SCHEMA.types[1] as SchemaType;
    const base: ResolvedSchema = {
      types: BLOG_SCHEMA.types.map((type) =>
        type === post ? { ...post, fields: { ...post.fields, featured } } : type,
      ),
    };
    await sync(project, 'production', base);
    expect(await hashOf(project, 'copy')).toBe(PREVIEW_HASH);
    expect(await hashOf(project, 'overlaid')).toBe(computeSchemaHash({ types: [...base.types, note] }));
  });
});

describe('schema overlays and promotion', () => {
  it('compares the effective schemas of source and target', async () => {
    const project = await setUp();
    await createEnvironment(project, { name: 'mirror', extends: 'production' });
    await createEnvironment(project, { name: 'copy', cloneFrom: 'preview' });
    const noteId = await createPublished(project, 'preview', PREVIEW_HASH, {
      type: 'note',
      path: 'notes/a',
      frontmatter: { text: 'x' },
    });
    const postId = await createPublished(project, 'production', BLOG_SCHEMA_HASH, {
      type: 'post',
      path: 'posts/a',
      frontmatter: postFrontmatter(),
    });

    // preview's layer adds a type: its schema in force differs from production's.
    const toPreview = await promote(project, 'production', 'preview');
    expect(toPreview.status, toPreview.text).toBe(200);
    expect(toPreview.body.data.plan).toEqual([
      expect.objectContaining({ documentId: postId, action: 'conflict', reason: expect.stringContaining('schema') }),
    ]);
    // mirror has no layer: it inherits production's schema, hash included.
    const toMirror = await promote(project, 'production', 'mirror');
    expect(toMirror.body.data.plan).toEqual([expect.objectContaining({ documentId: postId, action: 'create' })]);
    // copy holds preview's merged schema as its own.
    const toCopy = await promote(project, 'preview', 'copy');
    expect(toCopy.body.data.plan).toEqual([expect.objectContaining({ documentId: noteId, action: 'create' })]);
  });
});
