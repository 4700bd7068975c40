/**
 * `GET /content/migrations/{name}`: what a client whose `POST` got no answer in time asks until the
 * migration's transaction commits (docs/api.md "Content migrations"). NOT_FOUND before, for a dry run,
 * for a refused migration, in another environment or project; the record with its counts after.
 */
import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createPost, migrate, newEnvironment, newProject, type Where } from './migration-fixtures.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const operations = [{ op: 'set', field: 'seo.noindex', value: true }];
const record = (where: Where, name: string, key?: string) =>
  t.request('GET', `/api/v1/content/migrations/${name}`, { ...where, ...(key ? { key } : {}) });

describe('GET /content/migrations/{name}', () => {
  it('answers NOT_FOUND until the migration is applied, then its record; a dry run records nothing', async () => {
    const where = await newProject(t);
    await createPost(t, where, { title: 'A' });
    await createPost(t, where, { title: 'B', seo: { noindex: true } });
    const before = await record(where, 'noindex-all');
    expect(before.status).toBe(404);
    expect(before.body.error.code).toBe('NOT_FOUND');
    expect(before.body.error.message).toContain('noindex-all');

    expect((await migrate(t, where, { name: 'noindex-all', type: 'post', operations, dryRun: true })).status).toBe(200);
    expect((await record(where, 'noindex-all')).status).toBe(404);

    const applied = await migrate(t, where, { name: 'noindex-all', type: 'post', operations });
    expect(applied.status, applied.text).toBe(200);
    const after = await record(where, 'noindex-all');
    expect(after.status, after.text).toBe(200);
    expect(after.body.data).toEqual({
      name: 'noindex-all',
      type: 'post',
      operations: [{ op: 'set', field: 'seo.noindex', value: true, onlyIfMissing: false }],
      matched: 2,
      changed: applied.body.data.changed,
      appliedAt: expect.any(String),
      appliedBy: expect.any(String),
    });
    expect(applied.body.data.changed).toBe(1);
  });

  it('keeps each environment and project to its own records, refuses a bad name, and needs content:write', async () => {
    const where = await newProject(t);
    await createPost(t, where);
    expect((await migrate(t, where, { name: 'once', type: 'post', operations })).status).toBe(200);
    const other = await newEnvironment(t, where.project, 'staging');
    expect((await record(other, 'once')).status).toBe(404);
    expect((await record(await newProject(t), 'once')).status).toBe(404);

    const bad = await record(where, '-bad');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_INPUT');

    const reader = await t.createKey({
      scopes: SCOPES.filter((scope) => scope !== 'content:write'),
      allowlist: [{ project: where.project, environment: '*' }],
    });
    const refused = await record(where, 'once', reader);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });
});
