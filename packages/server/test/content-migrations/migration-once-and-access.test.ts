import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  createPost,
  documentRow,
  eventsOf,
  migrate,
  migrationRows,
  newEnvironment,
  newProject,
} from './migration-fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const body = { name: 'add-noindex', type: 'post', operations: [{ op: 'set', field: 'seo.noindex', value: true }] };

describe('POST /content/migrations: a name applies once per environment', () => {
  it('refuses to apply a name again, and a dry run of it says so', async () => {
    const where = await newProject(t);
    const doc = await createPost(t, where);
    const first = await migrate(t, where, body);
    expect(first.status, first.text).toBe(200);

    for (const dryRun of [false, true]) {
      const again = await migrate(t, where, { ...body, dryRun });
      expect(again.status, again.text).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
      expect(again.body.error.message).toContain('already applied');
      expect(again.body.error.details).toEqual({
        name: 'add-noindex',
        type: 'post',
        appliedAt: expect.any(String),
        appliedBy: doc.createdBy,
        matched: 1,
        changed: 1,
      });
    }
    // Also with other operations: the name is what counts.
    const other = await migrate(t, where, { ...body, operations: [{ op: 'remove', field: 'seo' }] });
    expect(other.status, other.text).toBe(409);
    expect(await documentRow(t, doc.documentId)).toMatchObject({ draftRevision: 2 });
  });

  it('lets exactly one of several concurrent applications of a name win', async () => {
    const where = await newProject(t);
    const docs = [];
    for (let i = 0; i < 5; i += 1) docs.push(await createPost(t, where));
    const before = (await eventsOf(t, where)).length;
    const responses = await Promise.all(Array.from({ length: 4 }, () => migrate(t, where, body)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses, responses.map((response) => response.text).join('\n')).toEqual([200, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body.error.code).toBe('CONFLICT');
    }
    for (const doc of docs) expect(await documentRow(t, doc.documentId)).toMatchObject({ draftRevision: 2 });
    expect((await eventsOf(t, where)).length - before).toBe(5);
    expect(await migrationRows(t, where)).toHaveLength(1);
  });
});

describe('POST /content/migrations: access and tenancy', () => {
  it('needs content:write: other keys get FORBIDDEN and nothing changes', async () => {
    const where = await newProject(t);
    const doc = await createPost(t, where);
    const key = await t.createKey({ scopes: ['content:read', 'content:read:draft', 'content:write:draft'] });
    for (const dryRun of [true, false]) {
      const response = await migrate(t, where, { ...body, dryRun }, key);
      expect(response.status, response.text).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
    }
    const elsewhere = await t.createKey({
      scopes: ['content:write'],
      allowlist: [{ project: where.project, environment: 'staging' }],
    });
    const outside = await migrate(t, where, body, elsewhere);
    expect(outside.status, outside.text).toBe(403);
    expect(await documentRow(t, doc.documentId)).toMatchObject({ draftRevision: 1 });
    expect(await migrationRows(t, where)).toEqual([]);
  });

  it('needs both routing headers', async () => {
    const where = await newProject(t);
    const response = await migrate(t, { project: where.project, environment: null as unknown as string }, body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('TARGET_REQUIRED');
  });

  it('touches only the target environment; the same name applies separately in each', async () => {
    const production = await newProject(t);
    const staging = await newEnvironment(t, production.project, 'staging');
    const other = await newProject(t);
    const inProduction = await createPost(t, production);
    const inStaging = await createPost(t, staging);
    const inOther = await createPost(t, other);
    const productionEvents = await eventsOf(t, production);
    const otherEvents = await eventsOf(t, other);

    const response = await migrate(t, staging, body);
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toMatchObject({ matched: 1, changed: 1 });
    expect(response.body.data.sample.map((item: { documentId: string }) => item.documentId)).toEqual([
      inStaging.documentId,
    ]);
    expect(await documentRow(t, inStaging.documentId)).toMatchObject({ draftRevision: 2 });
    expect(await documentRow(t, inProduction.documentId)).toMatchObject({
      draftRevision: 1,
      draftFrontmatter: inProduction.frontmatter,
    });
    expect(await documentRow(t, inOther.documentId)).toMatchObject({ draftRevision: 1 });
    expect(await eventsOf(t, production)).toEqual(productionEvents);
    expect(await eventsOf(t, other)).toEqual(otherEvents);
    expect(await migrationRows(t, production)).toEqual([]);

    const inProductionToo = await migrate(t, production, body);
    expect(inProductionToo.status, inProductionToo.text).toBe(200);
    expect(await documentRow(t, inProduction.documentId)).toMatchObject({ draftRevision: 2 });
  });
});

describe('action catalog', () => {
  it('lists content.migrate with its schemas and CLI alias', async () => {
    const where = await newProject(t);
    const response = await t.request('GET', '/api/v1/actions', where);
    expect(response.status, response.text).toBe(200);
    const action = response.body.data.find((item: { id: string }) => item.id === 'content.migrate');
    expect(action).toMatchObject({
      kind: 'command',
      method: 'POST',
      path: '/api/v1/content/migrations',
      permissions: ['content:write'],
      cli: { alias: 'content migrate' },
      requestSchema: { properties: { body: { required: ['name', 'type', 'operations'] } } },
    });
    const openapi = await t.request('GET', '/api/v1/openapi.json', where);
    expect(openapi.body.paths['/api/v1/content/migrations'].post.operationId).toBe('content.migrate');
  });
});
