/**
 * The disk row of `npm run bench`: the embedded database's size against the Markdown it holds. A fresh
 * data directory (the server's first start), BENCH_DISK_DOCS posts (default 10,000, about 4.4 KB of
 * Markdown each, the size the issue measured) pushed as `cms push` sends them (`POST /content/batch`,
 * 100 per request, each with its file text), then all published by one release, then the server stopped
 * and the `db` folder measured (`du`: blocks in use), with `pg_wal` apart. Target: at most 4x.
 *
 *   BENCH_DISK_DOCS=2000 node scripts/bench/disk-ratio.mjs    # prints one JSON line
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createBenchDatabase, disposeAll } from './databases.mjs';
import { startCms, stopAll } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

const DOCS = Number(process.env.BENCH_DISK_DOCS ?? 10_000);
const BATCH = 100;
const log = (message) => process.stderr.write(`[disk-bench] ${message}\n`);

/** One post's file: frontmatter and about 4.4 KB of varied Markdown. */
function postFile(i) {
  const words = ['grace', 'querySelector', 'release', 'garden', 'river', 'compile', 'lantern', 'orbit', 'meadow'];
  const paragraphs = Array.from({ length: 8 }, (_, p) =>
    Array.from({ length: 80 }, (_, w) => words[(i * 7 + p * 13 + w * 31) % words.length]).join(' '),
  );
  const frontmatter = { title: `Post number ${i}`, slug: `post-${i}`, tags: ['bench', `t${i % 50}`] };
  const body = `# Post number ${i}\n\n${paragraphs.join('\n\n')}\n`;
  const source = `---\ntitle: Post number ${i}\nslug: post-${i}\ntags: [bench, t${i % 50}]\n---\n${body}`;
  return { frontmatter, body, source };
}

/** Bytes in use under a folder (`du -sk`, so sparse and partly written files count as stored). */
const diskBytes = (dir) => Number(execFileSync('du', ['-sk', dir]).toString().split('\t')[0]) * 1024;

export async function runDiskRatio() {
  const database = await createBenchDatabase('pglite', { poolMax: 1 });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts: 0, updatePoolSize: 0 });
  await db.close();
  const server = await startCms(database, {
    logLevel: 'warn',
    nodeOptions: [],
    logFile: join(database.dataDir, 'server.log'),
  });
  const headers = {
    authorization: `Bearer ${seed.apiKey}`,
    'content-type': 'application/json',
    'x-cms-project': PROJECT,
    'x-cms-environment': ENVIRONMENT,
    'x-cms-schema-hash': seed.schemaHash,
  };
  const call = async (method, path, body) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json.data;
  };
  try {
    let markdownBytes = 0;
    const ids = [];
    const pushStarted = performance.now();
    for (let start = 0; start < DOCS; start += BATCH) {
      const operations = [];
      for (let i = start; i < Math.min(DOCS, start + BATCH); i += 1) {
        const file = postFile(i);
        markdownBytes += Buffer.byteLength(file.source);
        operations.push({ op: 'create', type: 'post', path: `posts/post-${String(i).padStart(6, '0')}`, ...file });
      }
      const result = await call('POST', '/api/v1/content/batch', { operations });
      if (result.failed > 0) throw new Error(`batch failed: ${JSON.stringify(result.results.find((r) => !r.ok))}`);
      for (const r of result.results) ids.push(r.document.documentId);
    }
    const pushMs = Math.round(performance.now() - pushStarted);
    log(`pushed ${DOCS} posts (${(markdownBytes / 1e6).toFixed(1)} MB of Markdown) in ${pushMs} ms`);
    const release = await call('POST', '/api/v1/releases', { title: 'Disk bench' });
    for (let start = 0; start < ids.length; start += 1000) {
      const items = ids.slice(start, start + 1000).map((documentId) => ({ documentId, action: 'publish' }));
      await call('POST', `/api/v1/releases/${release.id}/items`, { items });
    }
    const publishStarted = performance.now();
    const published = await call('POST', `/api/v1/releases/${release.id}/publish`);
    if (published.status !== 'published') throw new Error(`release ended ${published.status}`);
    const publishMs = Math.round(performance.now() - publishStarted);
    log(`published in ${publishMs} ms`);
    // Whatever the server does after bulk work (analyze, the maintenance worker's vacuum) has its moment.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await server.stop();
    const dbDir = join(database.dataDir, 'db');
    const totalBytes = diskBytes(dbDir);
    const walBytes = diskBytes(join(dbDir, 'pg_wal'));
    return {
      docs: DOCS,
      markdownBytes,
      totalBytes,
      walBytes,
      ratio: Number((totalBytes / markdownBytes).toFixed(2)),
      pushMs,
      publishMs,
      loadAverage: loadavg().map((l) => Number(l.toFixed(1))),
    };
  } finally {
    await server.stop();
    await database.dispose();
  }
}

/** The markdown of the row. */
export function renderDiskRatio(result) {
  if (result.error) return `### Embedded database on disk\n\nfailed: ${result.error}\n`;
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  return [
    `### Embedded database on disk (${result.docs} posts pushed and published; load average ${result.loadAverage.join(', ')})`,
    '',
    '| Markdown (MB) | data directory (MB) | of which pg_wal (MB) | ratio | target | push (s) | publish (s) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${mb(result.markdownBytes)} | ${mb(result.totalBytes)} | ${mb(result.walBytes)} | ${result.ratio}x | 4x | ${(result.pushMs / 1000).toFixed(1)} | ${(result.publishMs / 1000).toFixed(1)} |`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDiskRatio()
    .then((result) => process.stdout.write(`${JSON.stringify(result)}\n${renderDiskRatio(result)}\n`))
    .catch(async (error) => {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
      await stopAll();
      await disposeAll();
      process.exit(1);
    });
}
