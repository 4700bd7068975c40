/**
 * Seeds a fresh benchmark database with SQL, before the server starts: the default project and
 * environment (as migration 0001 shapes them, the same rows the server's first-start bootstrap
 * writes), one API key, a synced schema, a few hundred `author` documents and N published `post`
 * documents referencing them, each with its `document_versions` row. `generate_series` and applying
 * the index migrations after the load keep 100k documents to seconds on both engines.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { computeSchemaHash, SCOPES, validateResolvedSchema } from '../../packages/core/dist/index.js';
import { generateApiKey } from '../../packages/server/dist/modules/core-system/api-key-secret.js';
import { MIGRATIONS_DIR, migrate } from '../../packages/server/dist/storage/migrate.js';
import { createPgliteMaintenance } from '../../packages/server/dist/storage/pglite-maintenance.js';
import { insertApiKey } from '../../packages/server/dist/storage/repositories/api-keys.repository.js';

/** Project and environment the server would create at first start (decisions.md §1). */
export const PROJECT = 'default';
export const ENVIRONMENT = 'production';
/** Locale of documents of non-localized types (interface.md "Document"). */
const DEFAULT_LOCALE = '__cms_default__';
/** A logger that drops everything: the seed reports its own time. */
const SILENT_LOG = /** @type {import('fastify').FastifyBaseLogger} */ (
  /** @type {unknown} */ ({
    level: 'silent',
    info() {},
    warn() {},
    error() {},
    debug() {},
    trace() {},
    fatal() {},
    silent() {},
    child: () => SILENT_LOG,
  })
);

/** How many `author` documents the posts' references spread over. */
export const AUTHOR_COUNT = 300;
/** Body text of every seeded post: about 1 KB of Markdown, a typical short article. */
const BODY_REPEAT = 36;

/**
 * @typedef {object} SeedResult
 * @property {string} apiKey Full key text, sent as `Authorization: Bearer`.
 * @property {string} apiKeyId Id of the key row (the seeded documents' author of record).
 * @property {string} schemaHash Hash of the synced schema (`X-CMS-Schema-Hash`).
 * @property {string} projectId
 * @property {string} environmentId
 * @property {string} readDocumentId A published post in the middle of the collection.
 * @property {string[]} authorIds Ids of the seeded authors.
 * @property {string[]} updatePool Published posts the update benchmark rotates over.
 * @property {number} posts Number of published posts.
 * @property {number} seedMs Wall time of the whole seeding, in milliseconds.
 */

/** Tables the seed writes; migrations after the one completing them run once the data is in. */
const SEEDED_TABLES = [
  'projects',
  'environments',
  'api_keys',
  'schema_registry',
  'schema_sync_history',
  'documents',
  'document_versions',
];
const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

/**
 * @param {import('../../packages/server/dist/storage/db.js').Db} db
 * @param {string[]} names
 */
async function hasTables(db, names) {
  const result = await db.query(
    'select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = any($1)',
    [names],
  );
  return result.rows[0]?.n === names.length;
}

/**
 * Applies the server's migrations in order, only until the seeded tables exist. The later ones
 * (indexes, full-text indexes, counter triggers) then run over the loaded rows, as they would on a
 * database that already holds content: one bulk index build instead of 100k incremental updates.
 * @param {import('../../packages/server/dist/storage/db.js').Db} db
 */
async function migrateUntilSeedable(db) {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => MIGRATION_FILE.test(name)).sort();
  const staging = await mkdtemp(join(tmpdir(), 'cms-bench-migrations-'));
  try {
    for (const file of files) {
      await copyFile(new URL(file, MIGRATIONS_DIR), join(staging, file));
      await migrate(db, pathToFileURL(`${staging}/`));
      if (await hasTables(db, SEEDED_TABLES)) return;
    }
    throw new Error(`the migrations do not create every table the seed writes: ${SEEDED_TABLES.join(', ')}`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * One fully explicit field (a resolved schema spells out every property; see core `FieldMetadata`).
 * @param {string} kind
 * @param {Record<string, unknown>} [extra]
 */
function field(kind, extra = {}) {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [], ...extra };
}

/** The benchmark schema: `post` (title, slug, author reference, tags) and `author` (name). */
export function benchSchema() {
  return {
    types: [
      {
        name: 'author',
        directory: 'authors',
        localized: false,
        fields: { name: field('string', { required: true }) },
      },
      {
        name: 'post',
        directory: 'posts',
        localized: false,
        fields: {
          title: field('string', { required: true }),
          slug: field('string'),
          author: field('reference', { reference: { targetType: 'author' } }),
          tags: field('array', { items: { kind: 'string', checks: [] } }),
        },
      },
    ],
  };
}

/**
 * A body of BODY_WORD_COUNT words from the array $6, picked by a hash of (post, position) so every run
 * writes the same text; the cube skews the pick toward the first words (word 1 is in nearly every post).
 */
const BODY_WORD_COUNT = 150;
const WORDS_BODY = `(select string_agg(($6::text[])[1 + floor(array_length($6::text[], 1)
  * power((abs(hashtext(i || ':' || j)) % 1000000) / 1000000.0, 3))::int], ' ')
  from generate_series(1, ${BODY_WORD_COUNT}) as j)`;

const DOCUMENT_INSERT_COLUMNS = `id, project_id, environment_id, translation_group_id, type, path, locale, format,
  draft_frontmatter, draft_body, draft_revision, version, published_version, published_frontmatter, published_body,
  published_at, has_unpublished_changes, created_by, updated_by, created_at, updated_at`;

/**
 * Seeds `db` (an open `Db` from the server's storage modules) and returns what the benchmark needs.
 * @param {import('../../packages/server/dist/storage/db.js').Db} db
 * @param {{ posts: number, updatePoolSize: number, bodyWords?: string[] }} options `bodyWords`: bodies of
 *   words drawn from this list instead of one repeated sentence (the search row), skewed so the first
 *   words are in nearly every post and the last in few
 * @returns {Promise<SeedResult>}
 */
export async function seedDatabase(db, options) {
  const startedAt = performance.now();
  await migrateUntilSeedable(db);
  const projectId = randomUUID();
  const environmentId = randomUUID();
  await db.query('insert into projects (id, slug, name) values ($1, $2, $2)', [projectId, PROJECT]);
  await db.query(
    'insert into environments (id, project_id, name, extends_id, is_default) values ($1, $2, $3, null, true)',
    [environmentId, projectId, ENVIRONMENT],
  );

  const key = generateApiKey('live');
  const apiKeyId = randomUUID();
  await insertApiKey(db, {
    id: apiKeyId,
    kind: 'live',
    label: 'benchmark',
    prefix: key.prefix,
    secretHash: key.secretHash,
    scopes: [...SCOPES],
    contextAllowlist: [{ project: PROJECT, environment: ENVIRONMENT }],
    createdBy: null,
    expiresAt: null,
  });

  const schema = benchSchema();
  const checked = validateResolvedSchema(schema);
  if (!checked.ok) throw new Error(`benchmark schema is invalid: ${JSON.stringify(checked.fields)}`);
  const schemaHash = computeSchemaHash(schema);
  const raw = JSON.stringify({ source: 'scripts/bench/seed.mjs' });
  await db.query(
    `insert into schema_registry (environment_id, project_id, schema_hash, resolved_schema, raw_config_snapshot, synced_by)
     values ($1, $2, $3, $4, $5, $6)`,
    [environmentId, projectId, schemaHash, JSON.stringify(schema), raw, apiKeyId],
  );
  await db.query(
    `insert into schema_sync_history (id, project_id, environment_id, schema_hash, resolved_schema, raw_config_snapshot, synced_by)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [randomUUID(), projectId, environmentId, schemaHash, JSON.stringify(schema), raw, apiKeyId],
  );

  // Authors first: the posts pick their author from these ids. Timestamps step back one second per
  // row so `sort=createdAt` has a strict order (post 1 is the newest).
  await db.query(
    `insert into documents (${DOCUMENT_INSERT_COLUMNS})
     select gen_random_uuid(), $1, $2, gen_random_uuid(), 'author', 'authors/author-' || i, $3, 'md',
       x.fm, '', 1, 1, 1, x.fm, '', x.ts, false, $4, $4, x.ts, x.ts
     from generate_series(1, $5::int) as i,
       lateral (select jsonb_build_object('name', 'Author ' || i) as fm, now() - make_interval(secs => i) as ts) x`,
    [projectId, environmentId, DEFAULT_LOCALE, apiKeyId, AUTHOR_COUNT],
  );
  await db.query(
    `insert into documents (${DOCUMENT_INSERT_COLUMNS})
     select gen_random_uuid(), $1, $2, gen_random_uuid(), 'post', 'posts/post-' || lpad(i::text, 7, '0'), $3, 'md',
       x.fm, x.body, 1, 1, 1, x.fm, x.body, x.ts, false, $4, $4, x.ts, x.ts
     from (select array_agg(id order by path) as ids from documents where environment_id = $2 and type = 'author') a,
       generate_series(1, $5::int) as i,
       lateral (select
         jsonb_build_object(
           'title', 'Post number ' || i,
           'slug', 'post-' || i,
           'author', a.ids[1 + i % array_length(a.ids, 1)],
           'tags', jsonb_build_array('tag-' || i % 10, 'tag-' || i % 7)
         ) as fm,
         '# Post number ' || i || E'\n\n' || ${options.bodyWords ? WORDS_BODY : `repeat('Lorem ipsum dolor sit amet, consectetur. ', $6::int)`} as body,
         now() - make_interval(secs => i) as ts) x`,
    [projectId, environmentId, DEFAULT_LOCALE, apiKeyId, options.posts, options.bodyWords ?? BODY_REPEAT],
  );
  await db.query(
    `insert into document_versions (document_id, version, project_id, environment_id, frontmatter, body, published_at, published_by)
     select id, 1, project_id, environment_id, published_frontmatter, published_body, published_at, $2
     from documents where environment_id = $1`,
    [environmentId, apiKeyId],
  );
  await migrate(db);
  // A freshly loaded table is vacuumed and analyzed within a minute, setting the visibility map that
  // index-only scans rely on: start from that steady state. On PostgreSQL autovacuum does it; on
  // PGlite the server's own maintenance worker (storage/pglite-maintenance.ts) would at its start,
  // so run its check here, before the ceiling opens the database.
  if (db.engine === 'postgres') await db.query('vacuum analyze');
  else await createPgliteMaintenance({ db, log: SILENT_LOG, intervalMs: 60_000 }).runOnce();

  const authors = await db.query("select id from documents where environment_id = $1 and type = 'author'", [
    environmentId,
  ]);
  const middle = Math.max(1, Math.floor(options.posts / 2));
  const read = await db.query("select id from documents where environment_id = $1 and type = 'post' and path = $2", [
    environmentId,
    `posts/post-${String(middle).padStart(7, '0')}`,
  ]);
  const readDocumentId = /** @type {string} */ (read.rows[0]?.id);
  const pool = await db.query(
    "select id from documents where environment_id = $1 and type = 'post' and id <> $2 order by path limit $3",
    [environmentId, readDocumentId, options.updatePoolSize],
  );
  return {
    apiKey: key.apiKey,
    apiKeyId,
    schemaHash,
    projectId,
    environmentId,
    readDocumentId,
    authorIds: authors.rows.map((row) => /** @type {string} */ (row.id)),
    updatePool: pool.rows.map((row) => /** @type {string} */ (row.id)),
    posts: options.posts,
    seedMs: Math.round(performance.now() - startedAt),
  };
}
