/**
 * Field order, locales and the manifest through the built binary: a file `cms pull` writes lists its
 * fields in the order the schema declares them (the server keeps that order, migration 0018), also
 * with no config here and after `cms init` from the server, which writes the project's locales; the
 * manifest never records the internal locale of documents of types that are not localized.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, type Workspace, workspaceOn } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

// jsonb would sort these keys shortest first: seo, slug, tags, title and image, title, description.
const CONFIG = `export default {
  project: 'default',
  environment: 'production',
  locales: { default: 'fr', supported: ['en', 'fr'] },
  types: [
    {
      name: 'post',
      directory: 'content/posts',
      fields: {
        title: { kind: 'string', required: true },
        slug: { kind: 'string' },
        tags: { kind: 'array', items: { kind: 'string' } },
        seo: { kind: 'object', fields: { title: { kind: 'string' }, description: { kind: 'string' }, image: { kind: 'string' } } },
      },
    },
    { name: 'page', directory: 'content/pages', localized: true, fields: { title: { kind: 'string', required: true } } },
  ],
};
`;

const POST = `---
title: Hello
slug: hello
tags: [a, b]
seo:
  title: Hello there
  description: A first post
  image: hello.png
---
Body
`;

const DECLARED = ['title', 'slug', 'tags', 'seo', 'title', 'description', 'image'];

/** The keys of a file's frontmatter (nested ones too), in the order the file lists them. */
function keysOf(text: string): string[] {
  const frontmatter = text.split('---\n')[1] ?? '';
  return [...frontmatter.matchAll(/^\s*([A-Za-z]+):/gm)].map((match) => match[1] as string);
}

let server: TestServer;
const open: Workspace[] = [];
const workspace = async () => {
  const ws = await workspaceOn(server);
  open.push(ws);
  return ws;
};

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  for (const ws of open) await ws.close();
  await server?.close();
});

describe('field order, locales and the manifest', () => {
  let author: Workspace;

  it('pushes from a config with fields in declared order; the manifest has no internal locale', async () => {
    author = await workspace();
    await author.write('cms.config.mjs', CONFIG);
    const sync = await author.run(['schema', 'sync', '--yes', '--json']);
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);
    await author.write('content/posts/hello.md', POST);
    await author.write('content/pages/about.fr.md', '---\ntitle: À propos\n---\n');
    const push = await author.run(['push', '--json']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    const manifest = JSON.parse(await author.read('.cms/default.production.json'));
    const entries = Object.values(manifest.documents) as Array<Record<string, unknown>>;
    const post = entries.find((entry) => entry.type === 'post');
    const page = entries.find((entry) => entry.type === 'page');
    expect(post).toBeDefined();
    expect(post).not.toHaveProperty('locale');
    expect(page?.locale).toBe('fr');
    expect(JSON.stringify(manifest)).not.toContain('__cms_default__');

    // The file deleted and pulled again comes back as it was.
    await author.run(['pull', '--json']);
    expect(await author.read('content/posts/hello.md')).toBe(POST);
  });

  it('cms init from the server writes fields in declared order and the locales; pull follows that order', async () => {
    const ws = await workspace();
    const init = await ws.run(['init', '--yes', '--json']);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.json.data).toMatchObject({ source: 'server', locales: ['fr', 'en'] });
    const config = await ws.read('cms.config.ts');
    expect(config).toContain('locales: { default: "fr", supported: ["fr", "en"] },');
    const post = config.slice(config.indexOf('name: "post"'));
    const at = (text: string) => post.indexOf(text);
    expect(at('title:')).toBeGreaterThan(0);
    expect(at('title:')).toBeLessThan(at('slug:'));
    expect(at('slug:')).toBeLessThan(at('tags:'));
    expect(at('tags:')).toBeLessThan(at('seo:'));
    expect(post.indexOf('title:', at('seo:'))).toBeLessThan(at('description:'));
    expect(at('description:')).toBeLessThan(at('image:'));
    expect((await ws.run(['schema', 'diff', '--json'])).code).toBe(0);

    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stdout + pull.stderr).toBe(0);
    expect(keysOf(await ws.read('content/posts/hello.md'))).toEqual(DECLARED);
    expect(await ws.read('content/pages/about.fr.md')).toBe('---\ntitle: À propos\n---\n');
  });

  it('pull with no config here writes new files in the server schema’s order', async () => {
    const ws = await workspace();
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stdout + pull.stderr).toBe(0);
    expect(keysOf(await ws.read('content/posts/hello.md'))).toEqual(DECLARED);
  });

  it('reads a manifest that recorded the internal locale, and no longer writes it', async () => {
    const file = '.cms/default.production.json';
    const manifest = JSON.parse(await author.read(file));
    for (const entry of Object.values(manifest.documents) as Array<Record<string, unknown>>) {
      if (entry.type === 'post') entry.locale = '__cms_default__';
    }
    await author.write(file, `${JSON.stringify(manifest, null, 2)}\n`);
    const status = await author.run(['status', '--json']);
    expect(status.code, status.stdout + status.stderr).toBe(0);
    await author.write('content/posts/hello.md', POST.replace('title: Hello\n', 'title: Hello again\n'));
    const push = await author.run(['push', '--json']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    expect(push.json.data.summary).toMatchObject({ updated: 1, created: 0, failed: 0 });
    expect(await author.read(file)).not.toContain('__cms_default__');
  });

  it('schema sync sends a new field order (not a schema change: same hash); files already written keep theirs', async () => {
    const reordered = CONFIG.replace(
      "        title: { kind: 'string', required: true },\n        slug: { kind: 'string' },\n",
      "        slug: { kind: 'string' },\n        title: { kind: 'string', required: true },\n",
    );
    expect(reordered).not.toBe(CONFIG);
    await author.write('cms.config.mjs', reordered);
    const diff = await author.run(['schema', 'diff', '--json']);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
    expect(diff.json.data.changes).toEqual([]);
    expect(diff.json.data.reordered).toEqual([
      { type: 'post', order: ['slug', 'title', 'tags', 'seo'], serverOrder: ['title', 'slug', 'tags', 'seo'] },
    ]);
    const sync = await author.run(['schema', 'sync', '--yes', '--json']);
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);
    expect(sync.json.data).toMatchObject({ synced: true, schemaHash: diff.json.data.serverHash });
    expect((await author.run(['schema', 'diff', '--json'])).json.data.reordered).toEqual([]);

    const before = await author.read('content/posts/hello.md');
    expect((await author.run(['pull', '--json'])).code).toBe(0);
    expect(await author.read('content/posts/hello.md')).toBe(before);
    const fresh = await workspace();
    expect((await fresh.run(['pull', '--json'])).code).toBe(0);
    // The server keeps the text the file was pushed with (decisions.md §8 "Byte fidelity"): a teammate's
    // fresh pull gets those bytes, not a rendering in the new field order.
    expect(await fresh.read('content/posts/hello.md')).toBe(before);
  });

  it('schema sync sends new locales (not a schema change); cms init then writes them', async () => {
    const config = (await author.read('cms.config.mjs')).replace(
      "locales: { default: 'fr', supported: ['en', 'fr'] },",
      "locales: { default: 'fr', supported: ['en', 'fr', 'de'] },",
    );
    await author.write('cms.config.mjs', config);
    const diff = await author.run(['schema', 'diff', '--json']);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
    expect(diff.json.data.locales).toEqual({ config: ['fr', 'en', 'de'], server: ['fr', 'en'], changed: true });
    const sync = await author.run(['schema', 'sync', '--yes', '--json']);
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);
    expect(sync.json.data.synced).toBe(true);
    expect((await author.run(['schema', 'diff', '--json'])).json.data.locales.changed).toBe(false);
    const ws = await workspace();
    const init = await ws.run(['init', '--yes', '--json']);
    expect(init.json.data.locales).toEqual(['fr', 'en', 'de']);
  });
});
