/**
 * Benchmark of adopting a docs tree with `cms`: the built binary as a child process against a server
 * with an empty `post` collection. Steps: push BENCH_IMPORT_FILES new files (target under 30 s on
 * PostgreSQL), then `cms status` twice (the first learns the manifest's stat cache, the second is the
 * steady state: target under 2 s), a push with nothing to send (target under 2 s) and `cms publish` of
 * every pushed file, all or none through one release (target under 15 s).
 *
 *   node scripts/bench/cli-import.mjs                     # 10,000 files, PostgreSQL
 *   BENCH_IMPORT_FILES=1000 BENCH_CLI_ENGINE=pglite node scripts/bench/cli-import.mjs
 *
 * Settings: BENCH_IMPORT_FILES, BENCH_CLI_ENGINE, BENCH_DATABASE_URL, BENCH_CLI_NODE_ARGS (Node flags for the
 * CLI process alone). Needs `npm run build` first. Prints one JSON line with the timings and whether each
 * target was met; `npm run bench` runs it as the "cms import" row (scripts/bench/cli-row.mjs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { failBench, runCms, startCliBench } from './cli-bench-server.mjs';

const files = Number(process.env.BENCH_IMPORT_FILES ?? 10_000);
const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
// Extra Node flags for the CLI process only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
const nodeArgs = (process.env.BENCH_CLI_NODE_ARGS ?? '').split(' ').filter(Boolean);
const log = (message) => process.stderr.write(`[cli-import] ${message}\n`);
const TARGETS = { pushMs: 30_000, statusMs: 2_000, noopPushMs: 2_000, publishMs: 15_000 };
const cms = (args, cwd, env) => runCms(args, cwd, env, { nodeArgs });

/** A page as real trees have them: a comment, a flow list, a quoted one-letter value, some body. */
function page(i) {
  return `---\n# generated page ${i}\ntitle: "Page ${i}"\nslug: page-${i}\ntags: [docs, 'y', section-${i % 50}]\n---\n${'Some text of the page. '.repeat(20)}\n`;
}

const CONFIG = `export default {
  types: [
    { name: 'author', directory: 'authors', fields: { name: { kind: 'string', required: true } } },
    {
      name: 'post',
      directory: 'posts',
      fields: {
        title: { kind: 'string', required: true },
        slug: { kind: 'string' },
        author: { kind: 'reference', reference: { targetType: 'author' } },
        tags: { kind: 'array', items: { kind: 'string' } },
      },
    },
  ],
};
`;

async function main() {
  const bench = await startCliBench({
    posts: 0,
    engine: process.env.BENCH_CLI_ENGINE ?? 'postgres',
    adminUrl,
    log,
  });
  const { engine, dir, env } = bench;
  try {
    await writeFile(join(dir, 'cms.config.mjs'), CONFIG);
    const pull = await cms(['pull'], dir, env);
    if (pull.code !== 0) throw new Error(`pull failed: ${JSON.stringify(pull.json).slice(0, 500)}`);
    for (let i = 0; i < files; i++) {
      const folder = join(dir, 'posts', `section-${i % 100}`);
      if (i < 100) await mkdir(folder, { recursive: true });
      await writeFile(join(folder, `page-${i}.md`), page(i));
    }
    const push = await cms(['push'], dir, env);
    if (push.code !== 0 || push.json.data.summary.created !== files) {
      throw new Error(`push failed: ${JSON.stringify(push.json.data?.summary ?? push.json).slice(0, 500)}`);
    }
    log(`push of ${files} new files: ${push.ms} ms`);
    const learn = await cms(['status'], dir, env);
    const status = await cms(['status'], dir, env);
    if (status.code !== 0) throw new Error(`status found drift: ${JSON.stringify(status.json).slice(0, 500)}`);
    log(`status: ${learn.ms} ms (learning the stat cache), then ${status.ms} ms`);
    const noop = await cms(['push'], dir, env);
    if (noop.json.data.results.length !== 0) throw new Error('push with no edits sent requests');
    log(`push with no edits: ${noop.ms} ms`);
    // The pushed drafts go live together: the manifest read, each file checked, one release.
    const publish = await cms(['publish', 'posts'], dir, env);
    if (publish.code !== 0 || publish.json.data.release?.status !== 'published') {
      throw new Error(`publish failed: ${JSON.stringify(publish.json).slice(0, 500)}`);
    }
    log(`publish of ${files} documents: ${publish.ms} ms`);
    const result = {
      engine,
      files,
      pushMs: push.ms,
      firstStatusMs: learn.ms,
      statusMs: status.ms,
      noopPushMs: noop.ms,
      publishMs: publish.ms,
    };
    const met = Object.fromEntries(Object.entries(TARGETS).map(([k, limit]) => [k, result[k] <= limit]));
    process.stdout.write(`${JSON.stringify({ ...result, targets: TARGETS, met, loadAverage: loadavg() })}\n`);
  } finally {
    await bench.dispose();
  }
}

main().catch((error) => failBench(log, error));
