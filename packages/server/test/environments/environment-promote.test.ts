import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOG_SCHEMA,
  createAuthor,
  createDocument,
  field,
  hashHeader,
  postFrontmatter,
  syncSchema,
} from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

interface Setup {
  project: string;
  hash: string;
  ids: { author: string; unchanged: string; updated: string; created: string; conflicted: string };
}

async function publish(project: string, environment: string, id: string): Promise<void> {
  const response = await t.request('POST', `/api/v1/content/${id}/publish`, { project, environment, body: {} });
  expect(response.status, response.text).toBe(200);
}

async function stagingIdOf(project: string, path: string): Promise<string> {
  const result = await t.db.query<{ id: string }>(
    `select d.id from documents d join environments e on e.id = d.environment_id join projects p on p.id = d.project_id
     where p.slug = $1 and e.name = 'staging' and d.path = $2 and not d.is_deleted`,
    [project, path],
  );
  return result.rows[0]?.id as string;
}

/**
 * Production holds an author and three published posts; staging is its clone where one post is
 * changed and published, one post is new, and production has an unpublished edit of the third.
 */
async function setUp(): Promise<Setup> {
  const project = `promote-${randomBytes(4).toString('hex')}`;
  expect((await t.request('POST', '/api/v1/projects', { body: { slug: project } })).status).toBe(201);
  const prod = { project, environment: 'production' };
  const staging = { project, environment: 'staging' };
  const hash = await syncSchema(t, undefined, prod);
  const author = await createAuthor(t, 'Ada', prod);
  await publish(project, 'production', author);
  const posts = [];
  for (const title of ['Same', 'Old', 'Busy']) {
    const doc = await createDocument(t, { frontmatter: postFrontmatter({ title, author }) }, prod);
    await publish(project, 'production', doc.documentId);
    posts.push(doc);
  }
  const [same, old, busy] = posts;
  const cloned = await t.request('POST', '/api/v1/environments', {
    project,
    environment: null,
    body: { name: 'staging', cloneFrom: 'production' },
  });
  expect(cloned.status, cloned.text).toBe(201);

  const updated = await stagingIdOf(project, old.path);
  const stagingAuthor = await stagingIdOf(
    project,
    (await t.request('GET', `/api/v1/content/${author}`, prod)).body.data.path,
  );
  const edit = await t.request('PUT', `/api/v1/content/${updated}`, {
    ...staging,
    headers: hashHeader(hash),
    body: { frontmatter: postFrontmatter({ title: 'New', author: stagingAuthor }), body: 'new body', draftRevision: 1 },
  });
  expect(edit.status, edit.text).toBe(200);
  await publish(project, 'staging', updated);
  const created = (
    await createDocument(t, { frontmatter: postFrontmatter({ title: 'Fresh', author: stagingAuthor }) }, staging)
  ).documentId;
  await publish(project, 'staging', created);
  const busyEdit = await t.request('PUT', `/api/v1/content/${busy.documentId}`, {
    ...prod,
    headers: hashHeader(hash),
    body: { frontmatter: postFrontmatter({ title: 'Unpublished edit', author }), body: '', draftRevision: 1 },
  });
  expect(busyEdit.status, busyEdit.text).toBe(200);
  return {
    project,
    hash,
    ids: {
      author: stagingAuthor,
      unchanged: await stagingIdOf(project, same.path),
      updated,
      created,
      conflicted: await stagingIdOf(project, busy.path),
    },
  };
}

function promote(project: string, body: Record<string, unknown>, key?: string) {
  return t.request('POST', '/api/v1/environments/staging/promote', {
    project,
    environment: null,
    body,
    ...(key ? { key } : {}),
  });
}

function actionsOf(plan: Array<{ documentId: string; action: string }>): Record<string, string> {
  return Object.fromEntries(plan.map((item) => [item.documentId, item.action]));
}

async function productionEvents(project: string) {
  const result = await t.db.query<{ type: string; payload: any }>(
    `select o.type, o.payload from outbox_events o join projects p on p.id = o.project_id
     join environments e on e.id = o.environment_id where p.slug = $1 and e.name = 'production' order by o.seq`,
    [project],
  );
  return result.rows;
}

describe('POST /environments/{name}/promote', () => {
  it('plans create, update, unchanged and conflict on a dry run without writing', async () => {
    const { project, ids } = await setUp();
    const before = await productionEvents(project);
    const response = await promote(project, { target: 'production', dryRun: true });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.applied).toBe(false);
    expect(actionsOf(response.body.data.plan)).toEqual({
      [ids.author]: 'unchanged',
      [ids.unchanged]: 'unchanged',
      [ids.updated]: 'update',
      [ids.created]: 'create',
      [ids.conflicted]: 'conflict',
    });
    const item = response.body.data.plan.find((entry: any) => entry.documentId === ids.created);
    expect(item).toMatchObject({ path: expect.any(String), locale: expect.any(String) });
    // The reason names the environment where the conflict is to be resolved.
    const conflicted = response.body.data.plan.find((entry: any) => entry.documentId === ids.conflicted);
    expect(conflicted.reason).toBe(
      'the document in "production" has unpublished changes: publish or undo them in "production" first',
    );
    expect(await productionEvents(project)).toEqual(before);
  });

  it('does not apply anything while the selection has a conflict', async () => {
    const { project } = await setUp();
    const before = await productionEvents(project);
    const response = await promote(project, { target: 'production' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.applied).toBe(false);
    expect(await productionEvents(project)).toEqual(before);
  });

  it('applies a conflict-free selection as published versions in the target, with events', async () => {
    const { project, ids } = await setUp();
    const prod = { project, environment: 'production' };
    const before = (await productionEvents(project)).length;
    const response = await promote(project, { target: 'production', documentIds: [ids.updated, ids.created] });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.applied).toBe(true);
    expect(actionsOf(response.body.data.plan)).toEqual({ [ids.updated]: 'update', [ids.created]: 'create' });

    const staged = await t.request('GET', `/api/v1/content/${ids.created}`, { project, environment: 'staging' });
    const list = await t.db.query<{
      id: string;
      title: string;
      author: string;
      body: string;
      version: number;
      unpublished: boolean;
    }>(
      `select d.id, d.published_frontmatter->>'title' as title, d.published_frontmatter->>'author' as author,
         d.published_body as body, d.version, d.has_unpublished_changes as unpublished
       from documents d join environments e on e.id = d.environment_id join projects p on p.id = d.project_id
       where p.slug = $1 and e.name = 'production' and d.path = $2`,
      [project, staged.body.data.path],
    );
    const created = list.rows[0];
    expect(created).toMatchObject({ title: 'Fresh', version: 1, unpublished: false });
    // The reference points at production's author, not staging's.
    const productionAuthor = await t.db.query<{ id: string }>(
      `select d.id from documents d join environments e on e.id = d.environment_id join projects p on p.id = d.project_id
       where p.slug = $1 and e.name = 'production' and d.type = 'author'`,
      [project],
    );
    expect(created?.author).toBe(productionAuthor.rows[0]?.id);
    const read = await t.request('GET', `/api/v1/content/${created?.id}`, prod);
    expect(read.status, read.text).toBe(200);

    const events = (await productionEvents(project)).slice(before);
    // Plan order is by path: compare as a multiset.
    expect(events.map((event) => event.type).sort()).toEqual([
      'content.created',
      'content.published',
      'content.published',
      'content.updated',
    ]);
    expect(events.every((event) => event.payload.environment === 'production')).toBe(true);

    const again = await promote(project, {
      target: 'production',
      documentIds: [ids.updated, ids.created],
      dryRun: true,
    });
    expect(actionsOf(again.body.data.plan)).toEqual({ [ids.updated]: 'unchanged', [ids.created]: 'unchanged' });
  });

  it('marks every item a conflict when the schema hashes differ', async () => {
    const { project, ids } = await setUp();
    const changed = {
      types: [
        ...BLOG_SCHEMA.types,
        { name: 'note', directory: 'notes', localized: false, fields: { text: field('string') } },
      ],
    };
    await syncSchema(t, changed, { project, environment: 'production' });
    const response = await promote(project, { target: 'production', documentIds: [ids.created], dryRun: true });
    expect(response.body.data.plan).toEqual([
      expect.objectContaining({
        documentId: ids.created,
        action: 'conflict',
        reason:
          'schema hash differs between "staging" and "production": sync the same schema to both ' +
          '(`cms schema sync --environment staging` and `--environment production`)',
      }),
    ]);
  });

  it('rejects unknown documentIds and unknown targets with INVALID_INPUT', async () => {
    const { project } = await setUp();
    const unknown = await promote(project, { target: 'production', documentIds: [randomUUID()] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields).toHaveProperty(['body.documentIds[0]']);
    const target = await promote(project, { target: 'nowhere' });
    expect(target.status).toBe(400);
    expect(target.body.error.details.fields).toHaveProperty(['body.target']);
  });

  it('is FORBIDDEN for a key without settings:manage', async () => {
    const { project } = await setUp();
    const key = await t.createKey({ scopes: ['content:read', 'content:write', 'content:publish'] });
    const response = await promote(project, { target: 'production', dryRun: true }, key);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });
});

describe('promote and the kept source text (decisions.md §8)', () => {
  it('patches the target’s source to the promoted content; a created document takes the source environment’s', async () => {
    const project = `promote-src-${randomBytes(4).toString('hex')}`;
    expect((await t.request('POST', '/api/v1/projects', { body: { slug: project } })).status).toBe(201);
    const prod = { project, environment: 'production' };
    const staging = { project, environment: 'staging' };
    const hash = await syncSchema(t, undefined, prod);
    const write = async (where: typeof prod, path: string, title: string) => {
      const source = `---\n# as written\ntitle: "${title}" # heading\nslug: ${path}\ntags: [ab, cd]\nstatus: draft\n---\nBody\n`;
      const created = await t.request('POST', '/api/v1/content', {
        ...where,
        headers: hashHeader(hash),
        body: { type: 'post', path, frontmatter: { title, slug: path, tags: ['ab', 'cd'] }, body: 'Body\n', source },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.source).toBe(source);
      await publish(project, where.environment, created.body.data.documentId);
      return { id: created.body.data.documentId as string, source };
    };
    const kept = await write(prod, 'kept', 'Kept');
    const cloned = await t.request('POST', '/api/v1/environments', {
      project,
      environment: null,
      body: { name: 'staging', cloneFrom: 'production' },
    });
    expect(cloned.status, cloned.text).toBe(201);
    const stagingId = await stagingIdOf(project, 'kept');
    const current = (await t.request('GET', `/api/v1/content/${stagingId}?draft=true`, staging)).body.data;
    const edit = await t.request('PUT', `/api/v1/content/${stagingId}`, {
      ...staging,
      headers: hashHeader(hash),
      body: { frontmatter: { ...current.frontmatter, title: 'Promoted' }, body: current.body, draftRevision: 1 },
    });
    expect(edit.status, edit.text).toBe(200);
    await publish(project, 'staging', stagingId);
    const fresh = await write(staging, 'fresh', 'Fresh');

    const response = await promote(project, { target: 'production' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.data.applied).toBe(true);
    const updated = (await t.request('GET', `/api/v1/content/${kept.id}?draft=true`, prod)).body.data;
    expect(updated.frontmatter.title).toBe('Promoted');
    expect(updated.source).toBe(kept.source.replace('"Kept"', '"Promoted"'));
    const created = await t.request('GET', '/api/v1/content?type=post&path=fresh&draft=true', prod);
    expect(created.body.data[0].source).toBe(fresh.source);
  });
});
