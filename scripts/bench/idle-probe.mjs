/**
 * Idle CPU and memory of the embedded server (docs/benchmarks.md "Idle CPU and memory"): starts it on a
 * fresh data directory, waits for `/healthz`, idles N seconds, and prints the CPU each thread used in that
 * window (from `/proc`, so Linux only) and the RSS at its start and end.
 *
 *   node scripts/bench/idle-probe.mjs 60                                  # node packages/server/dist/main.js
 *   PROBE_ENTRY=scripts/start.mjs node scripts/bench/idle-probe.mjs 60    # as `npm start`
 *   PROBE_FLAGS="--max-semi-space-size=1" node scripts/bench/idle-probe.mjs 60
 *
 * PROBE_ENV (JSON) adds environment variables. Needs `npm run build` first. Prints one JSON line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const CLOCK_TICKS_PER_SECOND = 100;
const idleSeconds = Number(process.argv[2] || 60);
const flags = (process.env.PROBE_FLAGS || '').split(' ').filter(Boolean);
const dataDir = mkdtempSync(join(tmpdir(), 'cms-idle-probe-'));
const port = 4300 + Math.floor(Math.random() * 500);
const child = spawn(process.execPath, [...flags, process.env.PROBE_ENTRY || 'packages/server/dist/main.js'], {
  env: {
    ...process.env,
    CMS_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...JSON.parse(process.env.PROBE_ENV || '{}'),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

/** CPU milliseconds of each thread, by thread id. */
function threadCpu() {
  const cpu = new Map();
  for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND);
    } catch {
      // the thread ended meanwhile
    }
  }
  return cpu;
}

const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;

try {
  let healthy = false;
  for (let attempt = 0; attempt < 600 && !healthy; attempt++) {
    healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (!healthy) await sleep(250);
  }
  if (!healthy) throw new Error('the server did not answer /healthz within 150 s');
  const before = threadCpu();
  const rssStart = rssMiB();
  await sleep(idleSeconds * 1000);
  const after = threadCpu();
  let mainMs = 0;
  let otherMs = 0;
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === String(child.pid)) mainMs += used;
    else otherMs += used;
  }
  const result = { flags, idleSeconds, cpuMs: mainMs + otherMs, mainThreadMs: mainMs, otherThreadsMs: otherMs };
  process.stdout.write(
    `${JSON.stringify({ ...result, rssStartMiB: Math.round(rssStart), rssEndMiB: Math.round(rssMiB()) })}\n`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
