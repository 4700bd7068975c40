import { SCOPES } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG, upload } from '../media-api/media-api-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { asSession, expectError, signInAs, uniqueSlug } from './identity-helpers.js';

/** The image transform settings of a project that sets none. */
/** The optional settings (images, live preview) of a project that sets none. */
const UNSET_IMAGE_SETTINGS = {
  mediaImagePresets: null,
  mediaImageMaxDimension: null,
  mediaImageMaxInputPixels: null,
  previewUrl: null,
  previewUrls: null,
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const settingsOf = (project: string, key?: string) =>
  t.request('GET', '/api/v1/settings', { project, environment: null, ...(key ? { key } : {}) });
const putSettings = (project: string, body: unknown, key?: string) =>
  t.request('PUT', '/api/v1/settings', { project, environment: null, body, ...(key ? { key } : {}) });

async function newProject(): Promise<string> {
  const slug = uniqueSlug();
  expect((await t.request('POST', '/api/v1/projects', { body: { slug } })).status).toBe(201);
  return slug;
}

describe('project settings', () => {
  it('reads every setting, null when not set', async () => {
    const project = await newProject();
    const read = await settingsOf(project);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: null });
  });

  it('sets and clears the image upload limit, which applies to the next upload', async () => {
    const set = await putSettings('default', { mediaImageMaxBytes: 1000 });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: 1000 });
    expect((await settingsOf('default')).body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: 1000 });
    const image = Buffer.concat([PNG, Buffer.alloc(2000, 0x20)]);
    const refused = await upload(t, { filename: 'big.png', content: image });
    expect(refused.status).toBe(413);
    expect(refused.body.error.details).toMatchObject({ maxBytes: 1000 });

    const cleared = await putSettings('default', { mediaImageMaxBytes: null });
    expect(cleared.body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: null });
    const stored = await t.db.query<{ settings: Record<string, unknown> }>(
      "select settings from projects where slug = 'default'",
    );
    expect(stored.rows[0]?.settings).not.toHaveProperty('mediaImageMaxBytes');
    expect((await upload(t, { filename: 'big.png', content: image })).status).toBe(201);
  });

  it('keeps each project to its own settings', async () => {
    const [a, b] = [await newProject(), await newProject()];
    await putSettings(a, { mediaImageMaxBytes: 5000 });
    expect((await settingsOf(a)).body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: 5000 });
    expect((await settingsOf(b)).body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: null });
  });

  it.each([
    ['zero', { mediaImageMaxBytes: 0 }, 'body.mediaImageMaxBytes'],
    ['a fraction', { mediaImageMaxBytes: 1.5 }, 'body.mediaImageMaxBytes'],
    ['a negative number', { mediaImageMaxBytes: -5 }, 'body.mediaImageMaxBytes'],
    ['an unknown setting', { mediaImageMaxBytes: 1, theme: 'dark' }, 'body.theme'],
    ['a missing setting', {}, 'body.mediaImageMaxBytes'],
    // Every key of a map is checked, and so is its value (a key its pattern missed skipped both).
    [
      'a preset name with capitals',
      { mediaImageMaxBytes: null, mediaImagePresets: { Card: { w: 1 } } },
      'body.mediaImagePresets.Card',
    ],
    [
      'a preset name with a line break',
      { mediaImageMaxBytes: null, mediaImagePresets: { 'card\n': 5 } },
      'body.mediaImagePresets.card\n',
    ],
    [
      'a preset that is not a transform',
      { mediaImageMaxBytes: null, mediaImagePresets: { card: 5 } },
      'body.mediaImagePresets.card',
    ],
  ])('rejects %s with INVALID_INPUT and writes nothing', async (_name, body, field) => {
    const project = await newProject();
    const response = await putSettings(project, body);
    expectError(response, 400, 'INVALID_INPUT');
    expect(Object.keys(response.body.error.details.fields)).toContain(field);
    expect((await settingsOf(project)).body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: null });
  });

  it('needs settings:manage in the project to change, and access to the project to read', async () => {
    const project = await newProject();
    const reader = await t.createKey({
      scopes: SCOPES.filter((scope) => scope !== 'settings:manage'),
      allowlist: [{ project, environment: '*' }],
    });
    expect((await settingsOf(project, reader)).status).toBe(200);
    expectError(await putSettings(project, { mediaImageMaxBytes: 10 }, reader), 403, 'FORBIDDEN');
    const outsider = await t.createKey({
      scopes: [...SCOPES],
      allowlist: [{ project: 'default', environment: '*' }],
    });
    expectError(await settingsOf(project, outsider), 403, 'FORBIDDEN');
    expectError(await putSettings(project, { mediaImageMaxBytes: 10 }, outsider), 403, 'FORBIDDEN');
    // A project admin (not an instance admin) manages its own project's settings.
    const admin = await signInAs(t, { grants: [{ project, environment: '*', role: 'admin' }] });
    const byAdmin = await asSession(t.url, admin, 'PUT', '/api/v1/settings', {
      project,
      environment: null,
      body: { mediaImageMaxBytes: 10 },
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect((await settingsOf(project)).body.data).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: 10 });
  });

  it('PATCH changes only the settings it names; the others keep their values', async () => {
    const project = await newProject();
    const patch = (body: unknown, key?: string) =>
      t.request('PATCH', '/api/v1/settings', { project, environment: null, body, ...(key ? { key } : {}) });
    expect((await putSettings(project, { mediaImageMaxBytes: 5000, mediaImageMaxDimension: 800 })).status).toBe(200);
    const preview = await patch({ previewUrl: 'https://example.com/{path}?token={token}' });
    expect(preview.status, preview.text).toBe(200);
    const expected = {
      ...UNSET_IMAGE_SETTINGS,
      mediaImageMaxBytes: 5000,
      mediaImageMaxDimension: 800,
      previewUrl: 'https://example.com/{path}?token={token}',
    };
    expect(preview.body.data).toEqual(expected);
    expect((await settingsOf(project)).body.data).toEqual(expected);
    // null unsets the one setting named.
    const unset = await patch({ mediaImageMaxBytes: null });
    expect(unset.body.data).toEqual({ ...expected, mediaImageMaxBytes: null });

    const bad = await patch({ previewUrl: 'ftp://x/{path}', theme: 'dark' });
    expectError(bad, 400, 'INVALID_INPUT');
    expect(Object.keys(bad.body.error.details.fields)).toContain('body.theme');
    const invalid = await patch({ previewUrl: 'ftp://x/{path}' });
    expectError(invalid, 400, 'INVALID_INPUT');
    expect(Object.keys(invalid.body.error.details.fields)).toEqual(['body.previewUrl']);
    expect((await settingsOf(project)).body.data).toEqual({ ...expected, mediaImageMaxBytes: null });

    const reader = await t.createKey({
      scopes: SCOPES.filter((scope) => scope !== 'settings:manage'),
      allowlist: [{ project, environment: '*' }],
    });
    expectError(await patch({ previewUrl: null }, reader), 403, 'FORBIDDEN');
  });

  it('needs the X-CMS-Project header', async () => {
    expectError(
      await t.request('GET', '/api/v1/settings', { project: null, environment: null }),
      400,
      'TARGET_REQUIRED',
    );
  });
});
