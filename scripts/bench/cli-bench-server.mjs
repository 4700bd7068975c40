/**
 * What the `cms` benchmarks share (scripts/bench/cli-sync.mjs, scripts/bench/cli-import.mjs): a
 * seeded database on PostgreSQL (PGlite when PostgreSQL does not answer), the real server started
 * on it, a scratch folder with the CLI's settings in its environment, and the built binary run as
 * a child process with its wall time.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase, disposeAll, probePostgres } from './databases.mjs';
import { startCms, stopAll } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

export const CLI_BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

/**
 * Runs the CLI with --json; answers its exit code, parsed JSON and wall time (process start included).
 * `nodeArgs`: Node flags for the CLI process alone (e.g. `--cpu-prof --cpu-prof-dir=<dir>`).
 */
export function runCms(args, cwd, env, { nodeArgs = [], extraArgs = [] } = {}) {
  const started = performance.now();
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [...nodeArgs, CLI_BIN, ...args, '--json', ...extraArgs],
      { cwd, env, maxBuffer: 1 << 28 },
      (error, stdout, stderr) => {
        const ms = Math.round(performance.now() - started);
        let json;
        try {
          json = JSON.parse(stdout);
        } catch {
          fail(new Error(`cms ${args.join(' ')} printed no JSON (exit ${error?.code}): ${stderr.slice(-2000)}`));
          return;
        }
        done({ code: error ? error.code : 0, json, ms });
      },
    );
  });
}

/**
 * Seeds `posts` posts (and the seed's authors), starts the server, makes the scratch folder.
 * `engine`: `postgres` (default; PGlite when it does not answer) or `pglite`.
 */
export async function startCliBench({ posts, engine = 'postgres', adminUrl, poolMax = 10, log }) {
  if (engine === 'postgres') {
    const probe = await probePostgres(adminUrl);
    if (!probe.version) {
      log(`PostgreSQL does not answer (${probe.reason}): using PGlite`);
      engine = 'pglite';
    }
  }
  const database = await createBenchDatabase(engine, { adminUrl, poolMax });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts, updatePoolSize: 1 });
  await db.close();
  const server = await startCms(database, {
    logLevel: 'warn',
    nodeOptions: [],
    logFile: join(database.dataDir, 'server.log'),
  });
  const dir = await mkdtemp(join(tmpdir(), 'cms-cli-bench-'));
  const env = {
    ...process.env,
    CMS_SERVER_URL: server.url,
    CMS_API_KEY: seed.apiKey,
    CMS_PROJECT: PROJECT,
    CMS_ENVIRONMENT: ENVIRONMENT,
    CMS_NO_KEYRING: '1',
  };
  return {
    engine,
    seed,
    server,
    dir,
    env,
    async dispose() {
      await rm(dir, { recursive: true, force: true });
      await server.stop();
      await database.dispose();
    },
  };
}

/** On a failure: logs it, stops every server and drops every benchmark database, exits 1. */
export async function failBench(log, error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  await stopAll();
  await disposeAll();
  process.exit(1);
}
