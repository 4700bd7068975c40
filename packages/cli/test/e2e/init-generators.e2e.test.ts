/**
 * `cms init --yes`, `push`, `publish`, then `pull` into an empty folder, through the built binary, on
 * trees shaped like real generators' layouts (MDN, Starlight, Docusaurus, Hugo, VitePress, Next.js,
 * mdBook, MkDocs, Jekyll): every imported file comes back byte for byte under its own name (`diff -r`),
 * locales are read from the structure only, and what is uncertain is left out with `--yes`, asked for
 * by a run that cannot ask (exit 3), and settled by `--default-locale` or `--no-locales`.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';
import { hugoSuffixTree, LAYOUTS, mdnTree, starlightTree, type Tree } from '../support/doc-trees.js';

vi.setConfig({ testTimeout: 300_000 });

let server: TestServer;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function workspaceWith(project: string, tree: Tree): Promise<Workspace> {
  const created = await server.request('POST', '/api/v1/projects', { body: { slug: project } });
  expect(created.status, created.text).toBe(201);
  const ws = await createWorkspace({
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: server.adminKey,
    CMS_PROJECT: project,
    CMS_ENVIRONMENT: 'production',
  });
  await writeTree(ws.dir, tree);
  return ws;
}

async function writeTree(dir: string, tree: Tree): Promise<void> {
  for (const [name, bytes] of Object.entries(tree)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), bytes);
  }
}

/** `diff -r` of the imported markdown against a teammate's pull into an empty folder: '' when equal. */
async function pullAndDiff(ws: Workspace, tree: Tree, ignored: readonly string[]): Promise<string> {
  const mate = await createWorkspace(ws.env);
  const expected = await mkdtemp(join(tmpdir(), 'cms-expected-'));
  try {
    await mate.write('cms.config.ts', await ws.read('cms.config.ts'));
    const pull = await mate.run(['pull', '--json']);
    expect(pull.code, pull.stdout + pull.stderr).toBe(0);
    const imported = Object.entries(tree).filter(([name]) => /\.mdx?$/.test(name) && !ignored.includes(name));
    await writeTree(expected, Object.fromEntries(imported));
    const exclude = ['cms.config.ts', '.cms', '.config-home'].flatMap((x) => ['-x', x]);
    try {
      execFileSync('diff', ['-r', ...exclude, expected, mate.dir], { encoding: 'utf8' });
      return '';
    } catch (error) {
      return String((error as { stdout?: string }).stdout);
    }
  } finally {
    await mate.close();
    await rm(expected, { recursive: true, force: true });
  }
}

const LOCALES: Record<string, string[]> = {
  mdn: ['de'],
  starlight: ['en', 'de', 'pt-br', 'zh-cn'],
  docusaurus: [],
  'hugo-folders': ['en', 'de', 'fr'],
  'hugo-suffix': [],
  vitepress: [],
  'next-pages': ['en', 'fr'],
  mdbook: [],
  mkdocs: [],
  jekyll: [],
};

describe('cms init on generator layouts', () => {
  it('init --yes, push, publish, pull into an empty folder: diff -r finds nothing, on every layout', async () => {
    for (const [name, make] of Object.entries(LAYOUTS)) {
      const tree = make();
      const ws = await workspaceWith(`layout-${name}`, tree);
      const init = await ws.run(['init', '--yes', '--json']);
      expect(init.code, `${name}: ${init.stdout}${init.stderr}`).toBe(0);
      expect(init.json.data.locales, name).toEqual(LOCALES[name]);
      expect(init.json.data.import.summary.failed, name).toBe(0);
      expect(await ws.read('.gitignore')).toContain('.cms/*\n!.cms/*.*.json\n');
      const push = await ws.run(['push', '--json']);
      expect(push.code, push.stdout).toBe(0);
      expect(push.json.data.summary, name).toMatchObject({ created: 0, updated: 0, failed: 0 });
      const publish = await ws.run(['publish', '.', '--json']);
      expect(publish.code, `${name}: ${publish.stdout}${publish.stderr}`).toBe(0);
      const ignored = init.stderr.match(/Not imported \(top-level files\): (.*)/)?.[1]?.split(', ') ?? [];
      expect(await pullAndDiff(ws, tree, ignored), name).toBe('');
      await ws.close();
    }
  });

  it('stores the MDN German tree as German: a site asking for locale=de gets every page', async () => {
    const tree = mdnTree('de');
    const ws = await workspaceWith('mdn-de', tree);
    const init = await ws.run(['init', '--yes']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('locales from files/de/: de');
    expect(init.stdout).toContain('files/de/ is named for German and has no sibling folder');
    expect(init.stdout).toMatch(/not locales: \d+ folder\(s\) named like a language beside folders that are not/);
    expect(init.stdout).toContain('min/ x1, e.g. files/de/web/javascript/reference/global_objects/math/min');
    const pages = Object.keys(tree).length;
    const list = await server.request('GET', '/api/v1/content?type=file&limit=100&draft=true&locale=de', {
      project: 'mdn-de',
    });
    expect(list.body.pagination.total).toBe(pages);
    const paths = list.body.data.map((d: { path: string; locale: string }) => `${d.locale}:${d.path}`);
    expect(paths).toContain('de:web/javascript/reference/global_objects/math/min/index');
    expect(paths).toContain('de:glossary/cls/index');
    await ws.close();
  });

  it('an uncertain reading: a run that cannot ask fails naming the flags; --default-locale and --no-locales settle it', async () => {
    const ws = await workspaceWith('hugo-by-name', hugoSuffixTree());
    const refused = await ws.run(['init', '--json']);
    expect(refused.code).toBe(3);
    expect(refused.json.error.code).toBe('LOCALES_UNCERTAIN');
    expect(refused.json.error.message).toContain('content/_index.md');
    expect(refused.json.error.hint).toContain('--default-locale <code>');
    expect(refused.json.error.hint).toContain('--yes');
    expect((await ws.snapshot())['cms.config.ts']).toBeUndefined();

    const init = await ws.run(['init', '--yes', '--default-locale', 'en', '--json']);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.json.data.locales).toEqual(['en', 'de']);
    expect(await ws.read('cms.config.ts')).toContain('markDefaultLocale: false,');
    const list = await server.request('GET', '/api/v1/content?type=content&limit=100&draft=true', {
      project: 'hugo-by-name',
    });
    const keys = list.body.data.map((d: { path: string; locale: string }) => `${d.locale}:${d.path}`).sort();
    expect(keys).toEqual([
      'de:_index',
      'de:about',
      'de:posts/first',
      'en:_index',
      'en:about',
      'en:posts/first',
      'en:posts/second',
    ]);
    // about.md and about.de.md are one translation group, and come back under their own names.
    const group = (locale: string) =>
      list.body.data.find((d: { path: string; locale: string }) => d.path === 'about' && d.locale === locale)
        .translationGroupId;
    expect(group('de')).toBe(group('en'));
    expect(await pullAndDiff(ws, hugoSuffixTree(), [])).toBe('');
    await ws.close();

    const plain = await workspaceWith('starlight-plain', starlightTree());
    const off = await plain.run(['init', '--yes', '--no-locales', '--json']);
    expect(off.code, off.stdout).toBe(0);
    expect(off.json.data.locales).toEqual([]);
    expect(off.json.data.localeEvidence.declined[0]).toMatchObject({
      reason: 'locale detection is off (--no-locales)',
    });
    const docs = await server.request('GET', `/api/v1/content?type=${off.json.data.types[0]}&limit=100&draft=true`, {
      project: 'starlight-plain',
    });
    expect(docs.body.data.map((d: { path: string }) => d.path)).toContain('pt-br/guides/i18n');
    await plain.close();
  });
});
