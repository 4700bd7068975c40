/**
 * Shared fixtures of the content tests (writes and reads): a schema with a few types, helpers to
 * sync it and to create documents. Keep additions backwards compatible: other test files use it.
 */
import { computeSchemaHash, type FieldMetadata, type ResolvedSchema } from '@cms/core';
import { expect } from 'vitest';
import type { RequestOptions, TestResponse, TestServer } from '../support/test-server.js';

/** Field metadata with every key explicit, as a resolved schema carries it. */
export function field(kind: FieldMetadata['kind'], extra: Partial<FieldMetadata> = {}): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [], ...extra };
}

/** The fixture schema: a blog `post`, its `author`, and a localized `page`. */
export const BLOG_SCHEMA: ResolvedSchema = {
  types: [
    {
      name: 'author',
      directory: 'authors',
      localized: false,
      fields: {
        name: field('string', { required: true, checks: [{ type: 'min', value: 1 }] }),
        email: field('string', { nullable: true, checks: [{ type: 'email' }] }),
        website: field('string', { checks: [{ type: 'url' }] }),
      },
    },
    {
      name: 'post',
      directory: 'posts',
      localized: false,
      fields: {
        title: field('string', {
          required: true,
          checks: [
            { type: 'min', value: 1 },
            { type: 'max', value: 120 },
          ],
        }),
        slug: field('string', { required: true, checks: [{ type: 'regex', value: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }] }),
        tags: field('array', {
          default: [],
          checks: [{ type: 'max', value: 5 }],
          items: { kind: 'string', checks: [{ type: 'min', value: 2 }] },
        }),
        author: field('reference', { nullable: true, reference: { targetType: 'author' } }),
        related: field('array', { items: { kind: 'reference', checks: [], reference: { targetType: 'post' } } }),
        seo: field('object', {
          fields: {
            description: field('string', { checks: [{ type: 'max', value: 160 }] }),
            noindex: field('boolean', { default: false }),
          },
        }),
        status: field('enum', { default: 'draft', values: ['draft', 'review', 'final'] }),
        publishedOn: field('date'),
        readingMinutes: field('number', { checks: [{ type: 'min', value: 0 }] }),
      },
    },
    {
      name: 'page',
      directory: 'pages',
      localized: true,
      fields: { title: field('string', { required: true }) },
    },
  ],
};

/** Hash of BLOG_SCHEMA, as the CLI would send it. */
export const BLOG_SCHEMA_HASH = computeSchemaHash(BLOG_SCHEMA);

/** The sync body for a schema. */
export function syncBody(schema: ResolvedSchema = BLOG_SCHEMA, raw: Record<string, unknown> = { source: 'test' }) {
  return { rawConfigSnapshot: raw, resolvedSchema: schema, schemaHash: computeSchemaHash(schema) };
}

/** Syncs a schema (BLOG_SCHEMA by default) and returns its hash. */
export async function syncSchema(
  t: TestServer,
  schema: ResolvedSchema = BLOG_SCHEMA,
  options: RequestOptions = {},
): Promise<string> {
  const response = await t.request('PUT', '/api/v1/schema/sync', { ...options, body: syncBody(schema) });
  expect(response.status, response.text).toBe(200);
  return response.body.data.schemaHash;
}

/** Headers of a content write under a schema hash. */
export function hashHeader(hash: string = BLOG_SCHEMA_HASH): Record<string, string> {
  return { 'x-cms-schema-hash': hash };
}

/** A valid post frontmatter, with overrides. */
export function postFrontmatter(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Hello world', slug: 'hello-world', ...overrides };
}

/** Sends `POST /content` with the blog schema hash. */
export function createDocumentRequest(
  t: TestServer,
  body: Record<string, unknown>,
  options: RequestOptions = {},
): Promise<TestResponse> {
  return t.request('POST', '/api/v1/content', {
    ...options,
    body,
    headers: { ...hashHeader(), ...options.headers },
  });
}

let counter = 0;

/** A path nobody else in the test run uses. */
export function uniquePath(prefix = 'posts/p'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/** Creates a document (a `post` at a fresh path unless overridden) and returns it. */
export async function createDocument(
  t: TestServer,
  body: Record<string, unknown> = {},
  options: RequestOptions = {},
): Promise<any> {
  const response = await createDocumentRequest(
    t,
    { type: 'post', path: uniquePath(), frontmatter: postFrontmatter(), ...body },
    options,
  );
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

/** Creates an `author` and returns its id. */
export async function createAuthor(t: TestServer, name = 'Ada', options: RequestOptions = {}): Promise<string> {
  const author = await createDocument(
    t,
    { type: 'author', path: uniquePath('authors/a'), frontmatter: { name } },
    options,
  );
  return author.documentId;
}

/** Publishes a document and returns the publish answer. */
export async function publishDocument(t: TestServer, documentId: string, changeSummary?: string): Promise<any> {
  const response = await t.request('POST', `/api/v1/content/${documentId}/publish`, {
    body: changeSummary === undefined ? {} : { changeSummary },
  });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

/** Outbox rows of the default project/environment, oldest first. */
export async function outboxEvents(
  t: TestServer,
  filter: { documentId?: string } = {},
): Promise<Array<{ type: string; payload: Record<string, any> }>> {
  const result = await t.db.query<{ type: string; payload: Record<string, any> }>(
    `select o.type, o.payload from outbox_events o
     join projects p on p.id = o.project_id join environments e on e.id = o.environment_id
     where p.slug = 'default' and e.name = 'production'
       and ($1::text is null or o.payload->'document'->>'documentId' = $1)
     order by o.seq`,
    [filter.documentId ?? null],
  );
  return result.rows;
}

/** Adds an environment to the default project (optionally extending another). */
export async function addEnvironment(t: TestServer, name: string, extendsName: string | null = null): Promise<void> {
  await t.db.query(
    `insert into environments (id, project_id, name, extends_id, is_default)
     select gen_random_uuid(), p.id, $1, (select e.id from environments e where e.project_id = p.id and e.name = $2), false
     from projects p where p.slug = 'default'`,
    [name, extendsName],
  );
}
