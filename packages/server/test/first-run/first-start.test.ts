/**
 * The README's first run, as a person does it: `npm start` (scripts/start.mjs) on an empty data
 * directory, the development key from the start log, then the quick start's requests with the example
 * files: schema sync, create, publish, read back. Then a restart. Runs the built server (the build is
 * the first step of the start script), so it also proves the build is enough to run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeSchemaHash } from '@cms/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples/quick-start');
const MIB = 1024 * 1024;

interface Started {
  child: ChildProcess;
  stderr: string;
  lines: Array<Record<string, any>>;
  address: string;
}

/** Starts `node scripts/start.mjs` and waits for the `server listening` line. */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', CMS_DATA_DIR: dataDir, LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started: Started = { child, stderr: '', lines: [], address: '' };
  let pending = '';
  child.stderr?.on('data', (chunk) => {
    started.stderr += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${started.stderr}`)));
    child.stdout?.on('data', (chunk) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) {
        // Build steps may print plain lines (the Studio build); the server's log lines are JSON.
        if (!part.startsWith('{')) continue;
        const line = JSON.parse(part);
        started.lines.push(line);
        if (line.msg === 'server listening') {
          started.address = line.address;
          resolve();
        }
      }
    });
  });
  return started;
}

async function stop(started: Started): Promise<number | null> {
  if (started.child.exitCode !== null) return started.child.exitCode;
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill('SIGTERM');
  return exited;
}

/** Peak and current resident memory of a process, from /proc (Linux). */
function memory(pid: number): { peak: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1]) * 1024;
  return { peak: kib('VmHWM'), rss: kib('VmRSS') };
}

// Each start builds and starts a real server (a first start also creates a database): minutes on a busy machine.
describe('first run from the README', { timeout: 180_000 }, () => {
  let dataDir: string;
  let first: Started;
  let key: string;
  // Peak resident memory of the first start and of the restart, compared once both ran.
  let firstPeak = 0;
  let restartPeak = 0;
  const request = async (
    method: string,
    path: string,
    options: { body?: string; headers?: Record<string, string> } = {},
  ) => {
    const response = await fetch(`${first.address}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'x-cms-project': 'default',
        'x-cms-environment': 'production',
        'content-type': 'application/json',
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: options.body } : {}),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-first-run-'));
    // One source newer than its output, so this start runs esbuild (a fresh clone transpiles everything).
    const now = new Date();
    utimesSync(join(ROOT, 'packages/server/src/main.ts'), now, now);
    first = await start(dataDir);
  }, 180_000);

  afterAll(async () => {
    if (first) await stop(first);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says what it builds and that it creates the embedded database from the template the build made', () => {
    expect(first.stderr).toMatch(/building packages\/core and packages\/server \(esbuild, changed files only/);
    expect(first.stderr).toMatch(/done: [1-9]\d* of \d+ files transpiled in \d+ ms/);
    expect(first.stderr).toMatch(/checking the embedded database template .*\n.*done: (made|up to date)/);
    expect(first.stderr).toMatch(/checking the Studio build .*\n.*done: (built|up to date)/);
    expect(first.stderr).toContain(
      `first start: creating the embedded database in ${dataDir} (copying the build's template)`,
    );
    // Copied into place by a rename: nothing half-copied is left next to it.
    expect(readdirSync(dataDir).filter((name) => name.includes('.copying-'))).toEqual([]);
  });

  it('leaves no helper process running beside the server (esbuild is stopped after the build)', () => {
    const pid = first.child.pid as number;
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
    );
    expect(children).toEqual([]);
  });

  it('writes a development key once to a file of its own (never to the log), and it holds every scope', () => {
    const line = first.lines.find((entry) => entry.devKeyFile);
    expect(line?.msg).toMatch(/development key/);
    expect(line?.devKeyFile).toBe(join(dataDir, 'dev-key'));
    expect(statSync(line?.devKeyFile).mode & 0o777).toBe(0o600);
    key = readFileSync(line?.devKeyFile, 'utf8').trim();
    expect(key).toMatch(/^cms_key_live_/);
    expect(first.lines.some((entry) => JSON.stringify(entry).includes(key as string))).toBe(false);
    const listening = first.lines.find((entry) => entry.msg === 'server listening');
    expect(listening).toMatchObject({ database: 'pglite', dataDir });
    firstPeak = memory(first.child.pid as number).peak;
  });

  it('goes from the example schema to a published document read back', async () => {
    const schema = JSON.parse(readFileSync(join(EXAMPLES, 'schema.json'), 'utf8'));
    // The ready-made file carries the hash of its own schema (a stale hash would be refused).
    expect(schema.schemaHash).toBe(computeSchemaHash(schema.resolvedSchema));
    const synced = await request('PUT', '/api/v1/schema/sync', { body: JSON.stringify(schema) });
    expect(synced.status).toBe(200);
    expect(synced.body.data).toMatchObject({ synced: true, types: ['author', 'post'], schemaHash: schema.schemaHash });

    const created = await request('POST', '/api/v1/content', {
      body: readFileSync(join(EXAMPLES, 'post.json'), 'utf8'),
      headers: { 'x-cms-schema-hash': schema.schemaHash },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId;

    const published = await request('POST', `/api/v1/content/${id}/publish`, { body: '{}' });
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ documentId: id, publishedVersion: 1 });

    const read = await request('GET', `/api/v1/content/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ frontmatter: { title: 'Hello, world', slug: 'hello-world' } });
    const bySlug = await request('GET', '/api/v1/content?type=post&slug=hello-world');
    expect(bySlug.body.data.map((doc: { documentId: string }) => doc.documentId)).toEqual([id]);
  });

  it('creates a key with every scope through the `*` shorthand', async () => {
    const created = await request('POST', '/api/v1/api-keys', {
      body: JSON.stringify({
        label: 'all scopes, default project',
        scopes: ['*'],
        contextAllowlist: [{ project: 'default', environment: '*' }],
      }),
    });
    expect(created.status).toBe(201);
    expect(created.body.data.scopes).toContain('settings:manage');
    expect(created.body.data.scopes).not.toContain('*');
  });

  it('makes no new key and shows no key on a restart, and the first key still works', async () => {
    expect(await stop(first)).toBe(0);
    const again = await start(dataDir);
    try {
      restartPeak = memory(again.child.pid as number).peak;
      expect(again.stderr).not.toContain('first start');
      expect(again.lines.some((entry) => entry.devKeyFile)).toBe(false);
      const keys = await fetch(`${again.address}/api/v1/api-keys`, { headers: { authorization: `Bearer ${key}` } });
      expect(keys.status).toBe(200);
      const labels = ((await keys.json()) as any).data.map((k: { label: string }) => k.label);
      expect(labels.filter((label: string) => label.startsWith('development key'))).toHaveLength(1);
    } finally {
      await stop(again);
    }
  });

  it('keeps the first start as light as a restart: the database is created in a child process', () => {
    // Compared with a restart on the same Node.js, not with a fixed number: the peak of opening PGlite
    // differs by Node.js version and from run to run (on Node 24, 345-660 MiB for a first start and
    // 410-570 MiB for a restart of the same build, in either order). Creating the database in the
    // server's own process added about 500 MiB on top of that, so a margin of 256 MiB over the restart
    // still catches it without failing on that spread.
    expect(firstPeak).toBeGreaterThan(0);
    expect(restartPeak).toBeGreaterThan(0);
    expect(firstPeak).toBeLessThan(restartPeak + 256 * MIB);
  });

  it('stops with a message naming CMS_DATA_DIR when the database cannot be created', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-first-run-bad-'));
    await writeFile(join(dir, 'db'), 'not a directory');
    try {
      const failed = start(dir);
      const error = await failed.then(
        () => null,
        (reason: Error) => reason,
      );
      expect(error?.message).toMatch(/server exited \(1\)/);
      expect(error?.message).toContain(
        `cms: cannot start: could not create the embedded database in ${join(dir, 'db')}`,
      );
      expect(error?.message).toContain('CMS_DATA_DIR must be a writable directory.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('makes no development key in production', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-first-run-prod-'));
    const production = await start(dir, { NODE_ENV: 'production' });
    try {
      expect(production.lines.some((entry) => entry.devKeyFile)).toBe(false);
      expect(production.lines.find((entry) => entry.setupUrl)).toBeTruthy();
    } finally {
      await stop(production);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
