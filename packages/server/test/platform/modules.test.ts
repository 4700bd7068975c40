import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { FIRST_PARTY_MODULES } from '../../src/modules/first-party.js';
import { loadModules, ModuleValidationError } from '../../src/modules/loader.js';
import type { ModuleManifest, ServerModule } from '../../src/modules/module-types.js';
import { createServer } from '../../src/server.js';
import { probeModule } from '../support/probe-module.js';
import { createTestDatabase } from '../support/test-database.js';
import { startTestServer } from '../support/test-server.js';

function mod(manifest: Partial<ModuleManifest> & { id: string }, onSetup?: () => void): ServerModule {
  return {
    manifest: { version: '1.0.0', apiVersion: '1', ...manifest } as ModuleManifest,
    setup: () => {
      onSetup?.();
      return {};
    },
  };
}

function expectRejected(modules: ServerModule[], moduleId: string, reason: RegExp) {
  let caught: unknown;
  try {
    loadModules(modules);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ModuleValidationError);
  expect((caught as ModuleValidationError).moduleId).toBe(moduleId);
  expect((caught as ModuleValidationError).message).toMatch(reason);
}

describe('module validation', () => {
  it('rejects a manifest with a bad id, version, apiVersion or kind', () => {
    expectRejected([mod({ id: 'NoDots' })], 'NoDots', /id must be dotted/);
    expectRejected([mod({ id: 'a.b', version: 'one' })], 'a.b', /not a semantic version/);
    expectRejected([mod({ id: 'a.b', apiVersion: '2' as '1' })], 'a.b', /apiVersion must be "1"/);
    expectRejected([mod({ id: 'a.b', kind: 'plugin' as 'core' })], 'a.b', /kind "plugin" is unknown/);
    expectRejected([{ setup: () => ({}) } as unknown as ServerModule], '(unnamed)', /manifest is missing/);
  });

  it('rejects a module whose core version range excludes this server', () => {
    expectRejected([mod({ id: 'a.b', minCoreVersion: '9.0.0' })], 'a.b', /needs core 9\.0\.0 or later/);
    expectRejected([mod({ id: 'a.b', maxCoreVersion: '0.9.0' })], 'a.b', /supports core up to 0\.9\.0/);
  });

  it('rejects a missing dependency, a self-dependency, a duplicate id and a cycle', () => {
    expectRejected([mod({ id: 'a.b', dependsOn: ['x.y'] })], 'a.b', /depends on "x\.y", which is not installed/);
    expectRejected([mod({ id: 'a.b', dependsOn: ['a.b'] })], 'a.b', /depends on itself/);
    expectRejected([mod({ id: 'a.b' }), mod({ id: 'a.b' })], 'a.b', /same id/);
    expectRejected(
      [
        mod({ id: 'a.a', dependsOn: ['c.c'] }),
        mod({ id: 'b.b', dependsOn: ['a.a'] }),
        mod({ id: 'c.c', dependsOn: ['b.b'] }),
      ],
      'a.a',
      /dependency cycle among a\.a, b\.b, c\.c/,
    );
  });

  it('orders by dependencies, then by id, whatever the input order', () => {
    const modules = [
      mod({ id: 'z.last' }),
      mod({ id: 'm.mid', dependsOn: ['z.last'] }),
      mod({ id: 'a.first' }),
      mod({ id: 'b.second', dependsOn: ['a.first'] }),
    ];
    const expected = ['a.first', 'b.second', 'z.last', 'm.mid'];
    expect(loadModules(modules).map((m) => m.manifest.id)).toEqual(expected);
    expect(loadModules([...modules].reverse()).map((m) => m.manifest.id)).toEqual(expected);
  });

  it('loads the first-party modules in dependency order', () => {
    expect(loadModules(FIRST_PARTY_MODULES).map((m) => m.manifest.id)).toEqual(['core.system', 'domain.content']);
  });
});

describe('server start with modules', () => {
  it('refuses to start when a module is invalid, naming the module and the reason', async () => {
    const config = loadConfig({ CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
    await expect(
      createServer(config, { modules: [...FIRST_PARTY_MODULES, mod({ id: 'broken.one', dependsOn: ['nope.none'] })] }),
    ).rejects.toThrow(/Module "broken\.one" cannot be loaded: depends on "nope\.none"/);
  });

  it('refuses to start when two actions share an id, naming the module and the id', async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
    const probe = probeModule();
    const copycat: ServerModule = { ...probe, manifest: { ...probe.manifest, id: 'test.copycat' } };
    try {
      await expect(
        createServer(config, { db: database.db, modules: [...FIRST_PARTY_MODULES, probe, copycat] }),
      ).rejects.toThrow(
        /Module "test\.(copycat|probe)" cannot be loaded: action id "probe\.echo" is already declared by module "test\.(probe|copycat)"/,
      );
    } finally {
      await database.close();
    }
  });

  it('refuses to start when a command-line alias names an action the module does not mount', async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
    const probe = probeModule();
    const aliased: ServerModule = {
      ...probe,
      cli: {
        moduleId: probe.manifest.id,
        aliases: [{ command: 'probe run', action: 'content.list', summary: 'x', inputMode: 'flags' }],
      },
    };
    try {
      await expect(
        createServer(config, { db: database.db, modules: [...FIRST_PARTY_MODULES, aliased] }),
      ).rejects.toThrow(
        /Module "test\.probe" cannot be loaded: alias "probe run" calls the unknown action "content\.list"/,
      );
    } finally {
      await database.close();
    }
  });

  it("serves each first-party alias as its action's catalog hint (declared once, in the module's surface)", async () => {
    const server = await startTestServer();
    try {
      const catalog = await server.request('GET', '/api/v1/actions');
      const hints = Object.fromEntries(
        (catalog.body.data as { id: string; cli?: { alias?: string } }[])
          .filter((item) => item.cli?.alias)
          .map((item) => [item.id, item.cli?.alias]),
      );
      const declared = Object.fromEntries(
        FIRST_PARTY_MODULES.flatMap((module) => module.cli?.aliases ?? []).map((alias) => [
          alias.action,
          alias.command,
        ]),
      );
      expect(hints).toEqual(declared);
      expect(hints['projects.settings.patch']).toBe('settings set');
    } finally {
      await server.close();
    }
  });

  it('sets modules up in dependency order', async () => {
    const calls: string[] = [];
    const database = await createTestDatabase();
    const config = loadConfig({ CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32), LOG_LEVEL: 'silent' });
    const server = await createServer(config, {
      db: database.db,
      modules: [
        mod({ id: 'test.after', dependsOn: ['test.before'] }, () => calls.push('test.after')),
        ...FIRST_PARTY_MODULES,
        mod({ id: 'test.before', dependsOn: ['core.system'] }, () => calls.push('test.before')),
      ],
    });
    await server.close();
    await database.close();
    expect(calls).toEqual(['test.before', 'test.after']);
  });
});

describe('CMS_PREVIEW_TOKEN_SECRET', () => {
  it('must be at least 32 characters, or off', () => {
    const base = { CMS_DATA_DIR: '/tmp/cms-unused', CMS_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...base, CMS_PREVIEW_TOKEN_SECRET: 'short-secret' })).toThrow(
      /CMS_PREVIEW_TOKEN_SECRET must be at least 32 characters long/,
    );
    expect(loadConfig({ ...base, CMS_PREVIEW_TOKEN_SECRET: 'p'.repeat(32) }).previewTokenSecret).toBe('p'.repeat(32));
    expect(loadConfig({ ...base, CMS_PREVIEW_TOKEN_SECRET: 'off' }).previewTokenSecret).toBeNull();
  });
});
