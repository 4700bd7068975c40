import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthor, createDocument, hashHeader, postFrontmatter, syncSchema } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function newProject(): Promise<string> {
  const slug = `clone-${randomBytes(4).toString('hex')}`;
  expect((await t.request('POST', '/api/v1/projects', { body: { slug } })).status).toBe(201);
  return slug;
}

function createEnvironment(project: string, body: Record<string, unknown>, key?: string) {
  return t.request('POST', '/api/v1/environments', { project, environment: null, body, ...(key ? { key } : {}) });
}

describe('POST /environments with cloneFrom', () => {
  it('copies schema, documents, history and translation groups, rewriting references to the new ids', async () => {
    const project = await newProject();
    const at = { project, environment: 'production' };
    const hash = await syncSchema(t, undefined, at);
    const authorId = await createAuthor(t, 'Ada', at);
    const post = await createDocument(t, { frontmatter: postFrontmatter({ author: authorId }) }, at);
    const related = await createDocument(
      t,
      { frontmatter: postFrontmatter({ author: authorId, related: [post.documentId] }) },
      at,
    );
    for (const [id, body] of [
      [post.documentId, {}],
      [related.documentId, { changeSummary: 'v1' }],
    ] as const) {
      const published = await t.request('POST', `/api/v1/content/${id}/publish`, { ...at, body });
      expect(published.status, published.text).toBe(200);
    }
    const en = await createDocument(
      t,
      { type: 'page', path: 'pages/home', locale: 'en', frontmatter: { title: 'Home' } },
      at,
    );
    await createDocument(
      t,
      {
        type: 'page',
        path: 'pages/home',
        locale: 'fr',
        translationGroupId: en.translationGroupId,
        frontmatter: { title: 'Accueil' },
      },
      at,
    );

    const created = await createEnvironment(project, { name: 'staging', cloneFrom: 'production' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'staging', extends: null, isDefault: false });

    const copy = { project, environment: 'staging' };
    const schema = await t.request('GET', '/api/v1/schema', copy);
    expect(schema.body.data.schemaHash).toBe(hash);

    const rows = await t.db.query<{
      env: string;
      id: string;
      path: string;
      locale: string;
      group: string;
      draft: any;
      published: any;
      version: number;
    }>(
      `select e.name as env, d.id, d.path, d.locale, d.translation_group_id as "group", d.draft_frontmatter as draft,
         d.published_frontmatter as published, d.version
       from documents d join environments e on e.id = d.environment_id join projects p on p.id = d.project_id
       where p.slug = $1 order by d.path, d.locale`,
      [project],
    );
    const source = rows.rows.filter((row) => row.env === 'production');
    const cloned = rows.rows.filter((row) => row.env === 'staging');
    expect(cloned.map((row) => [row.path, row.locale, row.version])).toEqual(
      source.map((row) => [row.path, row.locale, row.version]),
    );
    const idMap = new Map(source.map((row, index) => [row.id, cloned[index]?.id]));
    for (const [oldId, newId] of idMap) expect(newId).not.toBe(oldId);

    const clonedRelated = cloned.find((row) => row.path === related.path);
    expect(clonedRelated?.draft.author).toBe(idMap.get(authorId));
    expect(clonedRelated?.draft.related).toEqual([idMap.get(post.documentId)]);
    expect(clonedRelated?.published.related).toEqual([idMap.get(post.documentId)]);

    const pages = cloned.filter((row) => row.path === 'pages/home');
    expect(pages).toHaveLength(2);
    expect(pages[0]?.group).toBe(pages[1]?.group);
    expect(pages[0]?.group).not.toBe(en.translationGroupId);

    const newRelatedId = idMap.get(related.documentId) as string;
    const versions = await t.request('GET', `/api/v1/content/${newRelatedId}/versions`, copy);
    expect(versions.status, versions.text).toBe(200);
    expect(versions.body.data.map((v: any) => v.changeSummary)).toEqual(['v1']);
    const version = await t.request('GET', `/api/v1/content/${newRelatedId}/versions/1`, copy);
    expect(version.body.data.frontmatter.author).toBe(idMap.get(authorId));

    // The copy validates as its own environment: its references resolve there.
    const read = await t.request('GET', `/api/v1/content/${newRelatedId}?resolve=author`, copy);
    expect(read.status, read.text).toBe(200);

    // Independent afterwards: an edit in the copy leaves the source alone.
    const updated = await t.request('PUT', `/api/v1/content/${newRelatedId}`, {
      ...copy,
      headers: hashHeader(hash),
      body: { frontmatter: postFrontmatter({ title: 'Only in staging' }), body: '', draftRevision: 1 },
    });
    expect(updated.status, updated.text).toBe(200);
    const original = await t.request('GET', `/api/v1/content/${related.documentId}?draft=true`, at);
    expect(original.body.data.frontmatter.title).toBe('Hello world');
  });

  it('clones an environment without content or schema into an empty one', async () => {
    const project = await newProject();
    const created = await createEnvironment(project, { name: 'empty', cloneFrom: 'production' });
    expect(created.status, created.text).toBe(201);
  });

  it('rejects an unknown clone source with INVALID_INPUT on body.cloneFrom and creates nothing', async () => {
    const project = await newProject();
    const response = await createEnvironment(project, { name: 'copy', cloneFrom: 'nowhere' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(response.body.error.details.fields).toHaveProperty(['body.cloneFrom']);
    const list = await t.request('GET', '/api/v1/environments', { project, environment: null });
    expect(list.body.data.map((e: any) => e.name)).toEqual(['production']);
  });

  it('refuses a key without settings:manage', async () => {
    const project = await newProject();
    const key = await t.createKey({ scopes: ['content:read', 'content:write'] });
    const response = await createEnvironment(project, { name: 'copy', cloneFrom: 'production' }, key);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });
});
