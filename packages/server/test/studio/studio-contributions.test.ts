import type { StudioContributions } from '@cms/core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { FIRST_PARTY_MODULES } from '../../src/modules/first-party.js';
import { loadModules, ModuleValidationError } from '../../src/modules/loader.js';
import type { ServerModule } from '../../src/modules/module-types.js';
import { createServer } from '../../src/server.js';

/** A module that contributes only `studio`, after core.system. */
function contributing(id: string, studio: unknown): ServerModule {
  return {
    manifest: { id, version: '1.0.0', apiVersion: '1', dependsOn: ['core.system'] },
    studio: studio as StudioContributions,
    setup: () => ({}),
  };
}

function rejection(modules: ServerModule[]): ModuleValidationError {
  try {
    loadModules(modules);
  } catch (error) {
    expect(error).toBeInstanceOf(ModuleValidationError);
    return error as ModuleValidationError;
  }
  throw new Error('the modules were accepted');
}

function expectRefused(studio: unknown, message: RegExp) {
  const error = rejection([...FIRST_PARTY_MODULES, contributing('test.studio', studio)]);
  expect(error.moduleId).toBe('test.studio');
  expect(error.message).toMatch(/^Module "test\.studio" cannot be loaded: /);
  expect(error.message).toMatch(message);
}

const widget = { id: 'test.widget', slot: 'dashboard.main', title: 'Test', component: 'test.widget' };
const route = { id: 'test.route', path: '/reports', title: 'Reports', component: 'test.reports' };

describe('Studio contributions at start', () => {
  it('accepts the first-party contributions', () => {
    expect(loadModules(FIRST_PARTY_MODULES).map((m) => m.manifest.id)).toEqual(['core.system', 'domain.content']);
  });

  it('accepts a valid contribution of every kind from another module', () => {
    const modules = loadModules([
      ...FIRST_PARTY_MODULES,
      contributing('test.studio', {
        routes: [route],
        navItems: [{ id: 'test.nav', label: 'Reports', to: '/reports' }],
        slotWidgets: [widget],
        fieldKinds: [{ id: 'test.field', fieldKind: 'date', component: 'test.date' }],
        editorNodes: [{ id: 'test.node', label: 'Insert chart', formats: ['mdx'], component: 'test.chart' }],
        actionOverrides: [{ id: 'test.delete', action: 'content.delete', component: 'test.delete' }],
        settingsPanels: [
          {
            id: 'test.panel',
            slot: 'settings.general',
            path: '/settings/reports',
            label: 'Reports',
            component: 'test.p',
          },
        ],
      }),
    ]);
    expect(modules.map((m) => m.manifest.id)).toContain('test.studio');
  });

  it('refuses an unknown kind or slot, naming module and contribution', () => {
    expectRefused({ sidebars: [widget] }, /Studio contribution kind "sidebars" is unknown: use routes, navItems/);
    expectRefused(
      { slotWidgets: [{ ...widget, slot: 'dashboard.side' }] },
      /slotWidgets "test\.widget" names the unknown slot "dashboard\.side": use dashboard\.main, content\.list\.toolbar/,
    );
    expectRefused(
      {
        settingsPanels: [
          { id: 'test.panel', slot: 'settings.advanced', path: '/settings/x', label: 'X', component: 'a.b' },
        ],
      },
      /settingsPanels "test\.panel" names the unknown slot "settings\.advanced"/,
    );
  });

  it('refuses a contribution of the wrong shape with what is wrong', () => {
    expectRefused(
      { slotWidgets: [{ ...widget, component: 'NotAnId' }] },
      /slotWidgets "test\.widget": component must be/,
    );
    expectRefused(
      { slotWidgets: [{ id: 'test.widget', slot: 'dashboard.main', title: 'T' }] },
      /component is required/,
    );
    expectRefused({ routes: [{ ...route, colour: 'red' }] }, /routes "test\.route": colour is not an allowed property/);
    expectRefused({ routes: route }, /Studio contributions "routes" must be a list/);
    expectRefused(
      { slotWidgets: [{ ...widget, permissions: ['everything'] }] },
      /requires the unknown permission "everything"/,
    );
    expectRefused(
      { actionOverrides: [{ id: 'test.o', action: 'content.explode', component: 'test.o' }] },
      /actionOverrides "test\.o" overrides the unknown action "content\.explode"/,
    );
  });

  it('refuses a duplicate id, also against another module', () => {
    expectRefused(
      { slotWidgets: [widget, { ...widget, slot: 'settings.general' }] },
      /slotWidgets "test\.widget" has the id of a contribution of "test\.studio"/,
    );
    expectRefused(
      { slotWidgets: [{ ...widget, id: 'content.recentChangesWidget' }] },
      /has the id of a contribution of "domain\.content"; ids must be unique/,
    );
  });

  it('refuses a route whose path clashes with another route or a Studio page', () => {
    expectRefused(
      { routes: [{ ...route, path: '/media' }] },
      /routes "test\.route" takes the path \/media of routes "content\.mediaRoute" \("domain\.content"\)/,
    );
    expectRefused(
      { routes: [{ ...route, path: '/content/reports' }] },
      /takes the Studio's own path \/content\/reports/,
    );
    expectRefused(
      {
        settingsPanels: [
          { id: 'test.panel', slot: 'settings.general', path: '/settings/webhooks', label: 'W', component: 'a.b' },
        ],
      },
      /settingsPanels "test\.panel" takes the path \/settings\/webhooks of settingsPanels "content\.webhooks"/,
    );
    expectRefused(
      {
        settingsPanels: [
          { id: 'test.panel', slot: 'settings.general', path: '/reports', label: 'R', component: 'a.b' },
        ],
      },
      /must have a path under \/settings\//,
    );
  });

  it('refuses a nav item that points at no route', () => {
    expectRefused(
      { navItems: [{ id: 'test.nav', label: 'Reports', to: '/reports' }] },
      /navItems "test\.nav" points at \/reports, which no route or settings panel provides/,
    );
  });

  it('makes the server refuse to start', async () => {
    const config = loadConfig({ CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
    await expect(
      createServer(config, {
        modules: [
          ...FIRST_PARTY_MODULES,
          contributing('broken.studio', { slotWidgets: [{ ...widget, slot: 'nowhere' }] }),
        ],
      }),
    ).rejects.toThrow(
      /Module "broken\.studio" cannot be loaded: Studio contribution slotWidgets "test\.widget" names the unknown slot "nowhere"/,
    );
  });
});
