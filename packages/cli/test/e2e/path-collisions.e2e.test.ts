/**
 * The collision preflight of `push` and `status` through the built binary: a file that would take the
 * path and locale of a document only the server has (created through the API, or under another file
 * name or type) is refused naming that document, and `--type` still checks every type's files and
 * documents; nothing is sent either way.
 */
import { rename, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const CONFIG = `export default { types: [
  { name: 'post', directory: 'posts', fields: { title: { kind: 'string' } } },
  { name: 'page', directory: 'pages', fields: { title: { kind: 'string' } } },
] };
`;

/** A workspace on a new project with the two types synced. */
async function workspaceFor(project: string): Promise<Workspace> {
  const created = await server.request('POST', '/api/v1/projects', { body: { slug: project } });
  expect(created.status, created.text).toBe(201);
  const ws = await createWorkspace({
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: server.adminKey,
    CMS_PROJECT: project,
    CMS_ENVIRONMENT: 'production',
  });
  await ws.write('cms.config.mjs', CONFIG);
  const sync = await ws.run(['schema', 'sync', '--yes']);
  expect(sync.code, sync.stderr).toBe(0);
  return ws;
}

/** Creates a document through the API, as a teammate or another tool would. */
async function createOnServer(project: string, type: string, path: string): Promise<string> {
  const schema = await server.request('GET', '/api/v1/schema', { project });
  const created = await server.request('POST', '/api/v1/content', {
    project,
    body: { type, path, frontmatter: { title: path }, body: `${path}\n` },
    headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.data.documentId;
}

async function documentsOf(project: string): Promise<string[]> {
  const keys: string[] = [];
  for (const type of ['post', 'page']) {
    const list = await server.request('GET', `/api/v1/content?type=${type}&draft=true&limit=100`, { project });
    for (const doc of list.body.data) keys.push(`${type}:${doc.path}`);
  }
  return keys.sort();
}

describe('collision preflight against the server and across types', () => {
  it("refuses a file that would take a server document's path, naming that document, before sending anything", async () => {
    const ws = await workspaceFor('server-collide');
    const aboutId = await createOnServer('server-collide', 'page', 'about');
    const helloId = await createOnServer('server-collide', 'post', 'hello');
    await ws.write('posts/about.md', '---\ntitle: About as a post\n---\n');
    await ws.write('posts/hello.mdx', '---\ntitle: Hello in MDX\n---\n');
    await ws.write('posts/fine.md', '---\ntitle: Fine\n---\n');

    for (const args of [['push'], ['status'], ['push', '--type', 'post'], ['status', '--type', 'post']]) {
      const run = await ws.run([...args, '--json']);
      expect(run.code, `${args.join(' ')}: ${run.stdout}`).toBe(1);
      expect(run.json.error.code).toBe('PATH_COLLISION');
      const { message, hint, details } = run.json.error;
      expect(message).toContain(`posts/about.md would be "about", which the server's page document ${aboutId} has`);
      expect(message).toContain(`posts/hello.mdx would be "hello", which the server's post document ${helloId} has`);
      expect(hint).toContain('cms pull');
      expect(details.collisions).toEqual([
        {
          path: 'about',
          locale: null,
          files: ['posts/about.md'],
          server: { id: aboutId, type: 'page', path: 'about', locale: null, file: 'pages/about.md' },
        },
        {
          path: 'hello',
          locale: null,
          files: ['posts/hello.mdx'],
          server: { id: helloId, type: 'post', path: 'hello', locale: null, file: 'posts/hello.md' },
        },
      ]);
    }
    expect(await documentsOf('server-collide')).toEqual(['page:about', 'post:hello']);

    // The way out: rename the one, pull the server's document in place of the other.
    await rename(`${ws.dir}/posts/about.md`, `${ws.dir}/posts/about-post.md`);
    await rm(`${ws.dir}/posts/hello.mdx`);
    const pull = await ws.run(['pull', '--json']);
    expect(pull.code, pull.stdout).toBe(0);
    const push = await ws.run(['push', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary).toMatchObject({ created: 2, failed: 0 });
    expect(await documentsOf('server-collide')).toEqual(['page:about', 'post:about-post', 'post:fine', 'post:hello']);
    await ws.close();
  });

  it('refuses, with --type, a file of the selected type that collides with a file of another type', async () => {
    const ws = await workspaceFor('type-collide');
    await ws.write('posts/intro.md', '---\ntitle: Intro post\n---\n');
    await ws.write('pages/intro.md', '---\ntitle: Intro page\n---\n');
    await ws.write('posts/other.md', '---\ntitle: Other\n---\n');

    for (const args of [
      ['push', '--type', 'post'],
      ['status', '--type', 'page'],
    ]) {
      const run = await ws.run([...args, '--json']);
      expect(run.code, `${args.join(' ')}: ${run.stdout}`).toBe(1);
      expect(run.json.error.code).toBe('PATH_COLLISION');
      expect(run.json.error.message).toContain('pages/intro.md and posts/intro.md would both be "intro"');
      expect(run.json.error.details.collisions).toEqual([
        { path: 'intro', locale: null, files: ['pages/intro.md', 'posts/intro.md'] },
      ]);
    }
    expect(await documentsOf('type-collide')).toEqual([]);

    // Renamed: --type sends its own type only.
    await rename(`${ws.dir}/pages/intro.md`, `${ws.dir}/pages/welcome.md`);
    const push = await ws.run(['push', '--type', 'post', '--json']);
    expect(push.code, push.stdout).toBe(0);
    expect(push.json.data.summary).toMatchObject({ created: 2, failed: 0 });
    expect(await documentsOf('type-collide')).toEqual(['post:intro', 'post:other']);
    await ws.close();
  });
});
