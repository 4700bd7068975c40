/**
 * Benchmark of `cms pull` and `cms push` on a seeded server: the built binary as a child process,
 * timed end to end (process start, requests, file writes, manifest). Steps: pull every document
 * into an empty folder, push with no edits (must send nothing), edit every post body, push the edits.
 *
 *   node scripts/bench/cli-sync.mjs            # BENCH_CLI_DOCS=10000 posts (+300 authors), PostgreSQL
 *   BENCH_CLI_DOCS=200 BENCH_CLI_ENGINE=pglite node scripts/bench/cli-sync.mjs
 *
 * Settings: BENCH_CLI_DOCS (posts), BENCH_CLI_COMPARE (e.g. `0,50`: push the edits again under each
 * CMS_BATCH_SIZE, 0 being one request per document, on the same server and load), BENCH_CLI_ENGINE (`postgres` or `pglite`; PostgreSQL falls back to
 * PGlite when it does not answer), BENCH_DATABASE_URL, BENCH_POOL_MAX (server pool, 10), BENCH_CLI_CONCURRENCY (the CLI's --concurrency),
 * BENCH_CLI_NODE_ARGS (Node flags for the CLI process alone, e.g. `--cpu-prof --cpu-prof-dir=<dir>`).
 * Needs `npm run build` and `npx tsc -b packages/cli` first. Prints one JSON line with the timings.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { failBench, runCms, startCliBench } from './cli-bench-server.mjs';
import { readCpuMs } from './processes.mjs';

const docs = Number(process.env.BENCH_CLI_DOCS ?? 10_000);
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const concurrency = process.env.BENCH_CLI_CONCURRENCY ?? '16';
// Extra Node flags for the CLI process only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
const nodeArgs = (process.env.BENCH_CLI_NODE_ARGS ?? '').split(' ').filter(Boolean);
const log = (message) => process.stderr.write(`[cli-bench] ${message}\n`);

/** Runs the CLI and returns its exit code, parsed JSON and wall time. */
const cms = (args, cwd, env) => runCms(args, cwd, env, { nodeArgs, extraArgs: ['--concurrency', concurrency] });

/** Runs a step and adds the server's CPU time during it, to tell a busy server from a busy CLI. */
async function step(server, run) {
  const before = readCpuMs(server.pid);
  const result = await run();
  const after = readCpuMs(server.pid);
  return { ...result, serverCpuMs: before === null || after === null ? null : after - before };
}

async function listFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}

async function main() {
  const started = performance.now();
  const bench = await startCliBench({
    posts: docs,
    engine: process.env.BENCH_CLI_ENGINE ?? 'postgres',
    adminUrl,
    poolMax: Number(process.env.BENCH_POOL_MAX ?? 10),
    log,
  });
  const { engine, dir, env, server } = bench;
  log(
    `${engine}: seeded ${docs} posts and 300 authors, server started, in ${Math.round(performance.now() - started)} ms`,
  );
  try {
    const pull = await step(server, () => cms(['pull'], dir, env));
    if (pull.code !== 0) throw new Error(`pull failed: ${JSON.stringify(pull.json).slice(0, 500)}`);
    const files = await listFiles(dir);
    log(`pull: ${files.length} files in ${pull.ms} ms (server CPU ${pull.serverCpuMs} ms)`);

    const noop = await step(server, () => cms(['push'], dir, env));
    if (noop.json.data.results.length !== 0) throw new Error('push with no edits sent requests');
    log(`push with no edits: ${noop.ms} ms (nothing sent)`);

    const posts = files.filter((f) => f.includes(`${join('posts', 'posts')}`));
    for (const file of posts) await writeFile(file, `${await readFile(file, 'utf8')}\nEdited by the benchmark.\n`);
    const push = await step(server, () => cms(['push'], dir, env));
    if (push.code !== 0 || push.json.data.summary.updated !== posts.length) {
      throw new Error(`push failed: ${JSON.stringify(push.json.data?.summary ?? push.json)}`);
    }
    log(`push: ${posts.length} updates in ${push.ms} ms (server CPU ${push.serverCpuMs} ms)`);

    // BENCH_CLI_COMPARE="0,25": push the edits again under each CMS_BATCH_SIZE, on the same server and load.
    const compare = {};
    for (const size of (process.env.BENCH_CLI_COMPARE ?? '').split(',').filter(Boolean)) {
      for (const file of posts) await writeFile(file, `${await readFile(file, 'utf8')}Edited again (${size}).\n`);
      const again = await step(server, () => cms(['push'], dir, { ...env, CMS_BATCH_SIZE: size }));
      if (again.code !== 0 || again.json.data.summary.updated !== posts.length) {
        throw new Error(
          `push (CMS_BATCH_SIZE=${size}) failed: ${JSON.stringify(again.json.data?.summary ?? again.json)}`,
        );
      }
      compare[size] = again.ms;
      log(
        `push with CMS_BATCH_SIZE=${size}: ${posts.length} updates in ${again.ms} ms (server CPU ${again.serverCpuMs} ms)`,
      );
    }
    const repull = await cms(['pull'], dir, env);
    log(`pull after push: ${repull.json.data.applied.length} files changed in ${repull.ms} ms`);
    process.stdout.write(
      `${JSON.stringify({ engine, posts: docs, documents: files.length, concurrency: Number(concurrency), pullMs: pull.ms, noopPushMs: noop.ms, pushMs: push.ms, pullServerCpuMs: pull.serverCpuMs, pushServerCpuMs: push.serverCpuMs, loadAverage: loadavg().map((l) => Number(l.toFixed(1))), updated: posts.length, repullMs: repull.ms, ...(Object.keys(compare).length ? { pushMsByBatchSize: compare } : {}) })}\n`,
    );
  } finally {
    await bench.dispose();
  }
}

main().catch((error) => failBench(log, error));
