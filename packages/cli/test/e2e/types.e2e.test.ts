/**
 * `cms types` through the built binary: the file it writes from the server schema passes
 * `tsc --strict`, types every field kind, and makes `createClient<CmsTypes>()` reject a wrong field
 * name at compile time (`@ts-expect-error`); `--check` exits 0 when the file matches and 1 once the
 * schema changed.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, type Workspace, workspaceOn } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

const config = (extra = '') => `export default {
  project: 'default',
  environment: 'production',
  locales: ['en', 'fr'],
  types: [
    {
      name: 'author',
      directory: 'content/authors',
      fields: { name: { kind: 'string', required: true }, email: { kind: 'string', checks: [{ type: 'email' }] } },
    },
    {
      name: 'post',
      directory: 'content/posts',
      localized: true,
      fields: {
        title: { kind: 'string', required: true, checks: [{ type: 'min', value: 1 }, { type: 'max', value: 120 }] },
        rating: { kind: 'number', checks: [{ type: 'min', value: 0 }, { type: 'max', value: 5 }] },
        featured: { kind: 'boolean', default: false },
        date: { kind: 'date' },
        status: { kind: 'enum', values: ['draft', 'review', 'done'], required: true },
        tags: { kind: 'array', items: { kind: 'string' }, checks: [{ type: 'min', value: 1 }] },
        author: { kind: 'reference', reference: { targetType: 'author' }, nullable: true },
        related: { kind: 'array', items: { kind: 'reference', reference: { targetType: 'post' } } },
        seo: { kind: 'object', fields: { slug: { kind: 'string', checks: [{ type: 'regex', value: '^[a-z-]+$' }] }, reviewer: { kind: 'reference', reference: { targetType: 'author' } } } },
        blocks: { kind: 'array', items: { kind: 'object', fields: { by: { kind: 'reference', reference: { targetType: 'author' } }, text: { kind: 'string' } } } },
        ${extra}
      },
    },
  ],
};
`;

// Compiled against the SDK's declarations (as a site sees them): a wrong field name must be an error, a right one must not.
const USAGE = `import { createClient } from '@cms/sdk';
import type { CmsTypes, Locale, Post } from './cms.types.js';

const cms = createClient<CmsTypes>({ baseUrl: 'http://127.0.0.1:1' });

export async function read(): Promise<void> {
  const page = await cms.content.list({ type: 'post', resolve: ['author', 'seo.reviewer', 'blocks.by'] });
  const post = page.data[0];
  if (!post) return;
  const title: string = post.frontmatter.title;
  const status: 'draft' | 'review' | 'done' = post.frontmatter.status;
  const locale: Locale = post.locale;
  const tags: [string, ...string[]] | undefined = post.frontmatter.tags;
  const authorName: string | undefined = post.frontmatter.author?.frontmatter.name;
  const reviewer: string | undefined = post.frontmatter.seo?.reviewer?.frontmatter.email;
  const by: string | undefined = post.frontmatter.blocks?.[0]?.by?.frontmatter.name;
  const related: string[] | undefined = post.frontmatter.related;
  // @ts-expect-error: no such field
  post.frontmatter.titel;
  // @ts-expect-error: not in the enum
  const wrong: Post['status'] = 'published';

  const one = await cms.content.get<'post'>('00000000-0000-4000-8000-000000000000');
  const author: string | null | undefined = one.frontmatter.author;
  // @ts-expect-error: unresolved references are ids, not documents
  one.frontmatter.author?.frontmatter;

  for await (const doc of cms.content.iterate({ type: 'author' })) {
    const name: string = doc.frontmatter.name;
    // @ts-expect-error: authors have no title
    doc.frontmatter.title;
    void name;
  }
  void [title, status, locale, tags, authorName, reviewer, by, related, wrong, author];
}
`;

function tsc(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')],
      { timeout: 120_000 },
      (error, stdout, stderr) => done({ code: error ? 1 : 0, output: `${stdout}${stderr}` }),
    );
  });
}

const tsconfig = (files: string[], paths: boolean) =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'ES2023',
      lib: ['ES2023', 'DOM'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      skipLibCheck: true,
      noUncheckedIndexedAccess: true,
      types: [],
      ...(paths
        ? {
            paths: {
              '@cms/sdk': [join(repo, 'packages/sdk/dist/index.d.ts')],
              '@cms/core': [join(repo, 'packages/core/dist/index.d.ts')],
              '@cms/core/route-table': [join(repo, 'packages/core/dist/wire/route-table.d.ts')],
            },
          }
        : {}),
    },
    files,
  });

let server: TestServer;
let ws: Workspace;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await workspaceOn(server);
  await ws.write('cms.config.mjs', config());
  const sync = await ws.run(['schema', 'sync', '--yes', '--json']);
  expect(sync.code, sync.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

describe('cms types', () => {
  it('writes cms.types.ts: every kind typed, a file tsc --strict accepts on its own', async () => {
    const run = await ws.run(['types', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.data).toMatchObject({ file: 'cms.types.ts', written: true, types: ['author', 'post'] });
    const text = await ws.read('cms.types.ts');
    expect(text).toContain('export type Locale = "en" | "fr";');
    expect(text).toContain('status: "draft" | "review" | "done";');
    expect(text).toContain('tags?: [string, ...string[]];');
    expect(text).toContain('author?: DocumentId | null;');
    expect(text).toContain('@maxLength 120');
    expect(text).toContain('@pattern ^[a-z-]+$');
    expect(text).toContain('"blocks.by": "author";');
    await writeFile(join(ws.dir, 'tsconfig.json'), tsconfig(['cms.types.ts'], false));
    const alone = await tsc(ws.dir);
    expect(alone.output).toBe('');
    expect(alone.code).toBe(0);
  });

  it('types createClient<CmsTypes>() reads: right names compile, a wrong field name does not', async () => {
    await ws.write('usage.ts', USAGE);
    await writeFile(join(ws.dir, 'tsconfig.json'), tsconfig(['cms.types.ts', 'usage.ts'], true));
    const good = await tsc(ws.dir);
    expect(good.output).toBe('');
    // The same file with the `@ts-expect-error` lines removed fails on exactly those lines.
    await ws.write('usage.ts', USAGE.replaceAll(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
    const bad = await tsc(ws.dir);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain("Property 'titel' does not exist");
    expect(bad.output).toContain('"published"');
    expect(bad.output).toContain("Property 'title' does not exist");
    expect(bad.output).toContain("Property 'frontmatter' does not exist on type 'string'");
  });

  it('--check exits 0 while the file matches, 1 once the schema changed, and writes nothing', async () => {
    await ws.run(['types']);
    const fresh = await ws.run(['types', '--check', '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.json.data.upToDate).toBe(true);

    await ws.write('cms.config.mjs', config("subtitle: { kind: 'string' },"));
    const sync = await ws.run(['schema', 'sync', '--yes']);
    expect(sync.code, sync.stderr).toBe(0);
    const before = await ws.read('cms.types.ts');
    const stale = await ws.run(['types', '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr + stale.stdout).toContain('cms.types.ts is stale');
    expect(await ws.read('cms.types.ts')).toBe(before);

    const missing = await ws.run(['types', '--check', '--out', 'src/other.ts']);
    expect(missing.code).toBe(1);
    const write = await ws.run(['types', '--out', 'src/other.ts']);
    expect(write.code, write.stderr).toBe(0);
    expect(await ws.read('src/other.ts')).toContain('subtitle?: string;');
    expect((await ws.run(['types', '--check', '--out', 'src/other.ts'])).code).toBe(0);
  });
});
