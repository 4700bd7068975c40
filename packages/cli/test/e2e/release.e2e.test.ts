/**
 * The built `cms` binary and releases: `push --publish` and `publish` send documents out together
 * through a release, `publish --at` schedules one, and `cms release ...` drives one by hand.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, CONFIG_MJS, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;

async function publishedVersion(file: string): Promise<number | null> {
  const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
  const entry = Object.values(manifest.documents).find((e: any) => e.file === file) as any;
  const doc = await server.request('GET', `/api/v1/content/${entry.id}?draft=true`);
  return doc.body.data.publishedVersion;
}

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.mjs', CONFIG_MJS);
  await ws.write('content/pages/a.md', '---\ntitle: A\n---\nA\n');
  await ws.write('content/pages/b.md', '---\ntitle: B\n---\nB\n');
  await ws.write('content/pages/c.md', '---\ntitle: C\n---\nC\n');
  expect((await ws.run(['schema', 'sync', '--json'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

describe('cms and releases', () => {
  it('push --publish publishes every pushed document through one release', async () => {
    const pushed = await ws.run(['push', '--publish', '--json']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.json.data.release).toMatchObject({ status: 'published', itemCount: 3 });
    for (const file of ['content/pages/a.md', 'content/pages/b.md', 'content/pages/c.md']) {
      expect(await publishedVersion(file)).toBe(1);
    }
  });

  it('publish sends the named files out together, and refuses all of them when one is not pushed', async () => {
    await ws.write('content/pages/a.md', '---\ntitle: A2\n---\nA\n');
    await ws.write('content/pages/b.md', '---\ntitle: B2\n---\nB\n');
    const refused = await ws.run(['publish', 'content/pages', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.data.results.map((r: any) => r.code)).toEqual(['NOT_PUSHED', 'NOT_PUSHED']);
    expect(await publishedVersion('content/pages/a.md')).toBe(1);

    expect((await ws.run(['push', '--json'])).code).toBe(0);
    const published = await ws.run(['publish', 'content/pages', '-m', 'Second wave', '--json']);
    expect(published.code, published.stderr).toBe(0);
    expect(published.json.data.release).toMatchObject({ title: 'Second wave', status: 'published' });
    expect(published.json.data.results.map((r: any) => [r.file, r.outcome])).toEqual([
      ['content/pages/a.md', 'published'],
      ['content/pages/b.md', 'published'],
      ['content/pages/c.md', 'published'],
    ]);
    expect(await publishedVersion('content/pages/b.md')).toBe(2);
    // Off a terminal the run ends with one summary line (stderr), after the line per file (stdout).
    const human = await ws.run(['publish', 'content/pages']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('published content/pages/c.md (version 1)');
    expect(human.stderr).toMatch(/^Published 3 document\(s\) together, through release [0-9a-f-]{36}\.$/m);
  });

  it('publish --at schedules a release of the files; a bad time is a usage error', async () => {
    const at = new Date(Date.now() + 24 * 60 * 60_000).toISOString();
    const scheduled = await ws.run(['publish', '--at', at, 'content/pages/c.md', '--json']);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    expect(scheduled.json.data.release).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect(scheduled.json.data.results).toMatchObject([{ outcome: 'scheduled' }]);
    const bad = await ws.run(['publish', '--at', 'tomorrow', 'content/pages/c.md']);
    expect(bad.code).toBe(2);
    const list = await ws.run(['release', 'list', '--status', 'scheduled', '--json']);
    expect(list.json.data.map((r: any) => r.id)).toContain(scheduled.json.data.release.id);
    const due = await ws.run(['release', 'run-due', '--json']);
    expect(due.json.data).toEqual({ published: [], failed: [] });
  });

  it('release create, add, show, schedule, publish and revert', async () => {
    await ws.write('content/pages/a.md', '---\ntitle: A3\n---\nA\n');
    expect((await ws.run(['push', '--json'])).code).toBe(0);
    const created = await ws.run(['release', 'create', 'Launch']);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    const added = await ws.run(['release', 'add', id, 'content/pages/a.md', '--json']);
    expect(added.json.data.items).toMatchObject([{ path: 'a', action: 'publish', changedSinceAdded: false }]);
    // Edited after it was added: `show` flags it before anyone schedules the release.
    await ws.write('content/pages/a.md', '---\ntitle: A4\n---\nA\n');
    expect((await ws.run(['push', '--json'])).code).toBe(0);
    const flagged = await ws.run(['release', 'show', id]);
    expect(flagged.stdout).toContain('publish   a: changed since added');
    const at = new Date(Date.now() + 60 * 60_000).toISOString();
    const scheduled = await ws.run(['release', 'schedule', id, at, '--time-zone', 'Europe/Paris', '--json']);
    expect(scheduled.json.data).toMatchObject({ status: 'scheduled', timeZone: 'Europe/Paris' });
    const shown = await ws.run(['release', 'show', id]);
    expect(shown.stdout).toContain('scheduled');
    expect(shown.stdout).toContain('publish   a');

    const published = await ws.run(['release', 'publish', id, '--json']);
    expect(published.code, published.stderr).toBe(0);
    expect(await publishedVersion('content/pages/a.md')).toBe(3);
    const reverted = await ws.run(['release', 'revert', id, '--json']);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(reverted.json.data).toMatchObject({ status: 'published', revertOf: id });
    const doc = await server.request('GET', '/api/v1/content?type=page&path=a');
    expect(doc.body.data[0]).toMatchObject({ publishedVersion: 4 });
    expect(doc.body.data[0].frontmatter.title).toBe('A2');
  });
});
