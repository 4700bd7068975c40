/** Helpers of the content migration tests: a fresh project per test, the call, and database reads. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { DEFAULT_LOCALE } from '../../src/modules/domain-content/documents/path-rules.js';
import { createDocument, postFrontmatter, syncSchema } from '../content/fixtures.js';
import type { TestResponse, TestServer } from '../support/test-server.js';

/** Where a test works: its own project (and environment). */
export interface Where {
  project: string;
  environment: string;
}

/** Creates a project (environment `production`) with the blog schema synced. */
export async function newProject(t: TestServer, prefix = 'mig'): Promise<Where> {
  const project = `${prefix}-${randomBytes(4).toString('hex')}`;
  const created = await t.request('POST', '/api/v1/projects', { body: { slug: project } });
  expect(created.status, created.text).toBe(201);
  const where = { project, environment: 'production' };
  await syncSchema(t, undefined, where);
  return where;
}

/** Adds an environment to a project and syncs the blog schema there. */
export async function newEnvironment(t: TestServer, project: string, name: string): Promise<Where> {
  const created = await t.request('POST', '/api/v1/environments', { project, environment: null, body: { name } });
  expect(created.status, created.text).toBe(201);
  const where = { project, environment: name };
  await syncSchema(t, undefined, where);
  return where;
}

/** Creates a post with extra frontmatter in a project; returns the document. */
export async function createPost(t: TestServer, where: Where, frontmatter: Record<string, unknown> = {}): Promise<any> {
  return createDocument(t, { frontmatter: postFrontmatter(frontmatter) }, where);
}

/** Sends `POST /content/migrations`. */
export function migrate(t: TestServer, where: Where, body: unknown, key?: string): Promise<TestResponse> {
  return t.request('POST', '/api/v1/content/migrations', { ...where, body, ...(key ? { key } : {}) });
}

/** The stored row of a document, as the migration left it. */
export async function documentRow(t: TestServer, id: string) {
  const result = await t.db.query<{
    draftFrontmatter: Record<string, unknown>;
    publishedFrontmatter: Record<string, unknown> | null;
    draftRevision: number;
    version: number;
    publishedVersion: number | null;
    hasUnpublishedChanges: boolean;
    draftBody: string;
  }>(
    `select draft_frontmatter as "draftFrontmatter", published_frontmatter as "publishedFrontmatter",
       draft_revision as "draftRevision", version, published_version as "publishedVersion",
       has_unpublished_changes as "hasUnpublishedChanges", draft_body as "draftBody"
     from documents where id = $1`,
    [id],
  );
  return result.rows[0];
}

/** Outbox events of a project's environment, oldest first. */
export async function eventsOf(t: TestServer, where: Where) {
  const result = await t.db.query<{ type: string; payload: Record<string, any> }>(
    `select o.type, o.payload from outbox_events o
     join projects p on p.id = o.project_id join environments e on e.id = o.environment_id
     where p.slug = $1 and e.name = $2 order by o.seq`,
    [where.project, where.environment],
  );
  return result.rows;
}

/** Applied migrations of a project's environment. */
export async function migrationRows(t: TestServer, where: Where) {
  const result = await t.db.query<{
    name: string;
    type: string;
    matched: number;
    changed: number;
    operations: unknown;
  }>(
    `select m.name, m.type, m.matched, m.changed, m.operations from content_migrations m
     join projects p on p.id = m.project_id join environments e on e.id = m.environment_id
     where p.slug = $1 and e.name = $2 order by m.applied_at, m.name`,
    [where.project, where.environment],
  );
  return result.rows;
}

/** Inserts `count` draft-only posts straight into the database (paths `bulk/post-0000`...). */
export async function seedPosts(t: TestServer, where: Where, count: number, frontmatter: (i: number) => object) {
  const ids = await t.db.query<{ projectId: string; environmentId: string }>(
    `select p.id as "projectId", e.id as "environmentId" from projects p join environments e on e.project_id = p.id
     where p.slug = $1 and e.name = $2`,
    [where.project, where.environment],
  );
  const scope = ids.rows[0];
  const docs = Array.from({ length: count }, (_, i) => ({
    path: `bulk/post-${String(i).padStart(4, '0')}`,
    frontmatter: frontmatter(i),
  }));
  await t.db.query(
    `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
       draft_frontmatter, created_by, updated_by)
     select gen_random_uuid(), $1, $2, gen_random_uuid(), 'post', d.path, $3, 'md', d.frontmatter, 'seed', 'seed'
     from jsonb_to_recordset($4::jsonb) as d(path text, frontmatter jsonb)`,
    [scope?.projectId, scope?.environmentId, DEFAULT_LOCALE, JSON.stringify(docs)],
  );
}

/** Publishes a document of a project's environment. */
export async function publish(t: TestServer, where: Where, id: string): Promise<void> {
  const response = await t.request('POST', `/api/v1/content/${id}/publish`, { ...where, body: {} });
  expect(response.status, response.text).toBe(200);
}
