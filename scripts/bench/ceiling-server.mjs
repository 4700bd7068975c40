/**
 * The ceiling: a bare Fastify server (no hooks, no logging, no validation) run as its own process,
 * with the two cheapest ways to answer the single-document GET:
 *   GET /memory    the response bytes, built once at start, sent from memory (the framework ceiling)
 *   GET /db/:id    the same JSON built from one primary-key lookup per request (the database ceiling)
 *   GET /db-list   a page of 20 published posts, newest first, with its total: the same SQL shape as the
 *                  content list at its cheapest (one index-ordered page, the total from the per-type
 *                  counters when the table exists), to read the list rows against
 *   GET /memory-list  the first page of /db-list, built once at start, sent from memory (the ceiling of a
 *                  list served from a cache)
 *   GET /readyz    `select 1`, so the benchmark can wait for leftover requests between runs
 * It opens the database through the server's own storage module, so PGlite goes through the same
 * serialising queue and PostgreSQL through a pool of the same size as the CMS, and its reads are
 * prepared statements, as the CMS's content reads are (`QueryOptions.prepare`).
 *
 * Settings (environment): CEILING_DOCUMENT_ID (required), CEILING_DATABASE_URL (PostgreSQL) or
 * CEILING_DATA_DIR (PGlite in `{dir}/db`, which no other process may hold), CEILING_POOL_MAX,
 * CEILING_PROJECT, CEILING_ENVIRONMENT. Prints one JSON line `{ "event": "ready", ... }` when listening.
 */
import Fastify from 'fastify';
import { openDb } from '../../packages/server/dist/storage/open-db.js';

/** The columns a document response needs, by primary key only (interface.md "Document"). */
const SELECT_DOCUMENT = `select id, environment_id, translation_group_id, path, type, locale, format, is_deleted,
  has_unpublished_changes, version, published_version, draft_revision, published_frontmatter, published_body,
  created_by, updated_by, created_at, updated_at
  from documents where id = $1`;

/** The list page: the same columns, by the published-list index (migration 0006). */
const SELECT_PAGE = `select id, translation_group_id, path, type, locale, format, is_deleted, has_unpublished_changes,
  version, published_version, draft_revision, published_frontmatter, published_body, created_by, updated_by,
  created_at, updated_at
  from documents where environment_id = $1 and type = 'post' and not is_deleted and published_version is not null
  order by created_at desc, id desc limit $2 offset $3`;
const PAGE_SIZE = 20;
const PREPARED = { prepare: true };

/**
 * The published document as the CMS renders it, fields in the order of its response schema.
 * @param {Record<string, any>} row
 * @param {string} project
 * @param {string} environment
 */
function toDocument(row, project, environment) {
  return {
    documentId: row.id,
    translationGroupId: row.translation_group_id,
    project,
    environment,
    path: row.path,
    type: row.type,
    locale: row.locale,
    format: row.format,
    isDeleted: row.is_deleted,
    hasUnpublishedChanges: row.has_unpublished_changes,
    version: row.version,
    publishedVersion: row.published_version,
    draftRevision: row.draft_revision,
    frontmatter: row.published_frontmatter ?? {},
    body: row.published_body ?? '',
    resolveErrors: {},
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

async function main() {
  const documentId = process.env.CEILING_DOCUMENT_ID;
  if (!documentId) throw new Error('CEILING_DOCUMENT_ID is required');
  const project = process.env.CEILING_PROJECT ?? 'default';
  const environment = process.env.CEILING_ENVIRONMENT ?? 'production';
  const db = await openDb({
    databaseUrl: process.env.CEILING_DATABASE_URL || null,
    databasePoolMax: Number(process.env.CEILING_POOL_MAX ?? 10),
    dataDir: process.env.CEILING_DATA_DIR ?? '',
  });

  const first = await db.query(SELECT_DOCUMENT, [documentId]);
  if (first.rows.length === 0) throw new Error(`document ${documentId} not found`);
  const inMemory = Buffer.from(JSON.stringify({ data: toDocument(first.rows[0], project, environment) }));
  const environmentId = String(first.rows[0].environment_id);
  // The cheapest exact total: the per-type counters when the migrations have them, else a count.
  const counters = await db.query("select to_regclass('document_counts') is not null as present");
  const selectTotal = counters.rows[0]?.present
    ? "select coalesce(sum(published), 0)::int as total from document_counts where environment_id = $1 and type = 'post'"
    : "select count(*)::int as total from documents where environment_id = $1 and type = 'post' and not is_deleted and published_version is not null";

  /** A page of 20 published posts and its total, as JSON text. */
  const listPage = async (offset) => {
    const result = await db.query(
      `select t.total, p.* from (${selectTotal}) t left join lateral (${SELECT_PAGE}) p on true`,
      [environmentId, PAGE_SIZE, offset],
      PREPARED,
    );
    const count = Number(result.rows[0]?.total ?? 0);
    return JSON.stringify({
      data: result.rows.filter((row) => row.id !== null).map((row) => toDocument(row, project, environment)),
      pagination: { total: count, limit: PAGE_SIZE, offset, hasMore: offset + PAGE_SIZE < count },
    });
  };
  const listInMemory = Buffer.from(await listPage(0));

  const app = Fastify({ logger: false });
  app.get('/memory-list', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(listInMemory);
  });
  app.get('/memory', (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(inMemory);
  });
  app.get('/db/:id', async (request, reply) => {
    const { id } = /** @type {{ id: string }} */ (request.params);
    const result = await db.query(SELECT_DOCUMENT, [id], PREPARED);
    const row = result.rows[0];
    if (!row) return reply.code(404).send({ error: 'not found' });
    return reply
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ data: toDocument(row, project, environment) }));
  });
  app.get('/db-list', async (request, reply) => {
    const offset = Number(/** @type {{ offset?: string }} */ (request.query).offset ?? 0);
    // One statement, like the CMS: the total, then the page (none past the end).
    return reply.type('application/json; charset=utf-8').send(await listPage(offset));
  });
  // Same role as the CMS's /readyz: answers once the database has worked off everything queued before it.
  app.get('/readyz', async () => {
    await db.query('select 1');
    return { status: 'ok' };
  });
  const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ event: 'ready', url: address, bodyBytes: inMemory.length })}\n`);

  const stop = () => {
    app
      .close()
      .then(() => db.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  console.error('ceiling-server: cannot start:', error);
  process.exit(1);
});
