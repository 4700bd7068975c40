/**
 * The manifest's stat cache through the built binary: files seen unchanged get their size and mtime
 * recorded, and an edit (a new mtime, or a new size) is still found.
 */
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

describe('the stat cache', () => {
  it('records stats of unchanged files and still sees an edit of the same size', async () => {
    const ws = await workspaceOn(server);
    await ws.write('cms.config.mjs', CONFIG_MJS);
    await ws.write('content/pages/a.md', '---\ntitle: Aaaa\n---\n');
    await ws.write('content/pages/b.md', '---\ntitle: Bbbb\n---\n');
    expect((await ws.run(['schema', 'sync', '--yes'])).code).toBe(0);
    expect((await ws.run(['push'])).code).toBe(0);
    // Files older than the racy window, as in a working copy at rest.
    const past = new Date(Date.now() - 60_000);
    for (const f of ['a', 'b']) await utimes(join(ws.dir, `content/pages/${f}.md`), past, past);

    const first = await ws.run(['status', '--json']);
    expect(first.code, first.stdout).toBe(0);
    const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
    const stats = Object.values(manifest.documents).map((e: any) => e.stat);
    expect(stats).toHaveLength(2);
    // utimes goes through float seconds, so the stored time may differ from `past` by a fraction of a ms.
    for (const stat of stats) {
      expect(stat.size).toBe(20);
      expect(Math.abs(stat.mtimeMs - past.getTime())).toBeLessThan(1);
    }

    // The same size, new content: the mtime moved, so the file is read again.
    await writeFile(join(ws.dir, 'content/pages/a.md'), '---\ntitle: Cccc\n---\n');
    const second = await ws.run(['status', '--json']);
    expect(second.code).toBe(1);
    expect(second.json.data.items).toEqual([
      expect.objectContaining({ file: 'content/pages/a.md', status: 'changed-local' }),
    ]);
    const push = await ws.run(['push', '--json']);
    expect(push.json.data.summary).toMatchObject({ updated: 1 });
    await ws.close();
  });
});
