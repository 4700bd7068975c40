/**
 * The first-start rows of `npm run bench`: `node scripts/start.mjs` (what `npm start` runs) on an empty
 * data directory, then again on the same directory (a restart). Each row: time from spawn to the first
 * `200` of `/healthz` (build included), the CPU time the process used until then (user + system: far
 * less sensitive to a busy machine than the wall time), the server process's peak and idle RSS (VmHWM,
 * and VmRSS after BENCH_IDLE_SECONDS, default 5, and again after BENCH_IDLE_LONG_SECONDS, default 60;
 * 0 skips that reading), and the peak RSS of any child it ran.
 * BENCH_FIRST_START: `on` (default, before the load scenarios), `only` (these rows alone), `off`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort, readCpuMs } from './processes.mjs';

const START_SCRIPT = fileURLToPath(new URL('../start.mjs', import.meta.url));
const MIB = 1024 * 1024;

/** @param {NodeJS.ProcessEnv} env */
export function firstStartMode(env = process.env) {
  const mode = env.BENCH_FIRST_START || 'on';
  if (!['on', 'only', 'off'].includes(mode))
    throw new Error(`BENCH_FIRST_START must be on, only or off, got "${mode}"`);
  return /** @type {'on' | 'only' | 'off'} */ (mode);
}

/** @param {number} pid @param {string} field */
function statusKib(pid, field) {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** @param {number} pid @returns {number[]} */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * One start: spawn, poll /healthz and the process tree's memory every 25 ms, wait idle, stop.
 * @param {string} dataDir @param {number} idleSeconds
 */
async function measureStart(dataDir, idleSeconds, longIdleSeconds) {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, [START_SCRIPT], {
    env: { ...process.env, PORT: String(port), CMS_DATA_DIR: dataDir, LOG_FORMAT: 'json', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const pid = /** @type {number} */ (child.pid);
  let childPeak = 0;
  let readyMs = null;
  let readyCpuMs = null;
  while (readyMs === null) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering`);
    for (const grandchild of childrenOf(pid)) {
      childPeak = Math.max(childPeak, statusKib(grandchild, 'VmHWM') ?? 0);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.status === 200) {
        readyMs = performance.now() - startedAt;
        readyCpuMs = readCpuMs(pid);
      }
    } catch {
      // not listening yet
    }
    if (readyMs === null) await sleep(25);
  }
  await sleep(idleSeconds * 1000);
  const idleRssMiB = Math.round((statusKib(pid, 'VmRSS') ?? 0) / MIB);
  let longIdleRssMiB = null;
  if (longIdleSeconds > idleSeconds) {
    await sleep((longIdleSeconds - idleSeconds) * 1000);
    longIdleRssMiB = Math.round((statusKib(pid, 'VmRSS') ?? 0) / MIB);
  }
  const row = {
    readyMs: Math.round(readyMs),
    readyCpuMs,
    peakRssMiB: Math.round((statusKib(pid, 'VmHWM') ?? 0) / MIB),
    idleRssMiB,
    longIdleRssMiB,
    childPeakRssMiB: childPeak > 0 ? Math.round(childPeak / MIB) : null,
  };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return row;
}

/** Measures a first start and a restart on one fresh data directory. */
export async function runFirstStart(env = process.env) {
  const idleSeconds = Number(env.BENCH_IDLE_SECONDS || 5);
  const longIdleSeconds = Number(env.BENCH_IDLE_LONG_SECONDS ?? 60);
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-first-start-'));
  try {
    const first = await measureStart(dataDir, idleSeconds, longIdleSeconds);
    const restart = await measureStart(dataDir, idleSeconds, longIdleSeconds);
    return { idleSeconds, longIdleSeconds, first, restart, loadAverage: loadavg().map((l) => Number(l.toFixed(1))) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** @param {Awaited<ReturnType<typeof runFirstStart>>} result */
export function renderFirstStart(result) {
  const line = (label, row) =>
    `| ${label} | ${row.readyMs} | ${row.readyCpuMs ?? '–'} | ${row.peakRssMiB} | ${row.idleRssMiB} | ${row.longIdleRssMiB ?? '–'} | ${row.childPeakRssMiB ?? 'none'} |`;
  return [
    `### First start and restart (\`npm start\`, embedded default; load average after: ${(result.loadAverage ?? []).join(', ')})`,
    '',
    `Targets: first start under 3 s, restart under 1.5 s, idle RSS under 200 MiB.`,
    '',
    `| start | to first \`/healthz\` 200 (ms, build included) | CPU ms until then | server peak RSS (MiB) | idle RSS after ${result.idleSeconds} s (MiB) | after ${result.longIdleSeconds ?? '–'} s (MiB) | largest child peak RSS (MiB) |`,
    '|---|---|---|---|---|---|---|',
    line('first (empty data directory)', result.first),
    line('restart', result.restart),
    '',
  ].join('\n');
}
