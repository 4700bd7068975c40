import { randomBytes } from 'node:crypto';
import { computeSchemaHash, type ResolvedSchema, type SchemaType } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { BLOG_SCHEMA, BLOG_SCHEMA_HASH, field, hashHeader, postFrontmatter, syncBody, uniquePath } from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const [author, post, page] = BLOG_SCHEMA.types as [SchemaType, SchemaType, SchemaType];
const note: SchemaType = { name: 'note', directory: 'notes', localized: false, fields: { text: field('string') } };

/** A fresh project whose `production` has the blog schema, with `chain` environments each extending the one before. */
async function projectWithChain(...chain: string[]): Promise<string> {
  const project = `overlay-${randomBytes(4).toString('hex')}`;
  expect((await t.request('POST', '/api/v1/projects', { body: { slug: project } })).status).toBe(201);
  let base = 'production';
  for (const name of chain) {
    const created = await t.request('POST', '/api/v1/environments', {
      project,
      environment: null,
      body: { name, extends: base },
    });
    expect(created.status, created.text).toBe(201);
    base = name;
  }
  await sync(project, 'production', BLOG_SCHEMA);
  return project;
}

async function sync(project: string, environment: string, schema: ResolvedSchema) {
  const response = await t.request('PUT', '/api/v1/schema/sync', { project, environment, body: syncBody(schema) });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

async function schemaOf(project: string, environment: string): Promise<{ types: SchemaType[]; schemaHash: string }> {
  const response = await t.request('GET', '/api/v1/schema', { project, environment });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

function createPost(project: string, environment: string, hash: string, frontmatter: Record<string, unknown>) {
  return t.request('POST', '/api/v1/content', {
    project,
    environment,
    headers: hashHeader(hash),
    body: { type: 'post', path: uniquePath(), frontmatter },
  });
}

async function history(project: string, environment: string): Promise<Array<{ hash: string; schema: unknown }>> {
  const result = await t.db.query<{ hash: string; schema: unknown }>(
    `select h.schema_hash as hash, h.resolved_schema as schema from schema_sync_history h
     join environments e on e.id = h.environment_id join projects p on p.id = e.project_id
     where p.slug = $1 and e.name = $2 order by h.synced_at`,
    [project, environment],
  );
  return result.rows;
}

/** `post` of the blog schema with some fields replaced or added. */
function postWith(fields: SchemaType['fields']): SchemaType {
  return { ...post, fields: { ...post.fields, ...fields } };
}

describe('schema overlays: a synced schema is a layer over the base', () => {
  it('adds a type only the layer has, and answers the merged schema and its hash', async () => {
    const project = await projectWithChain('preview');
    const layer: ResolvedSchema = { types: [note] };
    const expected: ResolvedSchema = { types: [author, post, page, note] };
    const synced = await sync(project, 'preview', layer);
    expect(synced).toMatchObject({
      synced: true,
      schemaHash: computeSchemaHash(expected),
      typesCount: 4,
      types: ['author', 'post', 'page', 'note'],
    });
    expect(await schemaOf(project, 'preview')).toEqual({ ...expected, schemaHash: computeSchemaHash(expected) });
    const one = await t.request('GET', '/api/v1/schema/post', { project, environment: 'preview' });
    expect(one.body.data).toEqual({ ...post, schemaHash: computeSchemaHash(expected) });
    // The base keeps its own schema; the history of the child holds the layer as synced.
    expect(await schemaOf(project, 'production')).toEqual({ ...BLOG_SCHEMA, schemaHash: BLOG_SCHEMA_HASH });
    expect(await history(project, 'preview')).toEqual([{ hash: computeSchemaHash(layer), schema: layer }]);
  });

  it('modifies and adds fields of a base type; the base is unaffected', async () => {
    const project = await projectWithChain('preview');
    const layer: ResolvedSchema = {
      types: [
        {
          ...post,
          fields: {
            readingMinutes: field('number', { required: true }),
            subtitle: field('string', { required: true }),
          },
        },
      ],
    };
    const merged = postWith({
      readingMinutes: field('number', { required: true }),
      subtitle: field('string', { required: true }),
    });
    const hash = (await sync(project, 'preview', layer)).schemaHash;
    const preview = await schemaOf(project, 'preview');
    expect(preview.types).toEqual([author, merged, page]);
    expect(hash).toBe(computeSchemaHash({ types: [author, merged, page] }));

    const missing = await createPost(project, 'preview', hash, postFrontmatter({ readingMinutes: 3 }));
    expect(missing.status, missing.text).toBe(400);
    expect(Object.keys(missing.body.error.details.fields)).toEqual(['frontmatter.subtitle']);
    const complete = await createPost(project, 'preview', hash, postFrontmatter({ readingMinutes: 3, subtitle: 'x' }));
    expect(complete.status, complete.text).toBe(201);
    // The base's post neither needs nor knows the subtitle, and its hash is still the blog schema's.
    const inBase = await createPost(project, 'production', BLOG_SCHEMA_HASH, postFrontmatter());
    expect(inBase.status, inBase.text).toBe(201);
  });

  it("replaces a nested object field as a whole, and lets a layer change a field's kind and a type's settings", async () => {
    const project = await projectWithChain('preview');
    const seo = field('object', { fields: { canonical: field('string', { checks: [{ type: 'url' }] }) } });
    const layer: ResolvedSchema = {
      types: [
        { ...post, fields: { seo, readingMinutes: field('string') } },
        { ...page, directory: 'site', localized: false, fields: {} },
      ],
    };
    await sync(project, 'preview', layer);
    const preview = await schemaOf(project, 'preview');
    expect(preview.types[1]?.fields.seo).toEqual(seo);
    expect(preview.types[1]?.fields.readingMinutes?.kind).toBe('string');
    expect(preview.types[2]).toEqual({ ...page, directory: 'site', localized: false });
    const write = await createPost(project, 'preview', preview.schemaHash, postFrontmatter({ readingMinutes: 'five' }));
    expect(write.status, write.text).toBe(201);
  });

  it('lets a layer reference types of the base, but no type unknown to both', async () => {
    const project = await projectWithChain('preview');
    const cites = field('reference', { nullable: true, reference: { targetType: 'author' } });
    await sync(project, 'preview', { types: [{ ...note, fields: { cites } }] });
    const unknown = await t.request('PUT', '/api/v1/schema/sync', {
      project,
      environment: 'preview',
      body: syncBody({ types: [{ ...note, fields: { cites: { ...cites, reference: { targetType: 'nope' } } } }] }),
    });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.error.details.fields)).toEqual([
      'resolvedSchema.types[0].fields.cites.reference.targetType',
    ]);
  });
  it('refuses a layer whose merge with the base breaks a limit of a schema', async () => {
    const project = await projectWithChain('preview');
    const many = (prefix: string, n: number): SchemaType[] =>
      Array.from({ length: n }, (_, i) => ({
        name: `${prefix}${i}`,
        directory: `${prefix}${i}`,
        localized: false,
        fields: {},
      }));
    await sync(project, 'production', { types: many('b', 150) });
    const layer = await t.request('PUT', '/api/v1/schema/sync', {
      project,
      environment: 'preview',
      body: syncBody({ types: many('l', 60) }),
    });
    expect(layer.status, layer.text).toBe(400);
    expect(layer.body.error.details.fields.resolvedSchema).toContain(
      'merged with the schema of the environment it extends',
    );
    expect(await history(project, 'preview')).toEqual([]);
  });
});

describe('schema overlays: a base sync reaches the environments extending it', () => {
  it('changes the effective schema and hash of the child; writes with the old hash conflict', async () => {
    const project = await projectWithChain('preview');
    const subtitle = field('string');
    const before = (await sync(project, 'preview', { types: [{ ...post, fields: { subtitle } }] })).schemaHash;
    // Cached in this process now: the base sync below must drop the child's entry too.
    expect((await schemaOf(project, 'preview')).schemaHash).toBe(before);
    const featured = field('boolean', { required: true });
    await sync(project, 'production', { types: [author, postWith({ featured }), page] });

    const preview = await schemaOf(project, 'preview');
    const expected: ResolvedSchema = { types: [author, postWith({ featured, subtitle }), page] };
    expect(preview).toEqual({ ...expected, schemaHash: computeSchemaHash(expected) });
    expect(preview.schemaHash).not.toBe(before);

    const stale = await createPost(project, 'preview', before, postFrontmatter({ featured: true }));
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'SCHEMA_HASH_MISMATCH',
      details: { schemaHash: preview.schemaHash },
    });
    // The new base field is validated in the child too.
    const noFeatured = await createPost(project, 'preview', preview.schemaHash, postFrontmatter());
    expect(noFeatured.status, noFeatured.text).toBe(400);
    expect(Object.keys(noFeatured.body.error.details.fields)).toEqual(['frontmatter.featured']);
    const ok = await createPost(project, 'preview', preview.schemaHash, postFrontmatter({ featured: false }));
    expect(ok.status, ok.text).toBe(201);
  });

  it('merges along a two-level chain, the nearest layer winning, and a root sync reaches the leaf', async () => {
    const project = await projectWithChain('staging', 'preview');
    await sync(project, 'staging', {
      types: [{ ...post, fields: { subtitle: field('string'), tier: field('number') } }],
    });
    await sync(project, 'preview', {
      types: [{ ...post, fields: { subtitle: field('string', { required: true }) } }, note],
    });
    const leaf: ResolvedSchema = {
      types: [author, postWith({ subtitle: field('string', { required: true }), tier: field('number') }), page, note],
    };
    const before = await schemaOf(project, 'preview');
    expect(before).toEqual({ ...leaf, schemaHash: computeSchemaHash(leaf) });
    const middle: ResolvedSchema = {
      types: [author, postWith({ subtitle: field('string'), tier: field('number') }), page],
    };
    expect((await schemaOf(project, 'staging')).schemaHash).toBe(computeSchemaHash(middle));

    const extra: SchemaType = { name: 'tag', directory: 'tags', localized: false, fields: {} };
    await sync(project, 'production', { types: [...BLOG_SCHEMA.types, extra] });
    const after = await schemaOf(project, 'preview');
    expect(after.types.map((type) => type.name)).toEqual(['author', 'post', 'page', 'tag', 'note']);
    expect(after.schemaHash).not.toBe(before.schemaHash);
    expect((await schemaOf(project, 'staging')).types.map((type) => type.name)).toEqual([
      'author',
      'post',
      'page',
      'tag',
    ]);
  });
});

describe('schema overlays: idempotence', () => {
  it('syncing the full base schema to the child changes nothing and keeps it following the base', async () => {
    const project = await projectWithChain('preview');
    const repeat = await sync(project, 'preview', BLOG_SCHEMA);
    expect(repeat).toMatchObject({ synced: false, schemaHash: BLOG_SCHEMA_HASH, typesCount: 3 });
    expect(await history(project, 'preview')).toEqual([]);
    // No layer was stored: a base change of an existing field reaches the child whole.
    const changed: ResolvedSchema = { types: [author, postWith({ title: field('string') }), page] };
    await sync(project, 'production', changed);
    expect((await schemaOf(project, 'preview')).schemaHash).toBe(computeSchemaHash(changed));
  });

  it('a child that synced the full schema first keeps it as a layer repeating the base', async () => {
    const project = `overlay-${randomBytes(4).toString('hex')}`;
    expect((await t.request('POST', '/api/v1/projects', { body: { slug: project } })).status).toBe(201);
    const env = { project, environment: null };
    expect(
      (await t.request('POST', '/api/v1/environments', { ...env, body: { name: 'preview', extends: 'production' } }))
        .status,
    ).toBe(201);
    expect(await sync(project, 'preview', BLOG_SCHEMA)).toMatchObject({ synced: true, schemaHash: BLOG_SCHEMA_HASH });
    expect(await sync(project, 'production', BLOG_SCHEMA)).toMatchObject({
      synced: true,
      schemaHash: BLOG_SCHEMA_HASH,
    });
    expect(await sync(project, 'preview', BLOG_SCHEMA)).toMatchObject({ synced: false, schemaHash: BLOG_SCHEMA_HASH });
    expect((await schemaOf(project, 'preview')).schemaHash).toBe(BLOG_SCHEMA_HASH);
    expect(await history(project, 'preview')).toHaveLength(1);
  });

  it('a layer synced again, or one that merges to the schema in force, writes nothing', async () => {
    const project = await projectWithChain('preview');
    const layer: ResolvedSchema = { types: [note] };
    const first = await sync(project, 'preview', layer);
    const again = await sync(project, 'preview', layer);
    expect(again).toMatchObject({ synced: false, schemaHash: first.schemaHash, typesCount: 4 });
    // Same merge through a different layer (it repeats a base type): still nothing to write.
    const repeating = await sync(project, 'preview', { types: [page, note] });
    expect(repeating).toMatchObject({ synced: false, schemaHash: first.schemaHash });
    expect(await history(project, 'preview')).toHaveLength(1);
  });
});
