/**
 * Fixtures of the content read tests: a schema and documents written straight into the real
 * database, so a test can build any state (hundreds of rows, old timestamps, stale revisions)
 * in one statement. The write path has its own tests; `write-then-read.test.ts` joins the two.
 */
import { randomUUID } from 'node:crypto';
import { computeSchemaHash, type FieldMetadata, type SchemaType } from '@cms/core';
import type { Queryable } from '../../src/storage/db.js';

/** A field with every metadata key explicit, as a resolved schema holds it. */
export function field(kind: FieldMetadata['kind'], extra: Partial<FieldMetadata> = {}): FieldMetadata {
  return { kind, required: false, nullable: true, default: null, reference: null, checks: [], ...extra };
}

function ref(targetType: string): FieldMetadata {
  return field('reference', { reference: { targetType } });
}

/**
 * `author` (with a `mentor` reference, for depth), `post` (localized; references at the top, in
 * an array, in a nested object and in an array of objects) and `category` (no slug field).
 */
export const READ_TYPES: SchemaType[] = [
  {
    name: 'author',
    directory: 'authors',
    localized: false,
    fields: { name: field('string'), slug: field('string'), mentor: ref('author') },
  },
  {
    name: 'post',
    directory: 'posts',
    localized: true,
    fields: {
      title: field('string'),
      slug: field('string'),
      author: ref('author'),
      editor: ref('author'),
      category: ref('category'),
      related: field('array', { items: { kind: 'reference', checks: [], reference: { targetType: 'post' } } }),
      seo: field('object', { fields: { title: field('string'), author: ref('author') } }),
      blocks: field('array', { items: { kind: 'object', checks: [], fields: { author: ref('author') } } }),
    },
  },
  { name: 'category', directory: 'categories', localized: false, fields: { name: field('string') } },
];

/** Project and environment ids of a project slug and environment name. */
export async function scopeOf(db: Queryable, project = 'default', environment = 'production') {
  const result = await db.query<{ projectId: string; environmentId: string }>(
    `select p.id as "projectId", e.id as "environmentId" from projects p
     join environments e on e.project_id = p.id where p.slug = $1 and e.name = $2`,
    [project, environment],
  );
  const scope = result.rows[0];
  if (!scope) throw new Error(`no environment ${project}/${environment}`);
  return scope;
}

/** Adds an environment to the default project. */
export async function addEnvironment(db: Queryable, name: string): Promise<void> {
  await db.query(
    `insert into environments (id, project_id, name, is_default)
     select gen_random_uuid(), id, $1, false from projects where slug = 'default'`,
    [name],
  );
}

/** Writes a synced schema for an environment (before the first read of it: the reader caches). */
export async function seedSchema(db: Queryable, types: SchemaType[] = READ_TYPES, environment = 'production') {
  const scope = await scopeOf(db, 'default', environment);
  const resolvedSchema = { types };
  await db.query(
    `insert into schema_registry (environment_id, project_id, schema_hash, resolved_schema, raw_config_snapshot, synced_by)
     values ($1, $2, $3, $4, '{}', 'test')`,
    [scope.environmentId, scope.projectId, computeSchemaHash(resolvedSchema), JSON.stringify(resolvedSchema)],
  );
}

/** A document to seed; omitted fields take the values of a fresh draft. */
export interface SeedDocument {
  id?: string;
  type: string;
  path: string;
  locale?: string;
  translationGroupId?: string;
  frontmatter?: Record<string, unknown>;
  body?: string;
  /** Published content: sets version and publishedVersion (default 1) and clears the changes flag. */
  published?: { frontmatter: Record<string, unknown>; body?: string; version?: number };
  /** Was published once, withdrawn since: version > 0, publishedVersion null. */
  unpublished?: boolean;
  hasUnpublishedChanges?: boolean;
  draftRevision?: number;
  isDeleted?: boolean;
  createdAt?: Date;
  updatedAt?: Date;
  environment?: string;
}

/** Inserts documents of the default project; returns their ids in order. */
export async function seedDocuments(db: Queryable, docs: readonly SeedDocument[]): Promise<string[]> {
  const ids: string[] = [];
  const scopes = new Map<string, { projectId: string; environmentId: string }>();
  for (const doc of docs) {
    const environment = doc.environment ?? 'production';
    const scope = scopes.get(environment) ?? (await scopeOf(db, 'default', environment));
    scopes.set(environment, scope);
    const id = doc.id ?? randomUUID();
    ids.push(id);
    const version = doc.published ? (doc.published.version ?? 1) : doc.unpublished ? 1 : 0;
    const at = doc.createdAt ?? new Date();
    await db.query(
      `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
         draft_frontmatter, draft_body, draft_revision, version, published_version, published_frontmatter,
         published_body, published_at, has_unpublished_changes, is_deleted, deleted_at, deleted_by,
         created_by, updated_by, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, 'md', $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
         'user-1', 'user-1', $20, $21)`,
      [
        id,
        scope.projectId,
        scope.environmentId,
        doc.translationGroupId ?? id,
        doc.type,
        doc.path,
        doc.locale ?? '__cms_default__',
        JSON.stringify(doc.frontmatter ?? doc.published?.frontmatter ?? {}),
        doc.body ?? '',
        doc.draftRevision ?? 1,
        version,
        doc.published ? version : null,
        doc.published ? JSON.stringify(doc.published.frontmatter) : null,
        doc.published ? (doc.published.body ?? '') : null,
        doc.published ? at : null,
        doc.hasUnpublishedChanges ?? !doc.published,
        doc.isDeleted ?? false,
        doc.isDeleted ? at : null,
        doc.isDeleted ? 'user-1' : null,
        at,
        doc.updatedAt ?? at,
      ],
    );
  }
  return ids;
}

/**
 * Counts the statements on the documents table a Db runs while `fn` runs (the no-N+1 checks).
 * Background workers (webhook delivery) share the Db and poll their own tables, so only
 * statements naming `documents` count.
 */
export async function countQueries(db: Queryable, fn: () => Promise<unknown>): Promise<number> {
  const original = db.query;
  let count = 0;
  db.query = ((sql: string, params?: readonly unknown[]) => {
    if (/\bdocuments\b/.test(sql)) count += 1;
    return original.call(db, sql, params);
  }) as Queryable['query'];
  try {
    await fn();
  } finally {
    db.query = original;
  }
  return count;
}
