/**
 * examples/astro-site as its build test runs it: `astro build`, the built Node server and `astro dev`,
 * on Node 22 from the npm `node` package (Astro needs Node >= 22.12; .ci/node-smoke fetches it the same
 * way), in child processes on free ports, against a test server.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../../../', import.meta.url));
export const site = join(repo, 'examples/astro-site');
/** The site's own `astro` (a workspace: npm installs it there or at the root). */
const astroBin = [join(site, 'node_modules/astro/bin/astro.mjs'), join(repo, 'node_modules/astro/bin/astro.mjs')].find(
  (file) => existsSync(file),
) as string;

/** The path of Node 22's binary. */
export function node22(): string {
  return execFileSync('npx', ['-y', 'node@22', '-p', 'process.execPath'], { encoding: 'utf8' }).trim();
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** `astro build`; its output is kept for the assertions and their messages. */
export function astroBuild(node: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(node, [astroBin, 'build', '--root', site], { cwd: site, timeout: 300_000, env }, (error, out, err) => {
      if (process.env.ASTRO_BUILD_LOG) console.log(out, err);
      done({ code: error ? 1 : 0, output: `${out}${err}` });
    });
  });
}

/** A child process answering HTTP on `url`, and how to stop it; `output` collects what it prints. */
export interface Running {
  url: string;
  output: string[];
  stop(): Promise<void>;
}

async function answering(child: ChildProcess, url: string, output: string[]): Promise<Running> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`exited before answering:\n${output.join('')}`);
    const ready = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (ready !== 0) return { url, output, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`did not answer on ${url}:\n${output.join('')}`);
}

function spawnLogged(node: string, args: string[], env: NodeJS.ProcessEnv) {
  const output: string[] = [];
  const child = spawn(node, args, { cwd: site, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  return { child, output };
}

/** The built site's Node server (`@astrojs/node`, standalone): static pages and the live pages. */
export async function serveBuilt(node: string, env: NodeJS.ProcessEnv, outDir: string): Promise<Running> {
  const port = await freePort();
  const { child, output } = spawnLogged(node, [join(outDir, 'server/entry.mjs')], {
    ...env,
    HOST: '127.0.0.1',
    PORT: String(port),
  });
  return answering(child, `http://127.0.0.1:${port}`, output);
}

/** `astro dev` on a free port. */
export async function astroDev(node: string, env: NodeJS.ProcessEnv): Promise<Running> {
  const port = await freePort();
  const { child, output } = spawnLogged(node, [astroBin, 'dev', '--root', site, '--port', String(port)], env);
  return answering(child, `http://127.0.0.1:${port}`, output);
}
