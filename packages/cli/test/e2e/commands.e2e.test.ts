/**
 * The other commands through the built binary: a TypeScript config with the DSL, a bad config, a
 * server that is down, no key, whoami, env, action, media, migrate, login/logout.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  asSession,
  createUser,
  login,
  PASSWORD,
  sessionOf,
  uniqueEmail,
} from '../../../server/test/identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';

// Each test runs the binary several times; a loaded machine makes a process start take seconds.
vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;

const TS_CONFIG = `import { defineConfig, defineType, field } from '@cms/cli';

enum Section { News = 'news', Blog = 'blog' }

const article = defineType({
  name: 'article',
  directory: 'articles',
  fields: {
    title: field.string().required(),
    section: field.enum([Section.News, Section.Blog]),
  },
});

export default defineConfig({ project: 'default', environment: 'production', types: [article] });
`;

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
  await ws.write('cms.config.ts', TS_CONFIG);
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

describe('config', () => {
  it('loads a TypeScript config with the DSL (enums included) and syncs it', async () => {
    const sync = await ws.run(['schema', 'sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.json.data).toMatchObject({ synced: true, types: ['article'] });
    const schema = await server.request('GET', '/api/v1/schema');
    expect(schema.body.data.types[0].fields.section).toMatchObject({ kind: 'enum', values: ['news', 'blog'] });
  });

  it('a bad field names the file, the line and the field; exit 2', async () => {
    const bad = await createWorkspace({ CMS_SERVER_URL: server.url, CMS_API_KEY: server.adminKey });
    await bad.write(
      'cms.config.mjs',
      "export default {\n  types: [\n    {\n      name: 'post',\n      fields: {\n        title: { kind: 'string' },\n        count: { kind: 'integer' },\n      },\n    },\n  ],\n};\n",
    );
    const run = await bad.run(['schema', 'diff', '--json'], {
      env: { CMS_PROJECT: 'default', CMS_ENVIRONMENT: 'production' },
    });
    expect(run.code).toBe(2);
    expect(run.json.error.code).toBe('CONFIG_INVALID');
    expect(run.json.error.details).toMatchObject({
      file: `${bad.dir}/cms.config.mjs`,
      line: 7,
      field: 'types[0].fields.count.kind',
    });
    const text = await bad.run(['schema', 'diff'], { env: { CMS_PROJECT: 'default', CMS_ENVIRONMENT: 'production' } });
    expect(text.stderr).toContain('cms.config.mjs:7: types[0].fields.count.kind');
    await bad.close();
  });

  it('a syntax error names the file and line', async () => {
    const bad = await createWorkspace({});
    await bad.write(
      'cms.config.ts',
      'export default {\n  types: [\n    { name: "x", fields: { a: { kind: "string" } }\n  ],\n};\n',
    );
    const run = await bad.run(['status', '--json']);
    expect(run.code).toBe(2);
    expect(run.json.error.message).toContain('cms.config.ts');
    expect(run.json.error.details.line).toBeGreaterThan(0);
    await bad.close();
  });
});

describe('settings and failures', () => {
  it('flags win over environment variables', async () => {
    const run = await ws.run(['whoami', '--json', '--server-url', 'http://127.0.0.1:9']);
    expect(run.code).toBe(1);
    expect(run.json.error.code).toBe('SERVER_UNREACHABLE');
    expect(run.json.error.hint).toMatch(/--server-url/);
  });

  it('a server that is down: exit 1, one JSON document with the code', async () => {
    const run = await ws.run(['pull', '--json'], { env: { CMS_SERVER_URL: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ ok: false, exitCode: 1, error: { code: 'SERVER_UNREACHABLE' } });
  });

  it('no key: exit 4 with how to sign in; a wrong key: exit 4 too', async () => {
    const none = await ws.run(['pull', '--json'], { env: { CMS_API_KEY: '' } });
    expect(none.code).toBe(4);
    expect(none.json.error.hint).toMatch(/cms login/);
    const wrong = await ws.run(['whoami', '--json', '--api-key', 'cms_key_live_nope']);
    expect(wrong.code).toBe(4);
  });

  it('a usage error exits 2, in JSON too', async () => {
    const run = await ws.run(['pull', '--bogus', '--json']);
    expect(run.code).toBe(2);
    expect(run.json.error.code).toBe('USAGE');
    expect((await ws.run(['--help'])).code).toBe(0);
    for (const command of ['pull', 'push', 'status', 'publish', 'login', 'logout', 'whoami', 'init', 'migrate']) {
      const help = await ws.run([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout).toContain(`Usage: cms ${command}`);
    }
  });
});

describe('server commands', () => {
  it('whoami shows the principal and where the key came from', async () => {
    const run = await ws.run(['whoami', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.data).toMatchObject({
      principal: { principalType: 'apiKey' },
      project: 'default',
      sources: { apiKey: 'CMS_API_KEY' },
    });
  });

  it('env list, create, clone, promote (plan, then apply with --yes)', async () => {
    expect((await ws.run(['env', 'list', '--json'])).json.data.map((e: any) => e.name)).toContain('production');
    const created = await ws.run(['env', 'create', 'staging', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const schema = await server.request('GET', '/api/v1/schema');
    const doc = await server.request('POST', '/api/v1/content', {
      body: { type: 'article', path: 'one', frontmatter: { title: 'One' } },
      headers: { 'x-cms-schema-hash': schema.body.data.schemaHash },
    });
    expect(
      (await server.request('POST', `/api/v1/content/${doc.body.data.documentId}/publish`, { body: {} })).status,
    ).toBe(200);
    const conflict = await ws.run(['env', 'promote', 'production', 'staging', '--dry-run', '--json']);
    expect(conflict.code, JSON.stringify(conflict.json)).toBe(5);
    expect((await ws.run(['schema', 'sync', '--environment', 'staging', '--json'])).code).toBe(0);
    const clone = await ws.run(['env', 'clone', 'production', 'preview', '--json']);
    expect(clone.code, clone.stderr).toBe(0);
    const plan = await ws.run(['env', 'promote', 'production', 'staging', '--dry-run', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.json.data).toMatchObject({ applied: false, plan: [{ path: 'one', action: 'create' }] });
    const refused = await ws.run(['env', 'promote', 'production', 'staging', '--json']);
    expect(refused.code, JSON.stringify(plan.json)).toBe(3);
    const applied = await ws.run(['env', 'promote', 'production', 'staging', '--yes', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json.data.applied).toBe(true);
  });

  it('action list and action run', async () => {
    const list = await ws.run(['action', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.data.map((a: any) => a.id)).toContain('me.get');
    const run = await ws.run(['action', 'run', 'me.get', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.data.principalType).toBe('apiKey');
  });

  it('media upload sends each file', async () => {
    await ws.write('logo.txt', 'hello media');
    const run = await ws.run(['media', 'upload', 'logo.txt', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.data.results[0]).toMatchObject({ outcome: 'uploaded', asset: { filename: 'logo.txt' } });
    const missing = await ws.run(['media', 'upload', 'nope.png', '--json']);
    expect(missing.code).toBe(2);
  });

  it('migrate shows the dry run, asks, and applies with --yes', async () => {
    await ws.write(
      'rename.json',
      JSON.stringify({
        name: 'set-section',
        type: 'article',
        operations: [{ op: 'set', field: 'section', value: 'news' }],
      }),
    );
    const dry = await ws.run(['migrate', 'rename.json', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json.data.preview).toMatchObject({ changed: 1, applied: false });
    const refused = await ws.run(['migrate', 'rename.json', '--json']);
    expect(refused.code).toBe(3);
    const applied = await ws.run(['migrate', 'rename.json', '--yes', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json.data.result).toMatchObject({ applied: true, changed: 1 });
  });
});

describe('login', () => {
  it('device flow through the loopback callback, key stored 0600, whoami with it, logout revokes it', async () => {
    const email = uniqueEmail('cli');
    await createUser(server, { email, role: 'admin' });
    const session = sessionOf(await login(server.url, email, PASSWORD));
    const env = { CMS_API_KEY: '', CMS_PROJECT: 'default', CMS_ENVIRONMENT: 'production' };
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../support/cli-harness.js');
    const child = spawn(process.execPath, [BIN, 'login', '--no-browser', '--json'], {
      cwd: ws.dir,
      env: { ...ws.env, ...env },
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const authorizeUrl = await new Promise<string>((done) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const match = stderr.match(/(\S+\/studio\/cli\/authorize\?challenge=(\S+))/);
        if (match?.[1]) done(match[1]);
      });
    });
    const challengeId = new URL(authorizeUrl).searchParams.get('challenge') as string;
    const shown = await asSession(server.url, session, 'GET', `/api/v1/auth/cli/challenges/${challengeId}`, {
      project: null,
      environment: null,
    });
    expect(shown.status, shown.text).toBe(200);
    const approved = await asSession(server.url, session, 'POST', '/api/v1/auth/cli/authorize', {
      body: { challengeId },
      project: null,
      environment: null,
    });
    expect(approved.status, approved.text).toBe(200);
    // What the authorize page does: send the browser to the loopback address with the code.
    const callback = await fetch(
      `${shown.body.data.callbackUrl}?challengeId=${challengeId}&code=${approved.body.data.code}`,
    );
    expect(callback.status).toBe(200);
    const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).data).toMatchObject({ signedIn: true, store: 'file' });
    expect(stderr).toMatch(/No OS keychain/);
    const { stat } = await import('node:fs/promises');
    expect((await stat(`${ws.dir}/.config-home/cms/credentials.json`)).mode & 0o777).toBe(0o600);

    const who = await ws.run(['whoami', '--json'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.json.data.sources.apiKey).toBe('credentials file');
    expect(who.json.data.principal.principalType).toBe('apiKey');

    const { readFile } = await import('node:fs/promises');
    const stored = Object.values(JSON.parse(await readFile(`${ws.dir}/.config-home/cms/credentials.json`, 'utf8')))[0];
    const cliKey = (stored as { apiKey: string }).apiKey;
    expect(cliKey).toMatch(/^cms_key_cli_/);

    const out = await ws.run(['logout', '--json'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.json.data).toEqual({ signedOut: true, revoked: true });
    expect((await ws.run(['whoami', '--json'], { env })).code).toBe(4);
    const refused = await server.request('GET', '/api/v1/me', { key: cliKey });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await server.request('GET', '/api/v1/me')).status).toBe(200);
  });

  it('logout with the server down forgets the key here and says it stays valid on the server', async () => {
    const { mkdir, writeFile, readFile } = await import('node:fs/promises');
    const file = `${ws.dir}/.config-home/cms/credentials.json`;
    await mkdir(`${ws.dir}/.config-home/cms`, { recursive: true });
    const down = 'http://127.0.0.1:9';
    const account = `${down}|default|production`;
    await writeFile(file, JSON.stringify({ [account]: { apiKey: 'cms_key_cli_offline', store: 'file' } }), {
      mode: 0o600,
    });
    const env = { CMS_API_KEY: '', CMS_SERVER_URL: down, CMS_PROJECT: 'default', CMS_ENVIRONMENT: 'production' };
    const out = await ws.run(['logout', '--json'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.json.data).toMatchObject({ signedOut: true, revoked: false });
    expect(out.json.data.reason).toMatch(/Cannot reach the server/);
    expect(out.stderr).toMatch(/stays valid until it expires or an admin revokes it/);
    expect(JSON.parse(await readFile(file, 'utf8'))[account]).toBeUndefined();
  });

  it('a bad pasted code is refused with exit 4', async () => {
    const run = await ws.run(['login', '--no-browser', '--code', 'AAAA-BBBB', '--json'], {
      env: { CMS_API_KEY: '', CMS_PROJECT: 'default', CMS_ENVIRONMENT: 'production' },
    });
    expect(run.code).toBe(4);
    expect(run.json.error.code).toBe('LOGIN_FAILED');
  });
});
