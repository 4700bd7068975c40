import { STUDIO_CONTRIBUTION_KINDS, STUDIO_SLOTS } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, signInAs } from '../identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

type Extension = { kind: string; module: string; id: string; slot?: string; component?: string; path?: string };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const idsOf = (list: Extension[]) => list.map((e) => e.id).sort();

describe('Studio contributions in GET /api/v1/studio/bootstrap', () => {
  it('hands an administrator every first-party contribution, tagged with kind and module', async () => {
    const response = await t.request('GET', '/api/v1/studio/bootstrap', { environment: null });
    expect(response.status, response.text).toBe(200);
    const extensions = response.body.data.extensions as Extension[];
    // At least one of every kind and one in every slot.
    expect(new Set(extensions.map((e) => e.kind))).toEqual(new Set(STUDIO_CONTRIBUTION_KINDS));
    const slots = new Set(extensions.filter((e) => e.slot).map((e) => e.slot));
    for (const slot of STUDIO_SLOTS) expect(slots).toContain(slot);
    expect(extensions.find((e) => e.id === 'content.mediaRoute')).toEqual({
      kind: 'routes',
      module: 'domain.content',
      id: 'content.mediaRoute',
      path: '/media',
      title: 'Media library',
      component: 'media.library',
      permissions: ['media:read'],
    });
    expect(extensions.find((e) => e.id === 'system.apiKeys')).toMatchObject({
      kind: 'settingsPanels',
      module: 'core.system',
      slot: 'settings.general',
      path: '/settings/api-keys',
      component: 'apiKeys.page',
    });
    const panels = extensions.filter((e) => e.kind === 'settingsPanels').map((e) => e.path);
    expect(panels).toEqual(['/settings/project', '/settings/webhooks', '/settings/api-keys', '/settings/people']);
  });

  it('leaves out what the caller may not do in the active project', async () => {
    const admin = await t.request('GET', '/api/v1/studio/bootstrap', { environment: null });
    const all = idsOf(admin.body.data.extensions);
    const viewer = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'viewer' }] });
    const seen = await asSession(t.url, viewer, 'GET', '/api/v1/studio/bootstrap', { environment: null });
    expect(seen.status, seen.text).toBe(200);
    const ids = idsOf(seen.body.data.extensions);
    for (const hidden of ['system.apiKeys', 'system.people', 'content.webhooks', 'content.publishOverride']) {
      expect(all).toContain(hidden);
      expect(ids).not.toContain(hidden);
    }
    for (const shown of [
      'content.mediaRoute',
      'content.schemaRoute',
      'content.projectSettings',
      'content.previewWidget',
    ]) {
      expect(ids).toContain(shown);
    }
    const editor = await signInAs(t, { grants: [{ project: 'default', environment: '*', role: 'editor' }] });
    const editorIds = idsOf(
      (await asSession(t.url, editor, 'GET', '/api/v1/studio/bootstrap', { environment: null })).body.data.extensions,
    );
    expect(editorIds).toContain('content.publishOverride');
    expect(editorIds).not.toContain('system.people');
  });

  it('judges a key by its scopes', async () => {
    const key = await t.createKey({ scopes: ['content:read'], allowlist: [{ project: 'default', environment: '*' }] });
    const response = await t.request('GET', '/api/v1/studio/bootstrap', { key, environment: null });
    const ids = idsOf(response.body.data.extensions);
    expect(ids).toContain('content.environmentsRoute');
    expect(ids).not.toContain('content.mediaRoute');
    expect(ids).not.toContain('content.schemaRoute');
  });
});
