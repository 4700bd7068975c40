/**
 * `cms login`, `whoami` and `logout` through the built binary against a real server, with a real
 * user approving the device challenge: the loopback callback, the code shown by the page for
 * `--no-browser` (pasted later with `--code`), and the key's lifecycle.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  asSession,
  createUser,
  login,
  PASSWORD,
  type Session,
  sessionOf,
  uniqueEmail,
} from '../../../server/test/identity/identity-helpers.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { BIN, buildCli, createWorkspace, type Workspace } from '../support/cli-harness.js';

vi.setConfig({ testTimeout: 180_000 });

let server: TestServer;
let ws: Workspace;
let session: Session;

// No key from the environment: the key comes from `cms login`.
const env = { CMS_API_KEY: '', CMS_PROJECT: 'default', CMS_ENVIRONMENT: 'production' };

beforeAll(async () => {
  buildCli();
  server = await startTestServer();
  ws = await createWorkspace({ CMS_SERVER_URL: server.url });
  const email = uniqueEmail('cli');
  await createUser(server, { email, role: 'admin' });
  session = sessionOf(await login(server.url, email, PASSWORD));
}, 120_000);

afterAll(async () => {
  await ws?.close();
  await server?.close();
});

/** What the authorize page does: shows the challenge to the signed-in user, who approves it. */
async function approve(challengeId: string): Promise<{ code: string; callbackUrl: string | null }> {
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
  return { code: approved.body.data.code, callbackUrl: shown.body.data.callbackUrl };
}

/** The challenge's loopback address, as the authorize page reads it. */
async function callbackOf(challengeId: string): Promise<string> {
  const shown = await asSession(server.url, session, 'GET', `/api/v1/auth/cli/challenges/${challengeId}`, {
    project: null,
    environment: null,
  });
  expect(shown.status, shown.text).toBe(200);
  return shown.body.data.callbackUrl;
}

/** The user code `cms login` printed for the person to compare with the page. */
function userCodeOf(stderr: string): string | undefined {
  return stderr.match(/The page must show the code (\d{3}-\d{3})\./)?.[1];
}

/** What the Deny button of the authorize page does on the server. */
async function denyOnServer(challengeId: string): Promise<void> {
  const denied = await asSession(server.url, session, 'POST', '/api/v1/auth/cli/deny', {
    body: { challengeId },
    project: null,
    environment: null,
  });
  expect(denied.status, denied.text).toBe(200);
}

/** Starts `cms login --json` (browser "opened" by `true`) and resolves once it waits for the browser. */
async function startWaitingLogin() {
  const child = spawn(process.execPath, [BIN, 'login', '--json'], {
    cwd: ws.dir,
    env: { ...ws.env, ...env, BROWSER: 'true' },
  });
  const out = { stderr: '', stdout: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  const exited = new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
  const challengeId = await new Promise<string>((done) => {
    child.stderr.on('data', (d) => {
      out.stderr += d;
      const id = challengeOf(out.stderr);
      if (id && out.stderr.includes('Waiting for the browser')) done(id);
    });
  });
  return { child, out, exited, challengeId };
}

function challengeOf(stderr: string): string | undefined {
  const match = stderr.match(/\S+\/studio\/cli\/authorize\?challenge=(\S+)/);
  return match?.[1];
}

describe('login', () => {
  it('device flow through the loopback callback, key stored 0600, whoami with it, logout revokes it', async () => {
    // BROWSER=true "opens" the address without a browser; the test plays the browser below.
    const child = spawn(process.execPath, [BIN, 'login', '--json'], {
      cwd: ws.dir,
      env: { ...ws.env, ...env, BROWSER: 'true' },
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const challengeId = await new Promise<string>((done) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const id = challengeOf(stderr);
        if (id && stderr.includes('Waiting for the browser')) done(id);
      });
    });
    const { code, callbackUrl } = await approve(challengeId);
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\//);
    // The page sends the browser back to the loopback address with the code.
    const callback = await fetch(`${callbackUrl}?challengeId=${challengeId}&code=${code}`);
    expect(callback.status).toBe(200);
    const exit = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
    expect(exit, stderr).toBe(0);
    expect(JSON.parse(stdout).data).toMatchObject({ signedIn: true, store: 'file' });
    expect(stderr).toMatch(/No OS keychain/);
    expect((await stat(`${ws.dir}/.config-home/cms/credentials.json`)).mode & 0o777).toBe(0o600);

    const who = await ws.run(['whoami', '--json'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.json.data.sources.apiKey).toBe('credentials file');
    expect(who.json.data.principal.principalType).toBe('apiKey');

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

  it('--no-browser without a terminal: the page shows the code (no callback), `--code` finishes the sign-in', async () => {
    const started = await ws.run(['login', '--no-browser', '--json'], { env });
    expect(started.code, started.stderr).toBe(0);
    expect(started.json.data).toMatchObject({ signedIn: false, pending: { expiresAt: expect.any(String) } });
    expect(started.stderr).toContain('cms login --code <code>');
    const challengeId = challengeOf(started.stderr) as string;
    const { code, callbackUrl } = await approve(challengeId);
    // No loopback address: a browser on another machine could not come back to it.
    expect(callbackUrl).toBeNull();

    const wrong = await ws.run(['login', '--code', 'AAAA-BBBB', '--json'], { env });
    expect(wrong.code).toBe(4);
    expect(wrong.json.error).toMatchObject({ code: 'LOGIN_FAILED', hint: expect.stringContaining('--code') });
    expect(wrong.json.error.message).toMatch(/tries left/);

    const right = await ws.run(['login', '--code', code, '--json'], { env });
    expect(right.code, right.stderr).toBe(0);
    expect(right.json.data).toMatchObject({ signedIn: true });
    expect((await ws.run(['whoami', '--json'], { env })).code).toBe(0);

    // The waiting sign-in is used up.
    const again = await ws.run(['login', '--code', code, '--json'], { env });
    expect(again.code).toBe(4);
    expect(again.json.error.code).toBe('LOGIN_NOT_STARTED');
    expect(again.json.error.hint).toContain('cms login --no-browser');
  });

  it('prints the user code the authorize page shows, before the browser is needed', async () => {
    const { child, out, exited, challengeId } = await startWaitingLogin();
    try {
      const shown = await asSession(server.url, session, 'GET', `/api/v1/auth/cli/challenges/${challengeId}`, {
        project: null,
        environment: null,
      });
      expect(userCodeOf(out.stderr)).toBe(shown.body.data.userCode);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });

  it('a denial on the page stops the waiting login at once: LOGIN_DENIED, exit 4', async () => {
    const { out, exited, challengeId } = await startWaitingLogin();
    const deniedAt = Date.now();
    await denyOnServer(challengeId);
    // The CLI polls the server every 2 s: it stops well before the challenge's 10 minutes.
    const exit = await exited;
    expect(Date.now() - deniedAt).toBeLessThan(10_000);
    expect(exit, out.stderr).toBe(4);
    expect(JSON.parse(out.stdout)).toMatchObject({
      ok: false,
      exitCode: 4,
      error: {
        code: 'LOGIN_DENIED',
        message: expect.stringMatching(/denied/),
        hint: expect.stringContaining('cms login'),
      },
    });
  });

  it('a denial sent back to the loopback address stops the login too, without waiting for a poll', async () => {
    const { out, exited, challengeId } = await startWaitingLogin();
    const callbackUrl = await callbackOf(challengeId);
    // What the page does after Deny when the command line gave a callback.
    const back = await fetch(`${callbackUrl}?challengeId=${challengeId}&error=access_denied`);
    expect(back.status).toBe(200);
    expect(await back.text()).toMatch(/denied/);
    expect(await exited, out.stderr).toBe(4);
    expect(JSON.parse(out.stdout).error.code).toBe('LOGIN_DENIED');
    // The server was not told here (the page tells it first): the stop came from the loopback answer.
    const polled = await server.request('POST', '/api/v1/auth/cli/poll', {
      body: { challengeId },
      key: null,
      project: null,
      environment: null,
    });
    expect(polled.body.data).toEqual({ status: 'pending' });
  });

  it('--no-browser then --code after a denial: LOGIN_DENIED, and the waiting sign-in is forgotten', async () => {
    const started = await ws.run(['login', '--no-browser', '--json'], { env });
    expect(started.code, started.stderr).toBe(0);
    const challengeId = challengeOf(started.stderr) as string;
    expect(started.json.data.pending.userCode).toBe(userCodeOf(started.stderr));
    await denyOnServer(challengeId);
    const after = await ws.run(['login', '--code', 'AAAA-BBBB', '--json'], { env });
    expect(after.code).toBe(4);
    expect(after.json.error.code).toBe('LOGIN_DENIED');
    const again = await ws.run(['login', '--code', 'AAAA-BBBB', '--json'], { env });
    expect(again.json.error.code).toBe('LOGIN_NOT_STARTED');
  });

  it('no key for a mistyped project names the target and the keys that are stored', async () => {
    const run = await ws.run(['status', '--project', 'defualt', '--json'], { env });
    expect(run.code).toBe(4);
    expect(run.json.error.message).toContain('project "defualt", environment "production"');
    expect(run.json.error.hint).toContain('default/production');
  });

  it('logout with the server down forgets the key here and says it stays valid on the server', async () => {
    const file = `${ws.dir}/.config-home/cms/credentials.json`;
    await mkdir(`${ws.dir}/.config-home/cms`, { recursive: true });
    const down = 'http://127.0.0.1:9';
    const account = `${down}|default|production`;
    await writeFile(file, JSON.stringify({ [account]: { apiKey: 'cms_key_cli_offline', store: 'file' } }), {
      mode: 0o600,
    });
    const out = await ws.run(['logout', '--json'], { env: { ...env, CMS_SERVER_URL: down } });
    expect(out.code, out.stderr).toBe(0);
    expect(out.json.data).toMatchObject({ signedOut: true, revoked: false });
    expect(out.json.data.reason).toMatch(/Cannot reach the server/);
    expect(out.stderr).toMatch(/stays valid until it expires or an admin revokes it/);
    expect(JSON.parse(await readFile(file, 'utf8'))[account]).toBeUndefined();
  });
});
