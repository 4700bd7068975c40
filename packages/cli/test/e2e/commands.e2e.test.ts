/**
 * The other commands through the built binary: a TypeScript config with the DSL, a bad config, a
 * server that is down, no key, whoami, env, action, media, migrate (login: login.e2e.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
    // Said once, with the help of the command that failed.
    const text = await ws.run(['pull', '--frce']);
    expect(text.code).toBe(2);
    expect(text.stderr.match(/unknown option/g)).toHaveLength(1);
    expect(text.stderr).toContain("error: unknown option '--frce' (Did you mean --force?)");
    expect(text.stderr).toContain('hint: Run `cms pull --help` to see its options and arguments.');
    const unknown = await ws.run(['pul']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Did you mean pull?');
    expect(unknown.stderr).toContain('`cms --help` to see its commands');
    // No command at all: the help, and exit 2; `cms help <command>` is help, exit 0.
    const bare = await ws.run([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: cms [options] [command]');
    expect((await ws.run(['schema', '--json'])).json.error.message).toContain('cms schema: which command?');
    const helpOf = await ws.run(['help', 'push']);
    expect(helpOf.code).toBe(0);
    expect(helpOf.stdout).toContain('Usage: cms push');
    expect((await ws.run(['--help'])).code).toBe(0);
    for (const command of ['pull', 'push', 'status', 'publish', 'login', 'logout', 'whoami', 'init', 'migrate']) {
      const help = await ws.run([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout).toContain(`Usage: cms ${command}`);
    }
  });
});

describe('one JSON document, and settings checked before they are used', () => {
  it('--json with --help or --version prints one JSON document', async () => {
    const help = await ws.run(['push', '--help', '--json']);
    expect(help.code).toBe(0);
    expect(help.json.data.help).toContain('Usage: cms push');
    const version = await ws.run(['--version', '--json']);
    expect(version.code).toBe(0);
    expect(version.json).toEqual({ ok: true, exitCode: 0, data: { version: expect.stringMatching(/^\d+\.\d+\.\d+/) } });
  });

  it('a --concurrency or CMS_CONCURRENCY that is not 1 to 64 is a usage error', async () => {
    const flag = await ws.run(['status', '--concurrency', 'abc', '--json']);
    expect(flag.code).toBe(2);
    expect(flag.json.error.message).toContain('--concurrency must be a whole number from 1 to 64');
    const variable = await ws.run(['status', '--json'], { env: { CMS_CONCURRENCY: '0' } });
    expect(variable.code).toBe(2);
    expect(variable.json.error.message).toContain('CMS_CONCURRENCY');
  });

  it('a server address without http:// is a usage error, not "cannot reach"', async () => {
    const run = await ws.run(['status', '--json'], { env: { CMS_SERVER_URL: server.url.replace(/^http:\/\//, '') } });
    expect(run.code).toBe(2);
    expect(run.json.error.message).toContain('(from CMS_SERVER_URL) is not an http:// or https:// address');
  });

  it('an address that answers with a web page instead of the API says so', async () => {
    const { createServer } = await import('node:http');
    const page = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Studio</title>');
    });
    await new Promise<void>((done) => page.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(page.address() as import('node:net').AddressInfo).port}/studio`;
    try {
      for (const command of ['whoami', 'status']) {
        const run = await ws.run([command, '--json'], { env: { CMS_SERVER_URL: url } });
        expect(run.code, command).toBe(1);
        expect(run.json.error, command).toMatchObject({
          code: 'NOT_THE_API',
          hint: expect.stringContaining('/studio'),
        });
      }
    } finally {
      await new Promise((done) => page.close(done));
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
    // The name is taken: the server's message says what to do, and no hint about pulling documents.
    const again = await ws.run(['env', 'create', 'staging']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain(
      'error: Environment "staging" already exists in project "default": choose another name, or use the existing one',
    );
    expect(again.stderr).not.toContain('hint:');
    const againJson = await ws.run(['env', 'create', 'staging', '--json']);
    expect(againJson.json.error).toMatchObject({
      code: 'CONFLICT',
      status: 409,
      details: { fields: { 'body.name': expect.stringContaining('choose another name') }, environment: 'staging' },
    });
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
    expect(conflict.stderr).toContain('`cms schema sync --environment staging`');
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
    const typo = await ws.run(['action', 'run', 'me.gt', '--json']);
    expect(typo.code).toBe(2);
    expect(typo.json.error).toMatchObject({
      code: 'UNKNOWN_ACTION',
      hint: expect.stringContaining('Did you mean me.get?'),
    });
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
