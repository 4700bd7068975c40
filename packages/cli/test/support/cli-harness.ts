/**
 * Runs the built `cms` binary as a child process in a scratch folder against a real server on
 * loopback. The binary is built once per test file (incremental tsc).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
export const BIN = join(repo, 'packages/cli/dist/bin.js');

export function buildCli(): void {
  execFileSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-b', join(repo, 'packages/cli')], {
    stdio: 'inherit',
  });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed stdout when --json was passed. */
  json: any;
}

export interface Workspace {
  dir: string;
  env: Record<string, string>;
  run(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliRun>;
  write(file: string, text: string): Promise<void>;
  read(file: string): Promise<string>;
  /** Every file under the folder (relative name → text), the .cms manifest excluded. */
  snapshot(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** A workspace whose `cms` talks to `server` with its admin key, in the default project's production environment. */
export function workspaceOn(server: { url: string; adminKey: string }): Promise<Workspace> {
  return createWorkspace({
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: server.adminKey,
    CMS_PROJECT: 'default',
    CMS_ENVIRONMENT: 'production',
  });
}

export async function createWorkspace(env: Record<string, string>): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-cli-'));
  const baseEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config-home'),
    CMS_NO_KEYRING: '1',
    NO_COLOR: '1',
    ...env,
  };
  const walk = async (at: string, out: Record<string, string>) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      if (entry.name === '.cms' || entry.name === '.config-home') continue;
      const full = join(at, entry.name);
      if (entry.isDirectory()) await walk(full, out);
      else out[relative(dir, full)] = await readFile(full, 'utf8');
    }
  };
  return {
    dir,
    env: baseEnv,
    run(args, options = {}) {
      return new Promise((done) => {
        const child = execFile(
          process.execPath,
          [BIN, ...args],
          { cwd: dir, env: { ...baseEnv, ...options.env }, timeout: 60_000 },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
            let json: unknown;
            if (args.includes('--json')) {
              try {
                json = JSON.parse(stdout);
              } catch {
                json = undefined;
              }
            }
            done({ code, stdout, stderr, json });
          },
        );
        if (options.input !== undefined) child.stdin?.end(options.input);
        else child.stdin?.end();
      });
    },
    async write(file, text) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    },
    read: (file) => readFile(join(dir, file), 'utf8'),
    async snapshot() {
      const out: Record<string, string> = {};
      await walk(dir, out);
      return out;
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A config with a localized `post` type and a non-localized `page` type. */
export const CONFIG_MJS = `export default {
  project: 'default',
  environment: 'production',
  locales: ['en', 'fr'],
  types: [
    {
      name: 'post',
      directory: 'content/posts',
      localized: true,
      fields: {
        title: { kind: 'string', required: true },
        date: { kind: 'date' },
        tags: { kind: 'array', items: { kind: 'string' } },
        draft: { kind: 'boolean', default: false },
      },
    },
    {
      name: 'page',
      directory: 'content/pages',
      fields: {
        title: { kind: 'string', required: true },
      },
    },
  ],
};
`;
