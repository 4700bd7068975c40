import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthor } from '../content/fixtures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createPost,
  documentRow,
  eventsOf,
  migrate,
  migrationRows,
  newProject,
  seedPosts,
  type Where,
} from './migration-fixtures.js';

let t: TestServer;
let where: Where;
beforeAll(async () => {
  t = await startTestServer();
  where = await newProject(t);
});
afterAll(() => t.close());

async function expectInvalidBody(body: unknown, fields: Record<string, unknown>) {
  const response = await migrate(t, where, body);
  expect(response.status, response.text).toBe(400);
  expect(response.body.error.code).toBe('INVALID_INPUT');
  expect(response.body.error.details.fields).toMatchObject(fields);
  return response;
}

describe('POST /content/migrations: body validation', () => {
  it('rejects an unknown op on its `op` field', async () => {
    const response = await expectInvalidBody(
      {
        name: 'bad-op',
        type: 'post',
        operations: [
          { op: 'rename', from: 'a', to: 'b' },
          { op: 'frobnicate', field: 'a' },
        ],
      },
      { 'body.operations.1.op': expect.stringContaining('must be one of "rename"') },
    );
    expect(Object.keys(response.body.error.details.fields)).toEqual(['body.operations.1.op']);
  });

  it('rejects unknown properties, missing properties and bad paths, per operation', async () => {
    await expectInvalidBody(
      {
        name: 'bad-props',
        type: 'post',
        operations: [
          { op: 'remove', field: 'a', force: true },
          { op: 'set', field: 'a' },
          { op: 'copy', from: 'a..b', to: 'c' },
          { op: 'rename', from: '__proto__', to: 'c' },
        ],
      },
      {
        'body.operations.0.force': expect.stringContaining('is not an allowed property: use "op"'),
        'body.operations.1.value': expect.stringContaining('required'),
        'body.operations.2.from': expect.stringContaining('matching ^'),
        'body.operations.3.from': expect.stringContaining('matching ^'),
      },
    );
  });

  it('rejects a bad name, a missing type, no operations and unknown body properties', async () => {
    await expectInvalidBody(
      { name: 'has spaces', operations: [], extra: 1 },
      {
        'body.name': expect.any(String),
        'body.type': expect.any(String),
        'body.operations': expect.any(String),
        'body.extra': expect.any(String),
      },
    );
  });

  it('rejects a rename or copy onto itself or into itself', async () => {
    await expectInvalidBody(
      {
        name: 'self',
        type: 'post',
        operations: [
          { op: 'rename', from: 'seo', to: 'seo' },
          { op: 'copy', from: 'seo', to: 'seo.copy' },
          { op: 'rename', from: 'seo.description', to: 'seo' },
          { op: 'rename', from: 'seo', to: 'seoCopy' },
        ],
      },
      {
        'body.operations.0.to': expect.any(String),
        'body.operations.1.to': expect.any(String),
        'body.operations.2.to': expect.any(String),
      },
    );
  });

  it('answers SCHEMA_NOT_FOUND for a type the environment does not have', async () => {
    const response = await migrate(t, where, {
      name: 'no-type',
      type: 'recipe',
      operations: [{ op: 'remove', field: 'a' }],
    });
    expect(response.status, response.text).toBe(404);
    expect(response.body.error.code).toBe('SCHEMA_NOT_FOUND');
  });
});

describe('POST /content/migrations: documents that would become invalid', () => {
  it('writes nothing and names the documents and fields that fail their schema', async () => {
    const scope = await newProject(t);
    const good = await createPost(t, scope, { title: 'Keeps a title', slug: 'a' });
    const bad = await createPost(t, scope, { title: 'Loses it', slug: 'b', subtitle: 'x' });
    const eventsBefore = await eventsOf(t, scope);
    const body = {
      name: 'breaks',
      type: 'post',
      operations: [
        { op: 'set', field: 'seo.description', value: 'fine' },
        { op: 'rename', from: 'subtitle', to: 'status' },
      ],
    };
    for (const dryRun of [true, false]) {
      const response = await migrate(t, scope, { ...body, dryRun });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.code).toBe('INVALID_INPUT');
      expect(response.body.error.message).toContain('nothing was written');
      const { details } = response.body.error;
      expect(details.invalidCount).toBe(1);
      expect(details.documents).toEqual([
        {
          documentId: bad.documentId,
          path: bad.path,
          locale: bad.locale,
          fields: {
            'frontmatter.status':
              'operations[1] (rename): already has a value: remove it first, or pass overwrite: true',
          },
        },
      ]);
      expect(Object.keys(details.fields)).toEqual([`documents.${bad.documentId}.frontmatter.status`]);
    }
    const overwrite = await migrate(t, scope, {
      ...body,
      operations: [body.operations[0], { op: 'rename', from: 'subtitle', to: 'status', overwrite: true }],
    });
    expect(overwrite.status, overwrite.text).toBe(400);
    expect(overwrite.body.error.details.fields).toEqual({
      [`documents.${bad.documentId}.frontmatter.status`]: expect.stringContaining('must be one of'),
    });
    expect(await documentRow(t, good.documentId)).toMatchObject({
      draftFrontmatter: good.frontmatter,
      draftRevision: 1,
    });
    expect(await documentRow(t, bad.documentId)).toMatchObject({ draftFrontmatter: bad.frontmatter, draftRevision: 1 });
    expect(await eventsOf(t, scope)).toEqual(eventsBefore);
    expect(await migrationRows(t, scope)).toEqual([]);
    // The name is still free once the operations are fixed.
    const fixed = await migrate(t, scope, { ...body, operations: [{ op: 'remove', field: 'subtitle' }] });
    expect(fixed.status, fixed.text).toBe(200);
  });

  it('checks references as a draft write does', async () => {
    const scope = await newProject(t);
    const author = await createAuthor(t, 'Ada', scope);
    const post = await createPost(t, scope, { slug: 'p' });
    const setAuthor = (value: string) => ({
      name: `author-${value.slice(0, 8)}`,
      type: 'post',
      dryRun: true,
      operations: [{ op: 'set', field: 'author', value }],
    });
    const missing = await migrate(t, scope, setAuthor(post.documentId));
    expect(missing.status, missing.text).toBe(400);
    expect(missing.body.error.details.fields).toEqual({
      [`documents.${post.documentId}.frontmatter.author`]: expect.stringContaining('is a "post" document'),
    });
    const fine = await migrate(t, scope, setAuthor(author));
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.data.sample[0].after.author).toBe(author);
  });

  it('rolls back documents of earlier batches when a later batch holds invalid ones', async () => {
    const scope = await newProject(t);
    // 1000 posts, two full batches of 500 by path; the last 30 hold `seo` as a string, which no
    // operation may write through, and lack `x`.
    await seedPosts(t, scope, 1000, (i) => ({
      title: `Post ${i}`,
      slug: `post-${i}`,
      ...(i < 970 ? { x: 'y' } : { seo: 'plain' }),
    }));
    const failed = await migrate(t, scope, {
      name: 'big',
      type: 'post',
      operations: [{ op: 'set', field: 'seo.description', value: 'd' }],
    });
    expect(failed.status, failed.text).toBe(400);
    expect(failed.body.error.details.invalidCount).toBe(30);
    expect(failed.body.error.details.documents).toHaveLength(20);
    expect(failed.body.error.details.documents[0].path).toBe('bulk/post-0970');
    const touched = await t.db.query(
      `select count(*)::int as n from documents d join projects p on p.id = d.project_id
       where p.slug = $1 and d.draft_revision <> 1`,
      [scope.project],
    );
    expect(touched.rows).toEqual([{ n: 0 }]);
    expect(await eventsOf(t, scope)).toEqual([]);

    const applied = await migrate(t, scope, {
      name: 'big',
      type: 'post',
      operations: [{ op: 'copy', from: 'x', to: 'seo.description' }],
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data).toMatchObject({ matched: 1000, changed: 970, applied: true });
    const migrated = await t.db.query(
      `select count(*)::int as n from documents d join projects p on p.id = d.project_id
       where p.slug = $1 and d.draft_revision = 2 and d.draft_frontmatter #>> '{seo,description}' = 'y'`,
      [scope.project],
    );
    expect(migrated.rows).toEqual([{ n: 970 }]);
    expect((await eventsOf(t, scope)).filter((event) => event.type === 'content.updated')).toHaveLength(970);
  });
});
