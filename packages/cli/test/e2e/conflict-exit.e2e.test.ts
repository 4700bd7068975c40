/** Exit 5 wins: a push with a conflict and a refused document exits 5, and overwrites nothing of either. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, CONFIG_MJS, workspaceOn } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the exit code of a push with conflicts and failures', () => {
  it('is 5 when a conflict and a failure happen in one run', async () => {
    const ws = await workspaceOn(server);
    await ws.write('cms.config.mjs', CONFIG_MJS);
    await ws.write('content/pages/both.md', '---\ntitle: Both\n---\nv1\n');
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    expect((await ws.run(['push'])).code).toBe(0);
    // The server's copy moves on; the file is edited too: a conflict.
    const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
    const [id, entry] = Object.entries(manifest.documents)[0] as [string, any];
    const schema = await server.request('GET', '/api/v1/schema');
    const moved = await server.request('PUT', `/api/v1/content/${id}`, {
      headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
      body: { frontmatter: { title: 'Server' }, body: 'server\n', draftRevision: entry.draftRevision },
    });
    expect(moved.status, moved.text).toBe(200);
    await ws.write('content/pages/both.md', '---\ntitle: Mine\n---\nmine\n');
    // And a new file the server refuses (title is required).
    await ws.write('content/pages/invalid.md', '---\nsubtitle: no title\n---\n');

    const push = await ws.run(['push', '--json']);
    expect(push.json.data.summary).toMatchObject({ conflict: 1, failed: 1 });
    expect(push.code).toBe(5);
    expect(await ws.read('content/pages/both.md')).toBe('---\ntitle: Mine\n---\nmine\n');
    const server1 = await server.request('GET', `/api/v1/content/${id}?draft=true`);
    expect(server1.body.data.frontmatter.title).toBe('Server');
    await ws.close();
  });
});
