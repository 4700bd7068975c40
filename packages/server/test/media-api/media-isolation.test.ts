import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileUrl, type MediaTestServer, startMediaServer, uploadOk } from './media-api-support.js';

let m: MediaTestServer;
const ids = { project: '', production: '', staging: '', otherProject: '', otherProduction: '' };
// One asset per target: default/production, default/staging, other/production.
let prod: any;
let staging: any;
let other: any;

const DEFAULT_PROD = { project: 'default', environment: 'production' };
const DEFAULT_STAGING = { project: 'default', environment: 'staging' };
const OTHER_PROD = { project: 'other', environment: 'production' };

beforeAll(async () => {
  m = await startMediaServer('fs');
  const { db } = m.t;
  const found = await db.query<{ projectId: string; environmentId: string }>(
    `select p.id as "projectId", e.id as "environmentId" from projects p join environments e on e.project_id = p.id
     where p.slug = 'default' and e.name = 'production'`,
  );
  ids.project = found.rows[0]!.projectId;
  ids.production = found.rows[0]!.environmentId;
  ids.staging = randomUUID();
  ids.otherProject = randomUUID();
  ids.otherProduction = randomUUID();
  await db.query(`insert into environments (id, project_id, name, extends_id) values ($1, $2, 'staging', $3)`, [
    ids.staging,
    ids.project,
    ids.production,
  ]);
  await db.query(`insert into projects (id, slug, name) values ($1, 'other', 'Other')`, [ids.otherProject]);
  await db.query(`insert into environments (id, project_id, name, is_default) values ($1, $2, 'production', true)`, [
    ids.otherProduction,
    ids.otherProject,
  ]);
  prod = await uploadOk(m.t, { filename: 'same-name.txt', content: 'production' }, DEFAULT_PROD);
  staging = await uploadOk(m.t, { filename: 'same-name.txt', content: 'staging' }, DEFAULT_STAGING);
  other = await uploadOk(m.t, { filename: 'same-name.txt', content: 'other project' }, OTHER_PROD);
});
afterAll(() => m?.close());

describe('media isolation between projects and environments', () => {
  it('stores each upload under its own project and environment', async () => {
    expect(prod).toMatchObject({ project: 'default', environment: 'production' });
    expect(staging).toMatchObject({ project: 'default', environment: 'staging' });
    expect(other).toMatchObject({ project: 'other', environment: 'production' });
    expect(new URL(prod.url).pathname).toBe(`/media/${ids.project}/${ids.production}/${prod.id}/same-name.txt`);
    expect(new URL(staging.url).pathname).toBe(`/media/${ids.project}/${ids.staging}/${staging.id}/same-name.txt`);
    expect(new URL(other.url).pathname).toBe(
      `/media/${ids.otherProject}/${ids.otherProduction}/${other.id}/same-name.txt`,
    );
    expect(await m.storedKeys()).toEqual(
      [
        `${ids.project}/${ids.production}/${prod.id}/same-name.txt`,
        `${ids.project}/${ids.staging}/${staging.id}/same-name.txt`,
        `${ids.otherProject}/${ids.otherProduction}/${other.id}/same-name.txt`,
      ].sort(),
    );
  });

  it('lists only the media of the target', async () => {
    for (const [target, asset] of [
      [DEFAULT_PROD, prod],
      [DEFAULT_STAGING, staging],
      [OTHER_PROD, other],
    ] as const) {
      const listed = await m.t.request('GET', '/api/v1/media', target);
      expect(listed.body.data.map((a: any) => a.id)).toEqual([asset.id]);
      expect(listed.body.pagination.total).toBe(1);
      const searched = await m.t.request('GET', '/api/v1/media?q=same&category=document', target);
      expect(searched.body.data.map((a: any) => a.id)).toEqual([asset.id]);
    }
  });

  it('reads and deletes nothing through another project or environment', async () => {
    for (const target of [DEFAULT_STAGING, OTHER_PROD]) {
      const got = await m.t.request('GET', `/api/v1/media/${prod.id}`, target);
      expect(got.status).toBe(404);
      expect(got.body.error.code).toBe('NOT_FOUND');
      const deleted = await m.t.request('DELETE', `/api/v1/media/${prod.id}`, target);
      expect(deleted.status).toBe(404);
    }
    expect((await m.t.request('GET', `/api/v1/media/${prod.id}`, DEFAULT_PROD)).status).toBe(200);
    expect(await (await fetch(fileUrl(m.t, prod))).text()).toBe('production');
  });

  it('serves a file only under its own project and environment ids', async () => {
    expect(await (await fetch(fileUrl(m.t, staging))).text()).toBe('staging');
    expect(await (await fetch(fileUrl(m.t, other))).text()).toBe('other project');
    for (const wrong of [
      `/media/${ids.project}/${ids.staging}/${prod.id}/same-name.txt`,
      `/media/${ids.otherProject}/${ids.otherProduction}/${prod.id}/same-name.txt`,
      `/media/${ids.otherProject}/${ids.production}/${prod.id}/same-name.txt`,
      `/media/${ids.project}/${ids.otherProduction}/${other.id}/same-name.txt`,
    ]) {
      expect((await fetch(`${m.t.url}${wrong}`)).status, wrong).toBe(404);
    }
  });

  it('keeps a key restricted to one environment out of the others', async () => {
    const key = await m.t.createKey({
      scopes: ['media:read', 'media:upload', 'media:delete'],
      allowlist: [{ project: 'default', environment: 'staging' }],
    });
    const own = await m.t.request('GET', '/api/v1/media', { key, ...DEFAULT_STAGING });
    expect(own.body.data.map((a: any) => a.id)).toEqual([staging.id]);
    for (const target of [DEFAULT_PROD, OTHER_PROD]) {
      expect((await m.t.request('GET', '/api/v1/media', { key, ...target })).status).toBe(403);
      expect((await m.t.request('GET', `/api/v1/media/${prod.id}`, { key, ...target })).status).toBe(403);
      expect((await m.t.request('DELETE', `/api/v1/media/${prod.id}`, { key, ...target })).status).toBe(403);
    }
  });

  it('records each upload event for its own project and environment', async () => {
    const { rows } = await m.t.db.query<{ projectId: string; environmentId: string; payload: any }>(
      `select project_id as "projectId", environment_id as "environmentId", payload from outbox_events
       where type = 'media.uploaded' order by seq`,
    );
    expect(rows.map((row) => [row.projectId, row.environmentId, row.payload.project, row.payload.environment])).toEqual(
      [
        [ids.project, ids.production, 'default', 'production'],
        [ids.project, ids.staging, 'default', 'staging'],
        [ids.otherProject, ids.otherProduction, 'other', 'production'],
      ],
    );
    expect(rows.map((row) => row.payload.media.id)).toEqual([prod.id, staging.id, other.id]);
  });
});
