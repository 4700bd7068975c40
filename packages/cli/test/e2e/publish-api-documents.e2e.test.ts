/**
 * `cms publish` and `cms release add` name documents the manifest does not know (created through the
 * API or the Studio) by server path, `<type>:<path>` or id, as they name tracked ones: one digest
 * request finds them, and they are published with the others, all or none.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, CONFIG_MJS, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.mjs', CONFIG_MJS);
  await ws.write('content/pages/tracked.md', '---\ntitle: Tracked\n---\nHere.\n');
  expect((await ws.run(['schema', 'sync', '--json'])).code).toBe(0);
  expect((await ws.run(['push', '--json'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

async function createThroughApi(body: Record<string, unknown>): Promise<string> {
  const schema = await server.request('GET', '/api/v1/schema');
  const created = await server.request('POST', '/api/v1/content', {
    body,
    headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.data.documentId;
}

const publishedVersion = async (id: string) =>
  (await server.request('GET', `/api/v1/content/${id}?draft=true`)).body.data.publishedVersion;

describe('publishing documents created through the API', () => {
  it('by server path, by type and path, and by id, beside a tracked file, all in one release', async () => {
    const about = await createThroughApi({ type: 'page', path: 'about', frontmatter: { title: 'About' } });
    const hello = await createThroughApi({
      type: 'post',
      path: 'hello',
      locale: 'fr',
      frontmatter: { title: 'Salut' },
    });
    const launch = await createThroughApi({ type: 'post', path: 'launch', locale: 'en', frontmatter: { title: 'Go' } });

    const run = await ws.run(['publish', 'about', 'post:hello', launch, 'content/pages/tracked.md', '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const results = run.json.data.results;
    expect(results).toHaveLength(4);
    expect(results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'content/pages/tracked.md', outcome: 'published' }),
        expect.objectContaining({
          file: null,
          id: about,
          path: 'about',
          type: 'page',
          outcome: 'published',
          version: 1,
        }),
        expect.objectContaining({ file: null, id: hello, locale: 'fr', outcome: 'published' }),
        expect.objectContaining({ file: null, id: launch, path: 'launch', outcome: 'published' }),
      ]),
    );
    for (const id of [about, hello, launch]) expect(await publishedVersion(id)).toBe(1);
    // The manifest still tracks only what was pulled or pushed here.
    const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
    expect(Object.keys(manifest.documents)).not.toContain(about);

    const human = await ws.run(['publish', 'about']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('published page:about (version 1, not tracked here)');
  });

  it('release add takes them too; a name nobody has is refused, saying the server has none either', async () => {
    const draft = await createThroughApi({ type: 'page', path: 'later', frontmatter: { title: 'Later' } });
    const created = await ws.run(['release', 'create', 'Later', '--json']);
    const release = created.json.data.id;
    const add = await ws.run(['release', 'add', release, 'page:later', '--json']);
    expect(add.code, add.stdout + add.stderr).toBe(0);
    const shown = await server.request('GET', `/api/v1/releases/${release}`);
    expect(shown.body.data.items.map((i: { documentId: string }) => i.documentId)).toEqual([draft]);

    const missing = await ws.run(['publish', 'nowhere', '--json']);
    expect(missing.code).toBe(2);
    expect(missing.json.error.code).toBe('NOT_TRACKED');
    expect(missing.json.error.hint).toContain('No document on the server has that path or id either.');
    expect(await publishedVersion(draft)).toBeNull();
  });
});
