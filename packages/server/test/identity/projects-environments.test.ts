import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerOn } from '../support/server-on-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, expectError, signInAs, uniqueSlug } from './identity-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function newProject(): Promise<string> {
  const slug = uniqueSlug();
  expect((await t.request('POST', '/api/v1/projects', { body: { slug } })).status).toBe(201);
  return slug;
}

function createEnvironment(project: string, body: Record<string, unknown>) {
  return t.request('POST', '/api/v1/environments', { project, environment: null, body });
}

describe('projects', () => {
  it('creates a project (201) with every field and environment production as its default', async () => {
    const slug = uniqueSlug('site');
    const created = await t.request('POST', '/api/v1/projects', { body: { slug, name: 'Marketing site' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(['createdAt', 'name', 'slug']);
    expect(created.body.data).toMatchObject({ slug, name: 'Marketing site' });
    const environments = await t.request('GET', '/api/v1/environments', { project: slug, environment: null });
    expect(environments.status).toBe(200);
    expect(environments.body.data).toEqual([
      { name: 'production', extends: null, isDefault: true, createdAt: expect.any(String) },
    ]);
    const named = await t.request('POST', '/api/v1/projects', { body: { slug: uniqueSlug() } });
    expect(named.body.data.name).toBe(named.body.data.slug);
  });

  it('lists projects with every field', async () => {
    const slug = await newProject();
    const listed = await t.request('GET', '/api/v1/projects', { project: null, environment: null });
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((p: { slug: string }) => p.slug === slug);
    expect(Object.keys(entry).sort()).toEqual(['createdAt', 'name', 'slug']);
    expect(listed.body.data.map((p: { slug: string }) => p.slug)).toContain('default');
  });

  it('lists to a user only the projects it has grants in, and all of them to an admin', async () => {
    const slug = await newProject();
    const member = await signInAs(t, { grants: [{ project: slug, environment: 'production', role: 'viewer' }] });
    const mine = await asSession(t.url, member, 'GET', '/api/v1/projects', { project: null, environment: null });
    expect(mine.body.data.map((p: { slug: string }) => p.slug)).toEqual([slug]);
    const admin = await signInAs(t, { role: 'admin' });
    const all = await asSession(t.url, admin, 'GET', '/api/v1/projects', { project: null, environment: null });
    expect(all.body.data.map((p: { slug: string }) => p.slug)).toEqual(expect.arrayContaining(['default', slug]));
  });

  it('rejects taken slugs, malformed slugs and unknown fields', async () => {
    const slug = await newProject();
    const taken = await t.request('POST', '/api/v1/projects', { body: { slug } });
    expectError(taken, 400, 'INVALID_INPUT');
    expect(taken.body.error.details.fields).toEqual({ 'body.slug': 'is already taken' });
    for (const body of [
      { slug: 'Upper' },
      { slug: '-dash' },
      { slug: 'a'.repeat(64) },
      { slug: 'ok', owner: 'x' },
      {},
    ]) {
      expectError(await t.request('POST', '/api/v1/projects', { body }), 400, 'INVALID_INPUT');
    }
    expect((await t.request('POST', '/api/v1/projects', { body: { slug: `${'a'.repeat(62)}b` } })).status).toBe(201);
  });

  it('needs settings:manage', async () => {
    const key = await t.createKey({ scopes: SCOPES.filter((s) => s !== 'settings:manage') });
    expectError(await t.request('POST', '/api/v1/projects', { key, body: { slug: uniqueSlug() } }), 403, 'FORBIDDEN');
  });
});

describe('environments', () => {
  it('creates an environment (201) extending another, with every field', async () => {
    const project = await newProject();
    const created = await createEnvironment(project, { name: 'staging', extends: 'production' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(['createdAt', 'extends', 'isDefault', 'name']);
    expect(created.body.data).toMatchObject({ name: 'staging', extends: 'production', isDefault: false });
    const plain = await createEnvironment(project, { name: 'preview' });
    expect(plain.body.data.extends).toBeNull();
    const listed = await t.request('GET', '/api/v1/environments', { project, environment: null });
    expect(listed.body.data.map((e: { name: string }) => e.name)).toEqual(['production', 'preview', 'staging']);
  });

  it('is usable at once as a routing target', async () => {
    const project = await newProject();
    await createEnvironment(project, { name: 'qa' });
    const me = await t.request('GET', '/api/v1/me', { project, environment: 'qa' });
    expect(me.status).toBe(200);
  });

  it('rejects duplicates, unknown bases, unknown clone sources, bad names and a missing project header', async () => {
    const project = await newProject();
    await createEnvironment(project, { name: 'staging' });
    const duplicate = await createEnvironment(project, { name: 'staging' });
    // A clash with what exists, not a malformed body: it names the field, the environment and the ways out.
    expectError(duplicate, 409, 'CONFLICT');
    expect(duplicate.body.error.details).toEqual({
      fields: { 'body.name': 'already exists in this project: choose another name, or delete or promote into it' },
      project,
      environment: 'staging',
    });
    expect(duplicate.body.error.message).toBe(
      `Environment "staging" already exists in project "${project}": choose another name, or use the existing one ` +
        '(delete it first with `DELETE /api/v1/environments/staging` to start over, or bring content into it with ' +
        '`cms env promote <source> staging`).',
    );
    const base = await createEnvironment(project, { name: 'child', extends: 'nowhere' });
    expect(base.body.error.details.fields).toHaveProperty(['body.extends']);
    const clone = await createEnvironment(project, { name: 'copy', cloneFrom: 'nowhere' });
    expectError(clone, 400, 'INVALID_INPUT');
    expect(clone.body.error.details.fields).toHaveProperty(['body.cloneFrom']);
    for (const name of ['Staging', '*', '', 'a b']) {
      expectError(await createEnvironment(project, { name }), 400, 'INVALID_INPUT');
    }
    const headerless = await t.request('POST', '/api/v1/environments', {
      project: null,
      environment: null,
      body: { name: 'x' },
    });
    expectError(headerless, 400, 'TARGET_REQUIRED');
    expectError(await createEnvironment(uniqueSlug('ghost'), { name: 'x' }), 404, 'PROJECT_NOT_FOUND');
  });

  it('deletes an environment, answering { deleted: true, name }, after which it is gone', async () => {
    const project = await newProject();
    await createEnvironment(project, { name: 'temp' });
    const deleted = await t.request('DELETE', '/api/v1/environments/temp', { project, environment: null });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: true, name: 'temp' });
    expectError(await t.request('GET', '/api/v1/me', { project, environment: 'temp' }), 404, 'ENVIRONMENT_NOT_FOUND');
    const again = await t.request('DELETE', '/api/v1/environments/temp', { project, environment: null });
    expectError(again, 404, 'ENVIRONMENT_NOT_FOUND');
  });

  it('refuses to delete the default environment or one another extends', async () => {
    const project = await newProject();
    await createEnvironment(project, { name: 'base' });
    await createEnvironment(project, { name: 'child', extends: 'base' });
    const remove = (name: string) =>
      t.request('DELETE', `/api/v1/environments/${name}`, { project, environment: null });
    const defaultOne = await remove('production');
    expectError(defaultOne, 400, 'INVALID_INPUT');
    expect(defaultOne.body.error.details.fields['params.name']).toMatch(/default/);
    const extended = await remove('base');
    expectError(extended, 400, 'INVALID_INPUT');
    expect(extended.body.error.details.fields['params.name']).toMatch(/child/);
    expect((await remove('child')).status).toBe(200);
    expect((await remove('base')).status).toBe(200);
    expectError(await remove('Bad_Name'), 400, 'INVALID_INPUT');
  });

  it('needs settings:manage in the project: project admins may, editors may not', async () => {
    const project = await newProject();
    const projectAdmin = await signInAs(t, { grants: [{ project, environment: '*', role: 'admin' }] });
    const editor = await signInAs(t, { grants: [{ project, environment: '*', role: 'editor' }] });
    const body = { name: 'by-admin' };
    const options = { project, environment: null, body };
    expectError(await asSession(t.url, editor, 'POST', '/api/v1/environments', options), 403, 'FORBIDDEN');
    expect((await asSession(t.url, projectAdmin, 'POST', '/api/v1/environments', options)).status).toBe(201);
    const removed = await asSession(t.url, projectAdmin, 'DELETE', '/api/v1/environments/by-admin', {
      project,
      environment: null,
    });
    expect(removed.status).toBe(200);
  });

  it('lets a key limited to one environment delete neither another nor learn whether it exists', async () => {
    const project = await newProject();
    await createEnvironment(project, { name: 'staging' });
    const key = await t.createKey({ allowlist: [{ project, environment: 'staging' }] });
    const existing = await t.request('DELETE', '/api/v1/environments/production', { key, project, environment: null });
    const missing = await t.request('DELETE', '/api/v1/environments/nowhere', { key, project, environment: null });
    expectError(existing, 403, 'FORBIDDEN');
    expectError(missing, 403, 'FORBIDDEN');
    expect(existing.body.error.message).toBe(missing.body.error.message);
  });

  it('is forgotten by another server process that had it cached, as soon as it is deleted', async () => {
    const project = await newProject();
    await createEnvironment(project, { name: 'cached' });
    const other = await startServerOn(t.database, { ownConnection: true, key: t.adminKey });
    try {
      expect((await other.request('GET', '/api/v1/me', { project, environment: 'cached' })).status).toBe(200);
      await t.request('DELETE', '/api/v1/environments/cached', { project, environment: null });
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 404; attempt += 1) {
        status = (await other.request('GET', '/api/v1/me', { project, environment: 'cached' })).status;
        if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
