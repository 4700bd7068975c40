/**
 * A successful write is never reported as a failure: when the answer of a publish or a content
 * migration comes later than `--timeout` (`CMS_TIMEOUT`), the built `cms` follows the operation
 * (the release's state, the migration's record) and reports the server's result; after `--wait`
 * (`CMS_WAIT`) it stops saying the server may still finish and how to check. A loopback proxy holds
 * the request until the CLI has asked about it twice, so the server answers late, whatever the load.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, type CliRun, CONFIG_MJS, createWorkspace, type Workspace } from '../support/cli-harness.js';
import { type HoldingProxy, startHoldingProxy } from '../support/holding-proxy.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;
const PAGES = ['one', 'two', 'three'];

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.mjs', CONFIG_MJS);
  for (const name of PAGES) await ws.write(`content/pages/${name}.md`, `---\ntitle: ${name}\n---\nBody\n`);
  expect((await ws.run(['schema', 'sync', '--json'])).code).toBe(0);
  expect((await ws.run(['push', '--json'])).code).toBe(0);
}, 240_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

const RELEASE = /^GET \/api\/v1\/releases\/[0-9a-f-]{36}$/;

/** Waits until the proxy answered the CLI's questions, or the CLI ended first (then says how). */
async function asked(proxy: HoldingProxy, run: Promise<CliRun>, pattern: RegExp, count: number): Promise<void> {
  const first = await Promise.race([proxy.answered(pattern, count).then(() => undefined), run]);
  if (first)
    throw new Error(`the CLI ended before asking ${count} time(s): ${first.code} ${first.stdout}${first.stderr}`);
}

describe('a late answer is followed to its end', () => {
  it('cms publish: the publish answers after the timeout, the CLI follows the release and reports it published', async () => {
    const proxy = await startHoldingProxy(server.url, (line) => /^POST \/api\/v1\/releases\/.+\/publish$/.test(line));
    try {
      const run = ws.run(['publish', 'content/pages', '--json'], {
        env: { CMS_SERVER_URL: proxy.url, CMS_TIMEOUT: '1' },
      });
      // The CLI gave up waiting for the answer and asked for the release twice (it was still open).
      await asked(proxy, run, RELEASE, 2);
      proxy.release();
      const done = await run;
      expect(done.code, done.stdout + done.stderr).toBe(0);
      expect(done.stderr).toMatch(
        /Publishing release \S+: no answer within 1 s \(--timeout\); the server may still be working/,
      );
      expect(done.stderr).toMatch(/Publishing release \S+: finished on the server after/);
      expect(done.json.data.release.status).toBe('published');
      expect(done.json.data.results.map((r: { outcome: string }) => r.outcome)).toEqual([
        'published',
        'published',
        'published',
      ]);
      const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
      for (const entry of Object.values(manifest.documents) as { id: string; publishedVersion: number }[]) {
        expect(entry.publishedVersion).toBe(1);
        const doc = await server.request('GET', `/api/v1/content/${entry.id}?draft=true`);
        expect(doc.body.data.publishedVersion).toBe(1);
      }
    } finally {
      await proxy.close();
    }
  });

  it('cms content migrate: follows the migration by its name until the server records it; --dry-run changes nothing', async () => {
    await ws.write(
      'noindex.json',
      JSON.stringify({ name: 'retitle', type: 'page', operations: [{ op: 'set', field: 'title', value: 'Same' }] }),
    );
    const dry = await ws.run(['content', 'migrate', 'noindex.json', '--dry-run', '--json']);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.json.data).toMatchObject({ name: 'retitle', matched: 3, changed: 3, applied: false });
    const untouched = await server.request('GET', '/api/v1/content?type=page&draft=true');
    expect(untouched.body.data.map((d: { frontmatter: { title: string } }) => d.frontmatter.title).sort()).toEqual([
      'one',
      'three',
      'two',
    ]);

    const proxy = await startHoldingProxy(server.url, (line) => line === 'POST /api/v1/content/migrations');
    try {
      const run = ws.run(['content', 'migrate', 'noindex.json', '--json'], {
        env: { CMS_SERVER_URL: proxy.url, CMS_TIMEOUT: '1' },
      });
      await asked(proxy, run, /^GET \/api\/v1\/content\/migrations\/retitle$/, 2);
      proxy.release();
      const done = await run;
      expect(done.code, done.stdout + done.stderr).toBe(0);
      expect(done.stderr).toContain('Applying migration retitle: no answer within 1 s');
      expect(done.json.data).toMatchObject({ name: 'retitle', type: 'page', matched: 3, changed: 3, applied: true });
    } finally {
      await proxy.close();
    }
    const shown = await ws.run(['content', 'migration', 'retitle']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^retitle: applied \S+ to 3 of 3 page document\(s\)/);
  });

  it('after --wait it stops, says the server may still finish and how to check; the release then shows it done', async () => {
    const created = await ws.run(['release', 'create', 'Late', '--json']);
    const id = created.json.data.id as string;
    expect((await ws.run(['release', 'add', id, 'content/pages/one.md', '--json'])).code).toBe(0);
    const proxy = await startHoldingProxy(server.url, (line) => line === `POST /api/v1/releases/${id}/publish`);
    try {
      const run = await ws.run(['release', 'publish', id, '--json'], {
        env: { CMS_SERVER_URL: proxy.url, CMS_TIMEOUT: '1', CMS_WAIT: '2' },
      });
      expect(run.code).toBe(1);
      expect(run.json.error.code).toBe('OPERATION_PENDING');
      expect(run.json.error.message).toContain(`Publishing release ${id}: the server has not finished after`);
      expect(run.json.error.hint).toContain(`The server may still finish it: check with \`cms release show ${id}\``);
      expect(run.json.error.hint).toContain('--wait (CMS_WAIT)');
      proxy.release();
      await proxy.answered(new RegExp(`^POST /api/v1/releases/${id}/publish$`), 1);
    } finally {
      await proxy.close();
    }
    const show = await ws.run(['release', 'show', id, '--json']);
    expect(show.json.data.status).toBe('published');
  });

  it('cms push: a batch whose answer is late is followed in the digest, and its documents recorded as created', async () => {
    for (const name of ['late-a', 'late-b'])
      await ws.write(`content/pages/${name}.md`, `---\ntitle: ${name}\n---\nLate\n`);
    const proxy = await startHoldingProxy(server.url, (line) => line === 'POST /api/v1/content/batch');
    try {
      const run = ws.run(['push', '--json'], { env: { CMS_SERVER_URL: proxy.url, CMS_TIMEOUT: '1' } });
      await asked(proxy, run, /^GET \/api\/v1\/content\/digest$/, 3);
      proxy.release();
      const done = await run;
      expect(done.code, done.stdout + done.stderr).toBe(0);
      expect(done.stderr).toContain('Pushing a batch of 2 document(s): no answer within 1 s');
      expect(done.json.data.summary).toMatchObject({ created: 2, failed: 0 });
    } finally {
      await proxy.close();
    }
    // Recorded as the server has them: in sync (the other pages changed on the server in the migration test).
    const status = await ws.run(['status', '--json']);
    const drifted = status.json.data.items.map((item: { file: string }) => item.file);
    expect(drifted).not.toContain('content/pages/late-a.md');
    expect(drifted).not.toContain('content/pages/late-b.md');
    const manifest = JSON.parse(await ws.read('.cms/default.production.json'));
    const files = Object.values(manifest.documents).map((entry) => (entry as { file: string }).file);
    expect(files).toEqual(expect.arrayContaining(['content/pages/late-a.md', 'content/pages/late-b.md']));
  });

  it('a bad --timeout or CMS_WAIT is a usage error naming it', async () => {
    const flag = await ws.run(['status', '--timeout', '0', '--json']);
    expect(flag.code).toBe(2);
    expect(flag.json.error.message).toContain('--timeout must be a number of seconds above 0, not "0"');
    const env = await ws.run(['status', '--json'], { env: { CMS_WAIT: 'soon' } });
    expect(env.code).toBe(2);
    expect(env.json.error.message).toContain('CMS_WAIT must be a number of seconds above 0, not "soon"');
  });
});
