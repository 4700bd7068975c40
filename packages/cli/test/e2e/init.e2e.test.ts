/** `cms init` through the built binary: from markdown (infer, write, sync, import) and from a server schema. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, workspaceOn } from '../support/cli-harness.js';

// Each test runs the binary several times; a loaded machine makes a process start take seconds.
vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('cms init', () => {
  it('infers types, fields and locales from markdown, writes a typed config, syncs and imports', async () => {
    const ws = await workspaceOn(server);
    await ws.write('README.md', '# not content\n');
    await ws.write('content/posts/hello.en.md', '---\ntitle: Hello\ndate: 2024-01-01\ntags: [a, b]\n---\nHi\n');
    await ws.write('content/posts/hello.fr.md', '---\ntitle: Bonjour\ndate: 2024-01-02\ntags: [c]\n---\nSalut\n');
    await ws.write('content/posts/other.en.md', '---\ntitle: Other\ndate: 2024-02-01\n---\n');
    await ws.write('content/pages/about.md', '---\ntitle: About\norder: 1\nseo:\n  description: About us\n---\nBody\n');
    await ws.write('content/pages/contact.md', '---\ntitle: Contact\norder: 2\n---\nWrite to us\n');
    const before = await ws.snapshot();

    const init = await ws.run(['init', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.data).toMatchObject({ source: 'files', types: ['page', 'post'], locales: ['en', 'fr'] });
    expect(init.json.data.import.summary).toMatchObject({ created: 5, failed: 0 });
    const config = await ws.read('cms.config.ts');
    expect(config).toContain("import { defineConfig, defineType, field } from '@cms/cli';");
    expect(config).toContain('title: field.string().required(),');
    expect(config).toContain('date: field.date().required(),');
    expect(config).toContain('tags: field.array(field.string()),');
    expect(config).toContain('localized: true,');

    // The files are untouched (a .gitignore keeps the .cms/ caches out of git), the schema matches the
    // config, and everything is in sync.
    const after = await ws.snapshot();
    delete after['cms.config.ts'];
    expect(after['.gitignore']).toContain('.cms/*\n!.cms/*.*.json\n');
    delete after['.gitignore'];
    expect(after).toEqual(before);
    expect((await ws.run(['schema', 'diff', '--json'])).code).toBe(0);
    const status = await ws.run(['status', '--json']);
    expect(status.code, JSON.stringify(status.json)).toBe(0);

    // Locale siblings share one translation group.
    const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
    const groups = Object.values(manifest.documents)
      .filter((e: any) => e.path === 'hello')
      .map((e: any) => e.translationGroupId);
    expect(groups).toHaveLength(2);
    expect(groups[0]).toBe(groups[1]);

    const again = await ws.run(['init', '--yes', '--json']);
    expect(again.code).toBe(2);
    expect(again.json.error.code).toBe('CONFIG_EXISTS');
    await ws.close();
  });

  it('against a server with a schema, writes the config from it (schema diff then clean)', async () => {
    const ws = await workspaceOn(server);
    const init = await ws.run(['init', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.data.source).toBe('server');
    const diff = await ws.run(['schema', 'diff', '--json']);
    expect(diff.code, JSON.stringify(diff.json)).toBe(0);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(Object.keys(await ws.snapshot()).sort()).toEqual([
      '.gitignore',
      'cms.config.ts',
      'content/pages/about.md',
      'content/pages/contact.md',
      'content/posts/hello.en.md',
      'content/posts/hello.fr.md',
      'content/posts/other.en.md',
    ]);
    await ws.close();
  });
});
