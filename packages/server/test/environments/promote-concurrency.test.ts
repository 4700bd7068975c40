import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE } from '../../src/modules/domain-content/documents/path-rules.js';
import type { Queryable } from '../../src/storage/db.js';
import { createDocumentRequest, postFrontmatter, syncSchema } from '../content/fixtures.js';
import { testEngine } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Documents per type and source environment: enough writes that two promotions overlap in time. */
const DOCUMENTS_PER_TYPE = 100;
/** Single-document creates sent alongside the promotions. */
const CONCURRENT_CREATES = 12;

interface Project {
  slug: string;
  id: string;
  environments: Record<'production' | 's1' | 's2', string>;
}

interface SeedDocument {
  type: 'author' | 'post';
  path: string;
  frontmatter: Record<string, unknown>;
}

// PGlite runs one transaction at a time, so nothing there can deadlock; these races need PostgreSQL.
describe.runIf(testEngine() === 'postgres')('promotions racing other writes (PostgreSQL)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  async function setUp(): Promise<Project> {
    const slug = `race-${randomBytes(4).toString('hex')}`;
    expect((await t.request('POST', '/api/v1/projects', { body: { slug } })).status).toBe(201);
    for (const name of ['s1', 's2']) {
      const created = await t.request('POST', '/api/v1/environments', {
        project: slug,
        environment: null,
        body: { name },
      });
      expect(created.status, created.text).toBe(201);
    }
    for (const environment of ['production', 's1', 's2'])
      await syncSchema(t, undefined, { project: slug, environment });
    const rows = await t.db.query<{ id: string; project_id: string; name: 'production' | 's1' | 's2' }>(
      'select e.id, e.project_id, e.name from environments e join projects p on p.id = e.project_id where p.slug = $1',
      [slug],
    );
    const environments = Object.fromEntries(rows.rows.map((row) => [row.name, row.id])) as Project['environments'];
    return { slug, id: rows.rows[0]?.project_id as string, environments };
  }

  /** Inserts published documents as a publish leaves them (the row triggers keep the counters). */
  async function seed(db: Queryable, project: Project, environmentId: string, docs: SeedDocument[], published = true) {
    await db.query(
      `insert into documents (id, project_id, environment_id, translation_group_id, type, path, locale, format,
         draft_frontmatter, version, published_version, published_frontmatter, published_body, published_at,
         has_unpublished_changes, created_by, updated_by)
       select gen_random_uuid(), $1, $2, gen_random_uuid(), d.type, d.path, $3, 'md', d.frontmatter,
         case when $5 then 1 else 0 end, case when $5 then 1 end, case when $5 then d.frontmatter end,
         case when $5 then '' end, case when $5 then now() end, not $5, 'seed', 'seed'
       from jsonb_to_recordset($4::jsonb) as d(type text, path text, frontmatter jsonb)`,
      [project.id, environmentId, DEFAULT_LOCALE, JSON.stringify(docs), published],
    );
  }

  const authors = (prefix: string): SeedDocument[] =>
    Array.from({ length: DOCUMENTS_PER_TYPE }, (_, i) => ({
      type: 'author',
      path: `${prefix}/author-${String(i).padStart(3, '0')}`,
      frontmatter: { name: `Author ${i}` },
    }));
  const posts = (prefix: string): SeedDocument[] =>
    Array.from({ length: DOCUMENTS_PER_TYPE }, (_, i) => ({
      type: 'post',
      path: `${prefix}/post-${String(i).padStart(3, '0')}`,
      frontmatter: postFrontmatter({ title: `Post ${i}`, slug: `post-${i}` }),
    }));

  function promote(project: Project, source: string) {
    return t.request('POST', `/api/v1/environments/${source}/promote`, {
      project: project.slug,
      environment: null,
      body: { target: 'production' },
    });
  }

  /** The per-type counters of the project equal a count of its documents. */
  async function expectExactCounts(project: Project) {
    const counted = await t.db.query<{ key: string; live: number; published: number }>(
      `select environment_id || '/' || type || '/' || locale as key,
         count(*) filter (where not is_deleted)::int as live,
         count(*) filter (where not is_deleted and published_version is not null)::int as published
       from documents where project_id = $1 group by 1 order by 1`,
      [project.id],
    );
    const kept = await t.db.query<{ key: string; live: number; published: number }>(
      `select environment_id || '/' || type || '/' || locale as key, live, published
       from document_counts where project_id = $1 and (live <> 0 or published <> 0) order by 1`,
      [project.id],
    );
    expect(kept.rows).toEqual(counted.rows);
  }

  /** Whether a backend of this database other than `except` starts waiting for a lock within 2 s (or until `done`). */
  async function sawLockWait(except: number, done: () => boolean = () => false): Promise<boolean> {
    for (let attempt = 0; attempt < 200 && !done(); attempt += 1) {
      const waiting = await t.db.query(
        `select 1 from pg_stat_activity
         where datname = current_database() and pid <> $1 and wait_event_type = 'Lock'`,
        [except],
      );
      if (waiting.rowCount > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }

  it('retries a promotion the database picks as deadlock victim, and applies it whole', async () => {
    const project = await setUp();
    // s1 sorts its authors (a/...) before its posts (b/...): the promotion takes the author counter first.
    await seed(t.db, project, project.environments.s1, [...authors('a/s1'), ...posts('b/s1')]);
    const other = new pg.Client({ connectionString: t.database.url as string });
    await other.connect();
    try {
      const pid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid as number;
      await other.query('begin');
      // The promotion's backend (deadlock_timeout 1s) finds the cycle first and is the one aborted.
      await other.query("set local deadlock_timeout = '30s'");
      await seed(other, project, project.environments.production, [posts('z/other')[0] as SeedDocument], false);
      const promotion = promote(project, 's1');
      // The promotion holds the author counter and waits for the post counter, held here.
      expect(await sawLockWait(pid)).toBe(true);
      // Now take the author counter: the opposite order, a deadlock.
      await seed(other, project, project.environments.production, [authors('z/other')[0] as SeedDocument], false);
      await other.query('commit');
      const response = await promotion;
      expect(response.status, response.text).toBe(200);
      expect(response.body.data.applied).toBe(true);
      expect(response.body.data.plan).toHaveLength(2 * DOCUMENTS_PER_TYPE);
    } finally {
      await other.end();
    }
    const live = await t.db.query('select 1 from documents where environment_id = $1 and not is_deleted', [
      project.environments.production,
    ]);
    expect(live.rowCount).toBe(2 * DOCUMENTS_PER_TYPE + 2);
    await expectExactCounts(project);
  });

  it('applies two promotions into one environment at once, with creates alongside: no 500, exact counts', async () => {
    const project = await setUp();
    // Opposite type orders by path: unserialised, the two promotions take the two counters crosswise.
    await seed(t.db, project, project.environments.s1, [...authors('a/s1'), ...posts('b/s1')]);
    await seed(t.db, project, project.environments.s2, [...posts('a/s2'), ...authors('b/s2')]);
    let promoted = false;
    const promotions = Promise.all([promote(project, 's1'), promote(project, 's2')]).finally(() => {
      promoted = true;
    });
    // The creates start once one promotion waits for the other (for its counters, or for the promotion
    // lock): a create committed before both promotions list production would serialise them instead.
    await sawLockWait(0, () => promoted);
    const creates = Array.from({ length: CONCURRENT_CREATES }, (_, i) =>
      createDocumentRequest(
        t,
        i % 2 === 0
          ? { type: 'author', path: `c/author-${randomUUID()}`, frontmatter: { name: `Concurrent ${i}` } }
          : { type: 'post', path: `c/post-${randomUUID()}`, frontmatter: postFrontmatter() },
        { project: project.slug, environment: 'production' },
      ),
    );
    const [[first, second], created] = await Promise.all([promotions, Promise.all(creates)]);
    for (const response of [first, second]) {
      expect(response?.status, response?.text).toBe(200);
      expect(response?.body.data.applied).toBe(true);
    }
    for (const response of created) expect(response.status, response.text).toBe(201);
    const live = await t.db.query('select 1 from documents where environment_id = $1 and not is_deleted', [
      project.environments.production,
    ]);
    expect(live.rowCount).toBe(4 * DOCUMENTS_PER_TYPE + CONCURRENT_CREATES);
    await expectExactCounts(project);
  });
});
