/**
 * Child processes of the benchmark: the CMS server (`packages/server/dist/main.js`, exactly what
 * `npm start` runs) and the ceiling server. Cold start, readiness, resident memory and stopping.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVER_MAIN = fileURLToPath(new URL('../../packages/server/dist/main.js', import.meta.url));
const CEILING_MAIN = fileURLToPath(new URL('./ceiling-server.mjs', import.meta.url));
/** Longest wait for a child to become ready (a 100k PGlite data dir opens in a few seconds). */
const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 10;
/** How long after readiness the startup log line may still take to appear. */
const STARTUP_LOG_WAIT_MS = 2_000;
/** Longest wait for a graceful stop before SIGKILL (the server's own limit is 25 s). */
const STOP_TIMEOUT_MS = 30_000;
const LOG_TAIL_CHARS = 2_000;

/**
 * @typedef {object} Child
 * @property {number} pid
 * @property {string} url Base address, e.g. http://127.0.0.1:43210
 * @property {() => Promise<number | null>} stop SIGTERM, then SIGKILL after a timeout; resolves to the exit code.
 */

/**
 * @typedef {Child & { coldStartMs: number, startupLogMs: number | null, logFile: string }} CmsChild
 */

/** A free loopback port (the OS picks it; nothing else binds it before the child does, in practice). */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Resident set size of a process in bytes, from `/proc/<pid>/status` (VmRSS); null when unavailable.
 * @param {number} pid
 * @returns {number | null}
 */
export function readRssBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Stop functions of children still running, so an interrupted run leaves none behind. */
const running = new Set();

/** Stops every child still running (Ctrl-C during a run). */
export async function stopAll() {
  await Promise.all([...running].map((stop) => stop()));
}

/** Linux reports process CPU time in clock ticks of 1/USER_HZ s; USER_HZ is 100 on every mainstream build. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from `/proc/<pid>/stat`; null when unavailable.
 * @param {number} pid
 * @returns {number | null}
 */
export function readCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @returns {() => Promise<number | null>}
 */
function stopper(child) {
  const stop = async () => {
    running.delete(stop);
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const [code] = await exited;
    clearTimeout(timer);
    return code;
  };
  running.add(stop);
  child.once('exit', () => running.delete(stop));
  return stop;
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} file */
function logTail(file) {
  try {
    return readFileSync(file, 'utf8').slice(-LOG_TAIL_CHARS);
  } catch {
    return '';
  }
}

/**
 * `startupMs` of the server's own "server listening" log line (main.ts), or null.
 * @param {string} file
 */
function readStartupLog(file) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('server listening')) continue;
    try {
      const entry = JSON.parse(line);
      if (typeof entry.startupMs === 'number') return entry.startupMs;
    } catch {
      // not a JSON line; keep looking
    }
  }
  return null;
}

/**
 * Starts the CMS server on the benchmark database and waits for the first successful `GET /readyz`.
 * Its log (LOG_LEVEL, one JSON line per request at `info`) goes to a file, as in production.
 * @param {import('./databases.mjs').BenchDatabase} database
 * @param {{ logLevel: string, nodeOptions: string[], logFile: string }} options
 * @returns {Promise<CmsChild>}
 */
export async function startCms(database, options) {
  const port = await freePort();
  /** @type {Record<string, string | undefined>} */
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    CMS_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CMS_DATA_DIR: database.dataDir,
    DATABASE_URL: database.databaseUrl ?? '',
    DATABASE_POOL_MAX: String(database.poolMax),
    CMS_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
    CMS_MEDIA_DRIVER: 'fs',
    LOG_LEVEL: options.logLevel,
  };
  const fd = openSync(options.logFile, 'a');
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...options.nodeOptions, SERVER_MAIN], {
    env,
    cwd: database.dataDir,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitForReady(child, `${url}/readyz`);
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : error}\n--- server log ---\n${logTail(options.logFile)}`,
    );
  }
  const coldStartMs = Math.round(performance.now() - startedAt);
  // The server logs "server listening" after its workers start, which can be just after /readyz answers.
  let startupLogMs = readStartupLog(options.logFile);
  for (let waited = 0; startupLogMs === null && waited < STARTUP_LOG_WAIT_MS; waited += READY_POLL_MS) {
    await sleep(READY_POLL_MS);
    startupLogMs = readStartupLog(options.logFile);
  }
  return {
    pid: /** @type {number} */ (child.pid),
    url,
    coldStartMs,
    startupLogMs,
    logFile: options.logFile,
    stop,
  };
}

/**
 * Polls `readyUrl` until it answers 200; fails when the child exits or the timeout passes.
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} readyUrl
 */
async function waitForReady(child, readyUrl) {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited before it was ready (code ${child.exitCode ?? child.signalCode})`);
    }
    try {
      const response = await fetch(readyUrl);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(READY_POLL_MS);
  }
  throw new Error(`the server was not ready within ${READY_TIMEOUT_MS} ms`);
}

/**
 * Starts the ceiling server and waits for its ready line.
 * @param {import('./databases.mjs').BenchDatabase} database
 * @param {{ documentId: string }} options
 * @returns {Promise<Child & { bodyBytes: number }>}
 */
export async function startCeiling(database, options) {
  const child = spawn(process.execPath, [CEILING_MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      CEILING_DOCUMENT_ID: options.documentId,
      CEILING_DATABASE_URL: database.databaseUrl ?? '',
      CEILING_DATA_DIR: database.dataDir,
      CEILING_POOL_MAX: String(database.poolMax),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = stopper(child);
  const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) });
  try {
    /** @type {{ url: string, bodyBytes: number }} */
    const ready = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the ceiling server was not ready in time')), READY_TIMEOUT_MS);
      lines.on('line', (line) => {
        const message = JSON.parse(line);
        if (message.event !== 'ready') return;
        clearTimeout(timer);
        resolve(message);
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the ceiling server exited before it was ready (code ${code})`));
      });
    });
    return { pid: /** @type {number} */ (child.pid), url: ready.url, bodyBytes: ready.bodyBytes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
