/**
 * `cms init`, `push` and `status` on real-site layouts through the built binary: locale folders and
 * nested index pages import every file as its own document, and a pull in an empty folder gives the
 * same file names back; two files that would be one document are refused before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function workspaceFor(project: string) {
  const created = await server.request('POST', '/api/v1/projects', { body: { slug: project } });
  expect(created.status, created.text).toBe(201);
  return createWorkspace({
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: server.adminKey,
    CMS_PROJECT: project,
    CMS_ENVIRONMENT: 'production',
  });
}

const page = (title: string) => `---\ntitle: ${title}\ndescription: About ${title}\n---\nBody of ${title}\n`;

describe('cms init on real layouts', () => {
  it('imports a tree with locale folders and nested index pages, one document per file', async () => {
    const ws = await workspaceFor('starlight');
    const files: Record<string, string> = {
      'src/content/docs/en/index.md': page('Home'),
      'src/content/docs/en/guides/index.md': page('Guides'),
      'src/content/docs/en/guides/start/index.md': page('Start'),
      'src/content/docs/en/reference/api.md': page('API'),
      'src/content/docs/de/index.md': page('Start'),
      'src/content/docs/de/guides/index.md': page('Anleitungen'),
      'src/content/docs/pt-br/guides/index.md': page('Guias'),
      'src/content/docs/zh-cn/index.md': page('Home zh'),
    };
    for (const [name, text] of Object.entries(files)) await ws.write(name, text);

    const init = await ws.run(['init', '--yes', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.data).toMatchObject({ types: ['doc'], localeFolders: ['src/content/docs'] });
    expect(init.json.data.locales[0]).toBe('en');
    expect(init.json.data.import.summary).toMatchObject({ created: 8, failed: 0 });
    const config = await ws.read('cms.config.ts');
    expect(config).toContain("localeFolders: ['src/content/docs'],".replace(/'/g, '"'));

    const list = await server.request('GET', '/api/v1/content?type=doc&limit=100&draft=true', {
      project: 'starlight',
    });
    const keys = list.body.data.map((d: any) => `${d.locale}:${d.path}`).sort();
    expect(keys).toEqual([
      'de:guides/index',
      'de:index',
      'en:guides/index',
      'en:guides/start/index',
      'en:index',
      'en:reference/api',
      'pt-BR:guides/index',
      'zh-CN:index',
    ]);
    // Same relative path in two locale folders: one translation group.
    const group = (path: string, locale: string) =>
      list.body.data.find((d: any) => d.path === path && d.locale === locale).translationGroupId;
    expect(group('guides/index', 'de')).toBe(group('guides/index', 'en'));
    expect(group('guides/index', 'pt-BR')).toBe(group('guides/index', 'en'));

    const status = await ws.run(['status', '--json']);
    expect(status.code, status.stdout).toBe(0);

    // A teammate with the config and nothing else gets every file back under its name.
    const mate = await createWorkspace(ws.env);
    await mate.write('cms.config.ts', config);
    const pull = await mate.run(['pull', '--json']);
    expect(pull.code, pull.stderr).toBe(0);
    const pulled = await mate.snapshot();
    delete pulled['cms.config.ts'];
    expect(Object.keys(pulled).sort()).toEqual(Object.keys(files).sort());
    expect(pulled).toEqual(files);
    await mate.close();
    await ws.close();
  });

  it('refuses two files that would be one document, in init, push and status, before sending anything', async () => {
    const ws = await workspaceFor('collide');
    await ws.write('posts/a.md', '---\ntitle: A\n---\n');
    await ws.write('posts/a.mdx', '---\ntitle: A as MDX\n---\n');
    await ws.write('posts/b.md', '---\ntitle: B\n---\n');
    const init = await ws.run(['init', '--yes', '--json']);
    expect(init.code).toBe(1);
    expect(init.json.error.code).toBe('PATH_COLLISION');
    expect(init.json.error.message).toContain('posts/a.md and posts/a.mdx');
    expect(init.json.error.details.collisions).toEqual([
      { path: 'a', locale: null, files: ['posts/a.md', 'posts/a.mdx'] },
    ]);
    expect((await ws.snapshot())['cms.config.ts']).toBeUndefined();

    // With a config written by hand, push and status refuse the same way, and nothing reaches the server.
    await ws.write(
      'cms.config.mjs',
      "export default { types: [{ name: 'post', directory: 'posts', fields: { title: { kind: 'string' } } }] };\n",
    );
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    for (const command of ['push', 'status']) {
      const run = await ws.run([command, '--json']);
      expect(run.code, run.stdout).toBe(1);
      expect(run.json.error.code).toBe('PATH_COLLISION');
      expect(run.json.error.message).toContain('posts/a.md and posts/a.mdx would both be "a"');
    }
    const list = await server.request('GET', '/api/v1/content?type=post&draft=true', { project: 'collide' });
    expect(list.body.data).toEqual([]);

    // Renaming one file is the way out.
    const { rename } = await import('node:fs/promises');
    await rename(`${ws.dir}/posts/a.mdx`, `${ws.dir}/posts/a-mdx.mdx`);
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary.created).toBe(3);
    await ws.close();
  });
});
