/**
 * The built `cms` binary against a real server: pushing in batches (`POST /content/batch`), Ctrl-C in
 * the middle of a push (exit 130, the manifest records exactly what the server took, a re-run sends
 * only the rest), bookkeeping lost after a write, `publish` by server path, and a confirmation that
 * cannot be asked.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { BIN, buildCli, CONFIG_MJS, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;
const PAGES = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `content/pages/${name}.md`);

async function manifest(): Promise<{
  documents: Record<string, { file: string; draftRevision: number; hash: string }>;
}> {
  return JSON.parse(await ws.read('.cms/default.production.json'));
}

async function serverBody(id: string): Promise<string> {
  const doc = await server.request('GET', `/api/v1/content/${id}?draft=true`);
  expect(doc.status).toBe(200);
  return doc.body.data.body;
}

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.mjs', CONFIG_MJS);
  for (const file of PAGES) await ws.write(file, `---\ntitle: Page ${file}\n---\nfirst\n`);
  expect((await ws.run(['schema', 'sync', '--json'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

/**
 * A loopback proxy in front of the server that holds the `hold`-th batch request until `release`
 * is called, and tells when it arrives: the test interrupts the CLI while that request is in flight.
 */
async function startProxy(hold: number) {
  const target = new URL(server.url);
  let batches = 0;
  let arrived!: () => void;
  const held = new Promise<void>((done) => {
    arrived = done;
  });
  let release!: () => void;
  const released = new Promise<void>((done) => {
    release = done;
  });
  const proxy: Server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/api/v1/content/batch' && ++batches === hold) {
      arrived();
      await released;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    held,
    release,
    batches: () => batches,
    close: () => new Promise<void>((done) => proxy.close(() => done())),
  };
}

describe('cms push in batches', () => {
  it('creates every file in batches, one result per file', async () => {
    const push = await ws.run(['push', '--json'], { env: { CMS_BATCH_SIZE: '4' } });
    expect(push.code, push.stderr).toBe(0);
    expect(push.json.data.summary).toMatchObject({ created: 6, failed: 0, conflict: 0 });
    expect(Object.keys((await manifest()).documents)).toHaveLength(6);
  });

  it('Ctrl-C mid-push: exit 130, the request in flight is finished and recorded, a re-run sends only the rest', async () => {
    for (const file of PAGES) await ws.write(file, `---\ntitle: Page ${file}\n---\nsecond\n`);
    const before = await manifest();
    const proxy = await startProxy(2);
    const child = spawn(process.execPath, [BIN, 'push', '--json', '--concurrency', '1'], {
      cwd: ws.dir,
      env: { ...ws.env, CMS_SERVER_URL: proxy.url, CMS_BATCH_SIZE: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    const draining = new Promise<void>((done) => {
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('finishing the requests in flight')) done();
      });
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      // The second batch is on its way: interrupt, and let it through once the CLI says it drains.
      await proxy.held;
      child.kill('SIGINT');
      await draining;
      proxy.release();
      expect(await exited, stderr).toBe(130);
    } finally {
      await proxy.close();
    }
    expect(JSON.parse(stdout)).toMatchObject({
      ok: false,
      exitCode: 130,
      error: { code: 'INTERRUPTED', details: { total: 6, summary: { updated: 4 } } },
    });
    // What was done, and what to do next, on stderr.
    expect(stderr).toContain('Interrupted: 4 of 6 document(s) done (created 0, updated 4');
    expect(stderr).toContain('Run `cms push` again to send the rest.');
    expect(proxy.batches()).toBe(2);

    // The manifest holds exactly what the server took: the two batches (4 files) at revision 2.
    const after = await manifest();
    const pushed = Object.entries(after.documents).filter(([, e]) => e.draftRevision === 2);
    const notPushed = Object.entries(after.documents).filter(([, e]) => e.draftRevision === 1);
    expect(pushed).toHaveLength(4);
    expect(notPushed).toHaveLength(2);
    for (const [id, entry] of pushed) {
      expect(await serverBody(id)).toBe('second\n');
      expect(entry.hash).not.toBe(before.documents[id]?.hash);
    }
    for (const [id] of notPushed) expect(await serverBody(id)).toBe('first\n');

    const rerun = await ws.run(['push', '--json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.json.data.summary).toMatchObject({ updated: 2, conflict: 0, failed: 0, skipped: 0 });
    expect(rerun.json.data.results.map((r: { file: string }) => r.file).sort()).toEqual(
      notPushed.map(([, e]) => e.file).sort(),
    );
    const status = await ws.run(['status', '--json']);
    expect(status.code, JSON.stringify(status.json)).toBe(0);
  });

  it('a write the server took but the manifest missed is recorded on the next push, not reported as a conflict', async () => {
    const file = PAGES[0] as string;
    const lost = await manifest();
    await ws.write(file, '---\ntitle: Page again\n---\nthird\n');
    const push = await ws.run(['push', '--json']);
    expect(push.json.data.summary).toMatchObject({ updated: 1 });
    // Put back the bookkeeping from before that push, as if it had been killed before writing it.
    await ws.write('.cms/default.production.json', `${JSON.stringify(lost, null, 2)}\n`);
    const again = await ws.run(['push', '--json']);
    expect(again.code, JSON.stringify(again.json)).toBe(0);
    expect(again.json.data.summary).toMatchObject({ skipped: 1, conflict: 0, updated: 0 });
    expect(again.json.data.results[0].message).toMatch(/already on the server/);
    expect((await ws.run(['push', '--json'])).json.data.results).toEqual([]);
  });

  it('a real conflict in a batch stops that file only and overwrites nothing (exit 5)', async () => {
    const [first, second] = PAGES.slice(1, 3) as [string, string];
    const m = await manifest();
    const idOf = (file: string) => Object.entries(m.documents).find(([, e]) => e.file === file)?.[0] as string;
    const schema = await server.request('GET', '/api/v1/schema');
    const current = await server.request('GET', `/api/v1/content/${idOf(first)}?draft=true`);
    const edited = await server.request('PUT', `/api/v1/content/${idOf(first)}`, {
      headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
      body: { frontmatter: { title: 'Editor' }, body: 'editor\n', draftRevision: current.body.data.draftRevision },
    });
    expect(edited.status).toBe(200);
    await ws.write(first, '---\ntitle: Mine\n---\nmine\n');
    await ws.write(second, '---\ntitle: Fine\n---\nfine\n');
    const push = await ws.run(['push', '--json']);
    expect(push.code).toBe(5);
    expect(push.json.data.summary).toMatchObject({ updated: 1, conflict: 1 });
    expect(await serverBody(idOf(first))).toBe('editor\n');
    expect(await serverBody(idOf(second))).toBe('fine\n');
    const theirs = await ws.run(['pull', '--theirs', first, '--json']);
    expect(theirs.code, JSON.stringify(theirs.json)).toBe(0);
  });
});

describe('cms publish by server path', () => {
  it('publishes a tracked document named by its server path, and says what it expected otherwise', async () => {
    const byPath = await ws.run(['publish', 'd', '--json']);
    expect(byPath.code, JSON.stringify(byPath.json)).toBe(0);
    expect(byPath.json.data.results).toMatchObject([{ file: 'content/pages/d.md', outcome: 'published' }]);
    const typed = await ws.run(['publish', 'page:e', '--json']);
    expect(typed.json.data.results).toMatchObject([{ file: 'content/pages/e.md', outcome: 'published' }]);

    const missing = await ws.run(['publish', 'hello-world']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'error: Cannot publish: "hello-world" is neither a tracked file or folder nor the server path of a tracked document.',
    );
    expect(missing.stderr).toMatch(/hint: .*server path/);

    await ws.write('content/pages/new.md', '---\ntitle: New\n---\n');
    const untracked = await ws.run(['publish', 'content/pages/new.md', '--json']);
    expect(untracked.code).toBe(2);
    expect(untracked.json.error).toMatchObject({ code: 'NOT_TRACKED' });
    expect(untracked.json.error.message).toContain('content/pages/new.md has no document on the server yet');
    expect(untracked.json.error.hint).toContain('cms push');
    await rm(`${ws.dir}/content/pages/new.md`);
  });
});

describe('a confirmation this run cannot ask', () => {
  it('push of a deleted file without --force, not on a terminal: exit 3, names the flag, deletes nothing', async () => {
    const file = PAGES[5] as string;
    const id = Object.entries((await manifest()).documents).find(([, e]) => e.file === file)?.[0] as string;
    await rm(`${ws.dir}/${file}`);
    for (const extra of [[], ['--non-interactive']]) {
      const refused = await ws.run(['push', ...extra]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/error: Delete 1 document\(s\) whose files are gone \(content\/pages\/f\.md\)/);
      expect(refused.stderr).toContain('hint: Pass --force to answer yes without a prompt.');
      expect(refused.stdout).toBe('');
    }
    expect((await server.request('GET', `/api/v1/content/${id}?draft=true`)).status).toBe(200);
    const forced = await ws.run(['push', '--force', '--json']);
    expect(forced.json.data.summary).toMatchObject({ deleted: 1 });
    expect((await server.request('GET', `/api/v1/content/${id}?draft=true`)).status).toBe(404);
  });
});
