/**
 * The compressed-read rows of `npm run bench`: a cached published item GET and a cached list of 20, both
 * with `Accept-Encoding: br, gzip`, against a bare `node:http` server (its own process) that writes the
 * very bytes and headers the CMS answered, from memory: the ceiling of sending compressed JSON.
 * The machine's background load drifts within seconds, so the two are measured in alternating rounds
 * (ceiling, CMS, ceiling, CMS, ...) and the row reports the median of the per-round ratios.
 * BENCH_COMPRESSED: `on` (default), `only` (these rows alone), `off`. BENCH_COMPRESSED_ROUNDS (default 6),
 * BENCH_COMPRESSED_SECONDS per measurement (default 3), BENCH_COMPRESSED_CONNECTIONS (default 10),
 * BENCH_COMPRESSED_ACCEPT (default `br, gzip`; `identity` measures the same rows uncompressed).
 * The CMS logs every request at `info`, its log going to a file in its data directory as in production;
 * BENCH_COMPRESSED_LOG=pipe sends it to a pipe this process reads (and drops) instead.
 * BENCH_COMPRESSED_CMS_ARGS: Node options for the CMS process alone, space-separated (for example
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a cached read spends its time).
 * BENCH_COMPRESSED_ROWS: the rows to measure, comma-separated (`item`, `list`; default both).
 * Beside the rates, each row reports the CPU time each server spent per request (user and system, of
 * every thread, read from /proc on Linux): a figure the background load moves far less than the rates,
 * since the load generator shares the machine's cores with the server it measures.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, readCpuMs } from './processes.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'packages/server/dist/main.js');

/** @param {NodeJS.ProcessEnv} env */
export function compressedMode(env = process.env) {
  const mode = env.BENCH_COMPRESSED || 'on';
  if (!['on', 'only', 'off'].includes(mode)) throw new Error(`BENCH_COMPRESSED must be on, only or off, got "${mode}"`);
  return /** @type {'on' | 'only' | 'off'} */ (mode);
}

/**
 * Starts a process and resolves with it once a stdout JSON line passes `ready`. Later output is read and
 * dropped unparsed: this process also runs the load generator, and parsing tens of thousands of request
 * lines a second (and keeping them) would slow the measurement of the very server that writes them.
 */
function startProcess(args, env, ready) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let pending = '';
    const lines = [];
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code})`)));
    const read = (chunk) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      for (const part of parts) {
        if (!part.startsWith('{')) continue;
        const line = JSON.parse(part);
        lines.push(line);
        if (ready(line, lines)) {
          child.stdout.off('data', read);
          child.stdout.resume();
          resolve({ child, lines });
          return;
        }
      }
    };
    child.stdout.on('data', read);
    child.stderr.resume();
  });
}

/**
 * Starts a process whose output goes to a file, as a server's log does in production (and as the other
 * rows of the bench run it, processes.mjs), and resolves once a JSON line of that file passes `ready`.
 * Nothing in this process reads the request lines the server writes while it is measured.
 */
async function startLoggingToFile(args, env, ready, logFile) {
  // The script, not a Node option before it (BENCH_COMPRESSED_CMS_ARGS).
  const name = args.at(-1);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode})`);
    const lines = (await readFile(logFile, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    if (lines.some((line) => ready(line, lines))) return { child, lines };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  throw new Error(`${name} was not ready within 30 s`);
}

/** The bare server: one JSON argument { path: { headers, body (base64) } }, answers from memory. */
const CEILING_SOURCE = `
const http = require('node:http');
const answers = JSON.parse(process.env.CEILING_ANSWERS);
for (const answer of Object.values(answers)) answer.body = Buffer.from(answer.body, 'base64');
const server = http.createServer((req, res) => {
  const answer = answers[req.url];
  if (!answer) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(Number(process.env.CEILING_PORT), '127.0.0.1', () => console.log(JSON.stringify({ event: 'ready' })));
`;

/** Requests per second against `url`, and the CPU microseconds `pid` spent per request meanwhile. */
async function rps(url, headers, seconds, connections, pid) {
  const before = readCpuMs(pid);
  const result = await autocannon({ url, headers, duration: seconds, connections });
  const after = readCpuMs(pid);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const requests = result.requests.average * seconds;
  const cpuMicros = before === null || after === null || requests === 0 ? null : ((after - before) * 1000) / requests;
  return { rate: result.requests.average, cpuMicros };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Seeds 20 published posts in a fresh embedded CMS, then measures both rows. */
export async function runCompressedReads(env = process.env) {
  const rounds = Number(env.BENCH_COMPRESSED_ROUNDS || 6);
  const seconds = Number(env.BENCH_COMPRESSED_SECONDS || 3);
  const connections = Number(env.BENCH_COMPRESSED_CONNECTIONS || 10);
  const accept = env.BENCH_COMPRESSED_ACCEPT || 'br, gzip';
  const logTo = env.BENCH_COMPRESSED_LOG || 'file';
  if (!['file', 'pipe'].includes(logTo)) throw new Error(`BENCH_COMPRESSED_LOG must be file or pipe, got "${logTo}"`);
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-compressed-'));
  const port = await freePort();
  const ceilingPort = await freePort();
  const processes = [];
  try {
    const cmsEnv = {
      PORT: String(port),
      CMS_DATA_DIR: dataDir,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
    };
    const listening = (line) => line.msg === 'server listening';
    const cmsArgs = [...(env.BENCH_COMPRESSED_CMS_ARGS ?? '').split(' ').filter(Boolean), MAIN];
    const cms =
      logTo === 'file'
        ? await startLoggingToFile(cmsArgs, cmsEnv, listening, join(dataDir, 'server.log'))
        : await startProcess(cmsArgs, cmsEnv, listening);
    processes.push(cms.child);
    // The key is written to the data directory, never to the log (docs/access-control.md "Development key").
    const keyFile = cms.lines.find((line) => line.devKeyFile)?.devKeyFile;
    if (!keyFile) throw new Error('the CMS made no development key (no devKeyFile in its log)');
    const key = (await readFile(keyFile, 'utf8')).trim();
    const base = `http://127.0.0.1:${port}/api/v1`;
    const headers = {
      authorization: `Bearer ${key}`,
      'x-cms-project': 'default',
      'x-cms-environment': 'production',
      'content-type': 'application/json',
    };
    const schema = JSON.parse(await readFile(join(ROOT, 'examples/quick-start/schema.json'), 'utf8'));
    await fetch(`${base}/schema/sync`, { method: 'PUT', headers, body: JSON.stringify(schema) });
    // Varied prose (a fixed pseudo-random walk over a vocabulary), so the bodies compress like real text
    // (about 3-4x) rather than like one sentence repeated.
    const words = (
      'the a of to and in is it for on with as was at by an be this that from or have not are but ' +
      'content editor document publish schema field reference locale media webhook environment draft ' +
      'version release search index query server cache request response header browser build site page ' +
      'markdown frontmatter title slug author tag image link table list code block paragraph section'
    ).split(' ');
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const prose = (count) => Array.from({ length: count }, () => words[next() % words.length]).join(' ');
    let itemId = '';
    for (let n = 0; n < 20; n += 1) {
      const created = await fetch(`${base}/content`, {
        method: 'POST',
        headers: { ...headers, 'x-cms-schema-hash': schema.schemaHash },
        body: JSON.stringify({
          type: 'post',
          path: `posts/compressed-${n}`,
          frontmatter: { title: `Compressed post ${n}`, slug: `compressed-${n}`, tags: ['bench'] },
          body: `# Post ${n}\n\n${prose(500)}.`,
        }),
      });
      const id = (await created.json()).data.documentId;
      await fetch(`${base}/content/${id}/publish`, { method: 'POST', headers, body: '{}' });
      itemId ||= id;
    }
    const wanted = (env.BENCH_COMPRESSED_ROWS || 'item,list').split(',').map((row) => row.trim());
    const paths = Object.fromEntries(
      Object.entries({ item: `/api/v1/content/${itemId}`, list: '/api/v1/content?type=post&limit=20' }).filter(
        ([name]) => wanted.includes(name),
      ),
    );
    if (Object.keys(paths).length === 0) throw new Error('BENCH_COMPRESSED_ROWS names no row: use item, list or both');
    const readHeaders = { ...headers, 'accept-encoding': accept };
    delete readHeaders['content-type'];
    /** @type {Record<string, { headers: Record<string, string>, body: string, bytes: number, encoding: string }>} */
    const answers = {};
    for (const [name, path] of Object.entries(paths)) {
      // Twice: the second answer comes from the read cache.
      await rawGet(`http://127.0.0.1:${port}${path}`, readHeaders);
      const raw = await rawGet(`http://127.0.0.1:${port}${path}`, readHeaders);
      const keep = ['content-type', 'content-encoding', 'vary', 'etag', 'cache-control'];
      answers[path] = {
        headers: Object.fromEntries(keep.filter((h) => raw.headers[h]).map((h) => [h, String(raw.headers[h])])),
        body: raw.body.toString('base64'),
        bytes: raw.body.byteLength,
        encoding: String(raw.headers['content-encoding'] ?? 'none'),
        name,
      };
    }
    const ceiling = await startProcess(
      ['-e', CEILING_SOURCE],
      { CEILING_PORT: String(ceilingPort), CEILING_ANSWERS: JSON.stringify(answers) },
      (line) => line.event === 'ready',
    );
    processes.push(ceiling.child);
    const rows = [];
    for (const [name, path] of Object.entries(paths)) {
      const ratios = [];
      const cmsRps = [];
      const ceilingRps = [];
      const cmsCpu = [];
      const ceilingCpu = [];
      const ceilingUrl = `http://127.0.0.1:${ceilingPort}${path}`;
      const cmsUrl = `http://127.0.0.1:${port}${path}`;
      // One unmeasured round each, so both are warm.
      await rps(ceilingUrl, readHeaders, 1, connections, ceiling.child.pid);
      await rps(cmsUrl, readHeaders, 2, connections, cms.child.pid);
      for (let round = 0; round < rounds; round += 1) {
        const top = await rps(ceilingUrl, readHeaders, seconds, connections, ceiling.child.pid);
        const got = await rps(cmsUrl, readHeaders, seconds, connections, cms.child.pid);
        ceilingRps.push(top.rate);
        cmsRps.push(got.rate);
        ratios.push(got.rate / top.rate);
        if (top.cpuMicros !== null && got.cpuMicros !== null) {
          ceilingCpu.push(top.cpuMicros);
          cmsCpu.push(got.cpuMicros);
        }
      }
      rows.push({
        name,
        encoding: answers[path].encoding,
        bytes: answers[path].bytes,
        cmsRps: Math.round(median(cmsRps)),
        ceilingRps: Math.round(median(ceilingRps)),
        medianRatio: median(ratios),
        ratios: ratios.map((r) => Math.round(r * 100)),
        cmsCpuMicros: cmsCpu.length ? Math.round(median(cmsCpu)) : null,
        ceilingCpuMicros: ceilingCpu.length ? Math.round(median(ceilingCpu)) : null,
      });
    }
    return { accept, logTo, rounds, seconds, connections, rows };
  } finally {
    for (const child of processes) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A GET with node:http, the body as sent (fetch would decode it). */
async function rawGet(url, headers) {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** @param {Awaited<ReturnType<typeof runCompressedReads>>} result */
export function renderCompressedReads(result) {
  return [
    `### Compressed cached reads vs a bare node:http server sending the same bytes (\`Accept-Encoding: ${result.accept}\`, request log to a ${result.logTo}, ${result.connections} connections, ${result.rounds} alternating rounds of ${result.seconds} s)`,
    '',
    '| read | encoding | bytes | CMS req/s (median) | bare node:http req/s (median) | median of ratios | ratios per round (%) | target | CPU per request, CMS / bare (median) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (row) =>
        `| ${row.name === 'item' ? 'item GET' : 'list of 20'} | ${row.encoding} | ${row.bytes} | ${row.cmsRps} | ${row.ceilingRps} | ${Math.round(row.medianRatio * 100)}% | ${row.ratios.join(', ')} | ${row.name === 'item' ? '60%' : '80%'} | ${row.cmsCpuMicros === null ? 'n/a' : `${row.cmsCpuMicros} µs / ${row.ceilingCpuMicros} µs`} |`,
    ),
    '',
  ].join('\n');
}
