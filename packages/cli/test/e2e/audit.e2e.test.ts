/** The built `cms` binary and the audit log: `cms audit list` pages and filters, `cms audit verify` checks the chain. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey, CMS_PROJECT: 'default' });
  for (const name of ['one', 'two', 'three']) {
    const response = await server.request('POST', '/api/v1/environments', { environment: null, body: { name } });
    expect(response.status, response.text).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

describe('cms audit', () => {
  it('list prints entries newest first, pages with --cursor, filters with flags', async () => {
    const first = await ws.run(['audit', 'list', '--action', 'environments.create', '--limit', '2', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json.data.entries.map((e: any) => e.changes.input.name)).toEqual(['three', 'two']);
    const next = await ws.run([
      'audit',
      'list',
      '--action',
      'environments.create',
      '--cursor',
      first.json.data.nextCursor,
      '--json',
    ]);
    expect(next.json.data.entries.map((e: any) => e.changes.input.name)).toEqual(['one']);
    expect(next.json.data.nextCursor).toBeNull();
    const human = await ws.run(['audit', 'list', '--outcome', 'success']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('environments.create');
    const bad = await ws.run(['audit', 'list', '--limit', '0']);
    expect(bad.code).toBe(2);
  });

  it('verify exits 0 on a whole chain and 1 naming the entry when one was changed', async () => {
    const ok = await ws.run(['audit', 'verify', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.data).toMatchObject({ ok: true, firstBrokenId: null });
    const listed = await ws.run(['audit', 'list', '--json']);
    const victim = listed.json.data.entries.at(-1);
    await server.db.query("update audit_entries set action = 'content.nothing' where id = $1", [victim.id]);
    const broken = await ws.run(['audit', 'verify', '--json']);
    expect(broken.code).toBe(1);
    expect(broken.json.data).toMatchObject({ ok: false, firstBrokenId: victim.id });
    const human = await ws.run(['audit', 'verify']);
    expect(human.stdout).toContain(victim.id);
  });
});
