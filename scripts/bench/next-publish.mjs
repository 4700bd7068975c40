/**
 * The Next.js row of `npm run bench` (docs/benchmarks.md): publish to visible on examples/next-site.
 * The site is built with `next build` and served by `next start` against the CMS (its own process, the
 * real `npm start`), behind a local HTTPS front (CMS_DEV=true lets the CMS deliver to it), with a real
 * webhook on `content.published`. Each sample edits and publishes one post and then asks for its page
 * as fast as it can answer, until the new title shows: the time from the publish request to the first
 * answer showing it. It also counts answers that were still stale after the site had answered the
 * webhook (the target is none). Target: p95 under 1 s.
 *
 *   node scripts/bench/next-publish.mjs     # BENCH_NEXT_SAMPLES (default 40), BENCH_NEXT_ENGINE (pglite)
 *
 * Needs `npm run build` first. Prints one JSON line with the figures.
 */
import { execFile, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generate } from 'selfsigned';
import { createBenchDatabase, disposeAll } from './databases.mjs';
import { freePort, startCms, stopAll } from './processes.mjs';
import { ENVIRONMENT, PROJECT, seedDatabase } from './seed.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = join(ROOT, 'examples/next-site');
const NEXT_BIN = join(ROOT, 'node_modules/next/dist/bin/next');
const SAMPLES = Number(process.env.BENCH_NEXT_SAMPLES || 40);
const POSTS = 10;
const TARGET_P95_MS = 1_000;
const SECRET = 'whsec_bench_next_0123456789abcdef0123';
const log = (message) => process.stderr.write(`[next-bench] ${message}\n`);

/** An HTTPS front for the site (a self-signed certificate the CMS accepts under CMS_DEV). */
async function httpsFront(targetPort, onAnswered) {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keyType: 'ec', algorithm: 'sha256' });
  const server = createHttps({ key: pems.private, cert: pems.cert }, (incoming, outgoing) => {
    const forward = httpRequest(
      { host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('end', () => onAnswered(answer.statusCode));
      },
    );
    incoming.pipe(forward);
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise((resolve) => server.close(resolve)) };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const engine = process.env.BENCH_NEXT_ENGINE || 'pglite';
  const database = await createBenchDatabase(engine, {
    adminUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    poolMax: 5,
  });
  const db = await database.open();
  const seed = await seedDatabase(db, { posts: 1, updatePoolSize: 1 });
  await db.close();
  process.env.CMS_DEV = 'true';
  const cms = await startCms(database, {
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
    const response = await fetch(`${cms.url}/api/v1${path}`, {
      method,
      headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json.data;
  };
  const author = await call('POST', '/content', { type: 'author', path: 'bench-author', frontmatter: { name: 'Ada' } });
  await call('POST', `/content/${author.documentId}/publish`, {});
  const posts = [];
  for (let i = 1; i <= POSTS; i++) {
    const frontmatter = { title: `Post ${i}`, slug: `bench-${i}`, author: author.documentId, tags: [] };
    const made = await call('POST', '/content', { type: 'post', path: `bench-${i}`, frontmatter, body: 'Text.' });
    await call('POST', `/content/${made.documentId}/publish`, {});
    posts.push({ ...made, frontmatter });
  }
  const siteEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NEXT_TELEMETRY_DISABLED: '1',
    CMS_SERVER_URL: cms.url,
    CMS_API_KEY: seed.apiKey,
    CMS_PROJECT: PROJECT,
    CMS_ENVIRONMENT: ENVIRONMENT,
    CMS_WEBHOOK_SECRET: SECRET,
  };
  log('next build');
  await promisify(execFile)(process.execPath, [NEXT_BIN, 'build'], { cwd: SITE, env: siteEnv, maxBuffer: 1 << 24 });
  const sitePort = await freePort();
  const site = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(sitePort), '-H', '127.0.0.1'], {
    cwd: SITE,
    env: siteEnv,
    stdio: 'ignore',
  });
  const siteUrl = `http://127.0.0.1:${sitePort}`;
  let acknowledgedAt = 0;
  const front = await httpsFront(sitePort, (status) => {
    if (status === 200) acknowledgedAt = performance.now();
  });
  try {
    for (let ready = false; !ready; )
      ready = await fetch(siteUrl).then(
        (r) => r.ok,
        () => false,
      );
    await call('POST', '/webhooks', {
      url: `https://127.0.0.1:${front.port}/api/revalidate`,
      events: ['content.published'],
      secret: SECRET,
    });
    for (const post of posts) await fetch(`${siteUrl}/posts/${post.path}`).then((r) => r.text());
    const samples = [];
    let staleAfterAck = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const post = posts[i % posts.length];
      const title = `Post ${post.path} edition ${i}`;
      const current = await call('GET', `/content/${post.documentId}?draft=true`);
      await call('PUT', `/content/${post.documentId}`, {
        frontmatter: { ...post.frontmatter, title },
        body: 'Text.',
        draftRevision: current.draftRevision,
      });
      acknowledgedAt = 0;
      const started = performance.now();
      await call('POST', `/content/${post.documentId}/publish`, {});
      for (;;) {
        const asked = performance.now();
        const html = await (await fetch(`${siteUrl}/posts/${post.path}`)).text();
        if (html.includes(`>${title}</h1>`)) break;
        if (acknowledgedAt !== 0 && asked > acknowledgedAt) staleAfterAck++;
      }
      samples.push(performance.now() - started);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const p95 = Math.round(percentile(sorted, 95));
    process.stdout.write(
      `${JSON.stringify({
        engine,
        samples: SAMPLES,
        p50Ms: Math.round(percentile(sorted, 50)),
        p95Ms: p95,
        maxMs: Math.round(sorted.at(-1)),
        staleAfterAck,
        targetMs: TARGET_P95_MS,
        met: p95 < TARGET_P95_MS && staleAfterAck === 0,
      })}\n`,
    );
  } finally {
    site.kill('SIGTERM');
    await front.close();
    await stopAll();
    await database.dispose();
    await rm(join(SITE, '.next'), { recursive: true, force: true });
  }
}

main().catch(async (error) => {
  console.error('[next-bench] failed:', error);
  await stopAll().catch(() => undefined);
  await disposeAll().catch(() => undefined);
  process.exit(1);
});
