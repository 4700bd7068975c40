import { computeSchemaHash, type ResolvedSchema } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  addEnvironment,
  BLOG_SCHEMA,
  BLOG_SCHEMA_HASH,
  createDocument,
  field,
  hashHeader,
  syncBody,
  syncSchema,
} from './fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await addEnvironment(t, 'empty');
  await addEnvironment(t, 'staging');
  await addEnvironment(t, 'ordered');
});
afterAll(() => t.close());

const EMPTY_HASH = computeSchemaHash({ types: [] });

async function historyCount(environment = 'production'): Promise<number> {
  const result = await t.db.query<{ n: number }>(
    `select count(*)::int as n from schema_sync_history h join environments e on e.id = h.environment_id
     where e.name = $1`,
    [environment],
  );
  return result.rows[0]?.n ?? 0;
}

describe('GET /schema before any sync', () => {
  it('answers no types and the hash of the empty schema', async () => {
    const response = await t.request('GET', '/api/v1/schema', { environment: 'empty' });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ types: [], schemaHash: EMPTY_HASH });
    // The value docs/api.md quotes: SHA-256 of `{"types":[]}`.
    expect(EMPTY_HASH).toBe('77266b09d4f59715778bc5fd507aefc59e2c6269ab885d7451ad680a20bb651f');
  });

  it('answers SCHEMA_NOT_FOUND for any type', async () => {
    const response = await t.request('GET', '/api/v1/schema/post', { environment: 'empty' });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('SCHEMA_NOT_FOUND');
  });
});

describe('PUT /schema/sync', () => {
  it('stores the schema, answers what it synced and records the sync in history', async () => {
    const response = await t.request('PUT', '/api/v1/schema/sync', { body: syncBody() });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      synced: true,
      schemaHash: BLOG_SCHEMA_HASH,
      typesCount: 3,
      types: ['author', 'post', 'page'],
    });
    expect(new Date(data.syncedAt).toISOString()).toBe(data.syncedAt);
    expect(typeof data.syncedBy).toBe('string');
    expect(await historyCount()).toBe(1);
    const stored = await t.db.query<{ raw: unknown; hash: string }>(
      `select raw_config_snapshot as raw, schema_hash as hash from schema_registry r
       join environments e on e.id = r.environment_id where e.name = 'production'`,
    );
    expect(stored.rows[0]).toEqual({ raw: { source: 'test' }, hash: BLOG_SCHEMA_HASH });
  });

  it('is idempotent: the same schema again writes nothing and answers synced false', async () => {
    const before = await t.request('GET', '/api/v1/schema');
    const again = await t.request('PUT', '/api/v1/schema/sync', { body: syncBody(BLOG_SCHEMA, { other: 'raw' }) });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ synced: false, schemaHash: BLOG_SCHEMA_HASH, typesCount: 3 });
    expect(await historyCount()).toBe(1);
    const after = await t.request('GET', '/api/v1/schema');
    expect(after.body).toEqual(before.body);
  });

  it('answers GET /schema and GET /schema/{type} from the synced schema', async () => {
    const list = await t.request('GET', '/api/v1/schema');
    expect(list.body.data.schemaHash).toBe(BLOG_SCHEMA_HASH);
    expect(list.body.data.types).toEqual(BLOG_SCHEMA.types);
    const one = await t.request('GET', '/api/v1/schema/post');
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ ...BLOG_SCHEMA.types[1], schemaHash: BLOG_SCHEMA_HASH });
    const missing = await t.request('GET', '/api/v1/schema/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('SCHEMA_NOT_FOUND');
  });

  it('rejects a hash that is not the hash of the resolved schema, naming the expected one', async () => {
    const response = await t.request('PUT', '/api/v1/schema/sync', {
      body: { ...syncBody(), schemaHash: 'f'.repeat(64) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(response.body.error.details.fields.schemaHash).toContain(BLOG_SCHEMA_HASH);
    expect(response.body.error.message).toContain(BLOG_SCHEMA_HASH);
  });

  it('rejects an invalid regex check with the field path of the check', async () => {
    const bad: ResolvedSchema = {
      types: [
        {
          name: 'x',
          directory: 'x',
          localized: false,
          fields: { a: field('string', { checks: [{ type: 'regex', value: '([a-z' }] }) },
        },
      ],
    };
    const response = await t.request('PUT', '/api/v1/schema/sync', { body: syncBody(bad) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(response.body.error.details.fields)).toEqual([
      'resolvedSchema.types[0].fields.a.checks[0].value',
    ]);
  });

  it('rejects structural errors of the resolved schema and missing body fields', async () => {
    const badSchema = await t.request('PUT', '/api/v1/schema/sync', {
      body: { rawConfigSnapshot: {}, resolvedSchema: { types: [{ name: 'x' }] }, schemaHash: 'x' },
    });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.error.details.fields).toHaveProperty(['resolvedSchema.types[0].directory']);
    const missing = await t.request('PUT', '/api/v1/schema/sync', { body: { resolvedSchema: { types: [] } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('INVALID_INPUT');
    expect(Object.keys(missing.body.error.details.fields)).toEqual(
      expect.arrayContaining(['body.rawConfigSnapshot', 'body.schemaHash']),
    );
    expect(await historyCount()).toBe(1);
  });

  it('is non-destructive: removing a field leaves documents untouched, and it stops being validated', async () => {
    const doc = await createDocument(t, { frontmatter: { title: 'Keep me', slug: 'keep-me', readingMinutes: 3 } });
    const post = BLOG_SCHEMA.types[1]!;
    const { readingMinutes: _removed, ...fields } = post.fields;
    const smaller: ResolvedSchema = {
      types: BLOG_SCHEMA.types.map((type) => (type.name === 'post' ? { ...post, fields } : type)),
    };
    const hash = await syncSchema(t, smaller);
    expect(hash).not.toBe(BLOG_SCHEMA_HASH);
    const row = await t.db.query<{ fm: Record<string, unknown> }>(
      'select draft_frontmatter as fm from documents where id = $1',
      [doc.documentId],
    );
    expect(row.rows[0]?.fm.readingMinutes).toBe(3);
    // The removed field is no longer checked: a value the old schema refused now passes.
    const update = await t.request('PUT', `/api/v1/content/${doc.documentId}`, {
      headers: hashHeader(hash),
      body: { frontmatter: { title: 'Keep me', slug: 'keep-me', readingMinutes: 'many' }, body: '', draftRevision: 1 },
    });
    expect(update.status, update.text).toBe(200);
    expect(await historyCount()).toBe(2);
    await syncSchema(t);
  });

  it('keeps schemas per environment; an extending environment without a layer has its base schema (see schema-overlays.test.ts)', async () => {
    await addEnvironment(t, 'preview', 'production');
    const inherited = await t.request('GET', '/api/v1/schema', { environment: 'preview' });
    expect(inherited.body.data.schemaHash).toBe(BLOG_SCHEMA_HASH);
    const onlyPages: ResolvedSchema = { types: [BLOG_SCHEMA.types[2]!] };
    await syncSchema(t, onlyPages, { environment: 'staging' });
    const staging = await t.request('GET', '/api/v1/schema', { environment: 'staging' });
    expect(staging.body.data.types.map((type: { name: string }) => type.name)).toEqual(['page']);
    const production = await t.request('GET', '/api/v1/schema');
    expect(production.body.data.schemaHash).toBe(BLOG_SCHEMA_HASH);
  });

  it('needs schema:write to sync and schema:read to read', async () => {
    const reader = await t.createKey({ scopes: ['schema:read'] });
    const sync = await t.request('PUT', '/api/v1/schema/sync', { key: reader, body: syncBody() });
    expect(sync.status).toBe(403);
    expect(sync.body.error.code).toBe('FORBIDDEN');
    const writer = await t.createKey({ scopes: ['schema:write'] });
    const read = await t.request('GET', '/api/v1/schema', { key: writer });
    expect(read.status).toBe(403);
    const anonymous = await t.request('GET', '/api/v1/schema', { key: null });
    expect(anonymous.status).toBe(401);
    const noTarget = await t.request('GET', '/api/v1/schema', { environment: null });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error.code).toBe('TARGET_REQUIRED');
  });

  it('lets concurrent syncs of one schema write it once', async () => {
    const schema: ResolvedSchema = { types: [{ name: 'note', directory: 'notes', localized: false, fields: {} }] };
    await addEnvironment(t, 'race');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.request('PUT', '/api/v1/schema/sync', { environment: 'race', body: syncBody(schema) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.data.synced)).toHaveLength(1);
    expect(await historyCount('race')).toBe(1);
  });
});

describe('field order (migration 0018)', () => {
  // Keys jsonb would sort (shortest first) to `slug, tags, title` and `noindex, description`.
  const ordered = (names: string[]): ResolvedSchema => ({
    types: [
      {
        name: 'article',
        directory: 'articles',
        localized: false,
        fields: Object.fromEntries(
          names.map((name) => [
            name,
            name === 'seo'
              ? field('object', { fields: { description: field('string'), noindex: field('boolean') } })
              : field('string'),
          ]),
        ),
      },
    ],
  });
  const options = { environment: 'ordered' };
  const fieldNames = async () => {
    const list = await t.request('GET', '/api/v1/schema', options);
    const one = await t.request('GET', '/api/v1/schema/article', options);
    expect(Object.keys(one.body.data.fields)).toEqual(Object.keys(list.body.data.types[0].fields));
    return {
      top: Object.keys(list.body.data.types[0].fields),
      seo: Object.keys(list.body.data.types[0].fields.seo.fields),
    };
  };

  it('answers the fields in the order they were synced, nested ones too', async () => {
    const synced = await t.request('PUT', '/api/v1/schema/sync', {
      ...options,
      body: syncBody(ordered(['title', 'slug', 'tags', 'seo'])),
    });
    expect(synced.body.data.synced).toBe(true);
    expect(await fieldNames()).toEqual({ top: ['title', 'slug', 'tags', 'seo'], seo: ['description', 'noindex'] });
  });

  it('stores a sync that only reorders fields (same hash, content writes unaffected), once', async () => {
    const before = await historyCount('ordered');
    const hash = computeSchemaHash(ordered(['title', 'slug', 'tags', 'seo']));
    const body = syncBody(ordered(['tags', 'seo', 'title', 'slug']));
    expect(body.schemaHash).toBe(hash);
    const synced = await t.request('PUT', '/api/v1/schema/sync', { ...options, body });
    expect(synced.body.data).toMatchObject({ synced: true, schemaHash: hash });
    expect(await historyCount('ordered')).toBe(before + 1);
    expect((await fieldNames()).top).toEqual(['tags', 'seo', 'title', 'slug']);
    const again = await t.request('PUT', '/api/v1/schema/sync', { ...options, body });
    expect(again.body.data).toMatchObject({ synced: false, schemaHash: hash });
    expect(await historyCount('ordered')).toBe(before + 1);
    const created = await t.request('POST', '/api/v1/content', {
      ...options,
      headers: hashHeader(hash),
      body: { type: 'article', path: 'one', frontmatter: { title: 'One' }, body: '' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
});

describe('locales on GET /schema', () => {
  const options = { environment: 'ordered' };
  const schema: ResolvedSchema = {
    types: [{ name: 'note', directory: 'notes', localized: true, fields: { title: field('string') } }],
  };

  it('answers the locales of the config the schema was synced from, the environment’s own first', async () => {
    const raw = {
      locales: { default: 'fr', supported: ['en', 'fr'] },
      environments: { staging: { extends: null, types: [], locales: { default: 'de', supported: ['de'] } } },
    };
    await t.request('PUT', '/api/v1/schema/sync', { ...options, body: syncBody(schema, raw) });
    const list = await t.request('GET', '/api/v1/schema', options);
    expect(list.body.data.locales).toEqual({ default: 'fr', supported: ['fr', 'en'] });

    const staging = { ...schema, types: [{ ...schema.types[0], name: 'memo' }] } as ResolvedSchema;
    await t.request('PUT', '/api/v1/schema/sync', { environment: 'staging', body: syncBody(staging, raw) });
    const own = await t.request('GET', '/api/v1/schema', { environment: 'staging' });
    expect(own.body.data.locales).toEqual({ default: 'de', supported: ['de'] });
  });

  it('stores a sync that changes only the locales; one without locales keeps them', async () => {
    const before = await historyCount('ordered');
    const raw = { locales: { default: 'fr', supported: ['fr', 'en', 'de'] } };
    const changed = await t.request('PUT', '/api/v1/schema/sync', { ...options, body: syncBody(schema, raw) });
    expect(changed.body.data.synced).toBe(true);
    expect((await t.request('GET', '/api/v1/schema', options)).body.data.locales).toEqual(raw.locales);
    const again = await t.request('PUT', '/api/v1/schema/sync', { ...options, body: syncBody(schema, raw) });
    expect(again.body.data.synced).toBe(false);
    const none = await t.request('PUT', '/api/v1/schema/sync', { ...options, body: syncBody(schema, {}) });
    expect(none.body.data.synced).toBe(false);
    expect((await t.request('GET', '/api/v1/schema', options)).body.data.locales).toEqual(raw.locales);
    expect(await historyCount('ordered')).toBe(before + 1);
  });

  it('leaves them out when the sync sent none', async () => {
    const list = await t.request('GET', '/api/v1/schema');
    expect(list.status).toBe(200);
    expect(list.body.data).not.toHaveProperty('locales');
  });
});
