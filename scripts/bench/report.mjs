/**
 * Results: the environment of the run, the targets check, the JSON file in `bench-results/` and the
 * Markdown section appended to docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedAnswers } from './measure.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGES = ['@cms/server', '@cms/core', 'fastify', 'pg', '@electric-sql/pglite', 'autocannon'];
const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
/** The collection size the targets are stated for. */
export const TARGET_POSTS = 100_000;

/**
 * @typedef {import('./scenario.mjs').ScenarioResult} ScenarioResult
 * @typedef {import('./measure.mjs').EndpointResult} EndpointResult
 */

/**
 * @typedef {object} TargetCheck
 * @property {string} target
 * @property {string} measured
 * @property {boolean | null} pass Null when the endpoints it needs were not measured.
 */

/** @param {string} name */
async function packageVersion(name) {
  try {
    const text = await readFile(`${ROOT}node_modules/${name}/package.json`, 'utf8');
    return String(JSON.parse(text).version);
  } catch {
    return 'not installed';
  }
}

/** @param {string[]} args */
function git(args) {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The machine, Node, package versions and the commit measured. */
export async function describeEnvironment() {
  const cpu = cpus();
  /** @type {Record<string, string>} */
  const packages = {};
  for (const name of PACKAGES) packages[name] = await packageVersion(name);
  const commit = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--', 'packages']);
  return {
    machine: {
      cpu: cpu[0]?.model ?? 'unknown',
      cores: cpu.length,
      memoryBytes: totalmem(),
      os: `${process.platform} ${release()}`,
      /** One-minute load average before the run: anything above 0 is someone else competing for the cores. */
      loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    },
    node: process.version,
    packages,
    commit: commit ? `${commit}${dirty ? ' + uncommitted changes' : ''}` : null,
  };
}

/**
 * @param {ScenarioResult} scenario
 * @param {string} name
 */
function measured(scenario, name) {
  const row = scenario.endpoints.find((endpoint) => endpoint.name === name);
  return row?.load && row.status === 'measured' ? row : null;
}

/** @param {number | null | undefined} share */
const percent = (share) => (share === null || share === undefined ? '–' : `${Math.round(share * 100)}%`);

/**
 * Checks the targets stated in docs/benchmarks.md against one scenario.
 * @param {ScenarioResult} scenario
 * @param {number} readConnections
 * @returns {TargetCheck[]}
 */
export function checkTargets(scenario, readConnections) {
  const get = measured(scenario, 'get-one');
  const list = measured(scenario, 'list');
  const offset = measured(scenario, 'list-offset-5000');
  const resolve = measured(scenario, 'list-resolve');
  /** @type {TargetCheck[]} */
  const checks = [];
  checks.push({
    target: 'single-document GET >= 60% of the DB ceiling',
    measured: percent(get?.vsDbCeiling),
    pass: get?.vsDbCeiling == null ? null : get.vsDbCeiling >= 0.6,
  });
  checks.push({
    target: 'list of 20 >= 40% of the DB ceiling',
    measured: percent(list?.vsDbCeiling),
    pass: list?.vsDbCeiling == null ? null : list.vsDbCeiling >= 0.4,
  });
  const offsetRatio = list?.load && offset?.load ? list.load.rps / offset.load.rps : null;
  checks.push({
    target: 'offset 5000 within 2x of offset 0 (req/s)',
    measured: offsetRatio === null ? '–' : `${offsetRatio.toFixed(2)}x`,
    pass: offsetRatio === null ? null : offsetRatio <= 2,
  });
  const resolveRatio = list?.load && resolve?.load ? list.load.rps / resolve.load.rps : null;
  checks.push({
    target: 'resolve within 1.5x of the plain list (req/s)',
    measured: resolveRatio === null ? '–' : `${resolveRatio.toFixed(2)}x`,
    pass: resolveRatio === null ? null : resolveRatio <= 1.5,
  });
  // Published reads from memory (issue "Published reads from memory"): against the ceilings of the same run.
  const cachedItem = measured(scenario, 'get-one-cached');
  const cachedList = measured(scenario, 'list-cached');
  checks.push({
    target: 'cached single-document GET >= 50% of the from-memory ceiling',
    measured: percent(cachedItem?.vsMemoryCeiling),
    pass: cachedItem?.vsMemoryCeiling == null ? null : cachedItem.vsMemoryCeiling >= 0.5,
  });
  checks.push({
    target: 'cached list of 20 >= 40% of the list-from-memory ceiling',
    measured: percent(cachedList?.vsMemoryCeiling),
    pass: cachedList?.vsMemoryCeiling == null ? null : cachedList.vsMemoryCeiling >= 0.4,
  });
  const cachedP99 = [cachedItem, cachedList].filter((row) => row?.load).map((row) => row?.load?.p99 ?? 0);
  checks.push({
    target: 'cached item and list p99 under 50 ms',
    measured: cachedP99.length === 0 ? '–' : `worst ${Math.max(...cachedP99)} ms`,
    pass: cachedP99.length === 0 ? null : Math.max(...cachedP99) < 50,
  });
  const atFull = scenario.endpoints.filter(
    (row) => row.kind !== 'ceiling' && row.load && row.status === 'measured' && row.connections >= readConnections,
  );
  const worst = atFull.reduce((max, row) => Math.max(max, row.load?.p99 ?? 0), 0);
  checks.push({
    target: `no p99 above 50 ms at ${readConnections} connections`,
    measured: atFull.length === 0 ? '–' : `worst ${worst} ms`,
    pass: atFull.length === 0 ? null : worst <= 50,
  });
  return checks;
}

/**
 * Writes the whole run as JSON.
 * @param {string} file
 * @param {unknown} run
 */
export async function writeJson(file, run) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(run, null, 2)}\n`);
}

/** @param {number} value */
function ms(value) {
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

/** @param {number | null} bytes */
const mib = (bytes) => (bytes === null ? '–' : String(Math.round(bytes / MIB)));

/**
 * @param {EndpointResult} row
 * @param {number} readConnections
 */
function endpointCells(row, readConnections) {
  if (!row.load || row.status !== 'measured') {
    return ['–', '–', '–', '–', '–', '–', '–', '–', `${row.status}: ${row.reason}`];
  }
  const { load } = row;
  const errors = failedAnswers(load);
  const notModified = load.statusCodes['304'] ? `${load.statusCodes['304']} answered 304` : null;
  const connections = row.connections === readConnections ? null : `${row.connections} connections`;
  const listCeiling = row.vsListCeiling === null ? null : `${percent(row.vsListCeiling)} of the list ceiling`;
  const notes = [connections, listCeiling, notModified, row.note].filter(Boolean).join('; ');
  return [
    String(Math.round(load.rps)),
    ms(load.p50),
    ms(load.p99),
    row.aloneMs === null ? '–' : ms(row.aloneMs),
    load.cpuUsPerRequest === null ? '–' : String(load.cpuUsPerRequest),
    percent(row.vsDbCeiling),
    percent(row.vsMemoryCeiling),
    errors === 0
      ? '0'
      : `${errors} (${Object.keys(load.statusCodes)
          .filter((code) => code !== '304')
          .join(', ')})`,
    notes,
  ];
}

/**
 * The Markdown section of one run: environment, results, process figures, targets.
 * @param {{ startedAt: string, environment: Awaited<ReturnType<typeof describeEnvironment>>, postgres: { version: string | null, reason: string | null } | null, settings: import('./settings.mjs').BenchSettings, scenarios: ScenarioResult[], jsonFile: string }} run
 */
export function renderMarkdown(run) {
  const { environment: env, settings } = run;
  const lines = [];
  lines.push(`### Run ${run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`, '');
  const memory = `${(env.machine.memoryBytes / GIB).toFixed(1)} GiB`;
  let postgres = 'not selected';
  if (run.postgres) postgres = run.postgres.version ?? `skipped (${run.postgres.reason})`;
  lines.push(
    `- Machine: ${env.machine.cpu}, ${env.machine.cores} cores, ${memory}; ${env.machine.os}; load average ` +
      `${env.machine.loadAverage} before the run; Node ${env.node}; PostgreSQL ${postgres}`,
  );
  const versions = Object.entries(env.packages)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  lines.push(`- Code: ${env.commit ?? 'unknown commit'}; ${versions}`);
  lines.push(
    `- Settings: ${settings.durationSeconds} s per endpoint after ${settings.warmupSeconds} s warm-up; reads ` +
      `${settings.readConnections} connections, writes ${settings.writeConnections}; DATABASE_POOL_MAX ` +
      `${settings.poolMax}; server LOG_LEVEL ${settings.logLevel} (to a file)${settings.cpuProfile ? '; --cpu-prof on' : ''}`,
  );
  const actions = [...new Set(run.scenarios.flatMap((scenario) => scenario.catalogActions))];
  lines.push(`- Content and media actions declared: ${actions.length ? actions.join(', ') : 'none yet'}`);
  lines.push(`- Raw results: \`${run.jsonFile}\``, '');

  lines.push(
    '| engine | posts | endpoint | req/s | p50 ms | p99 ms | alone ms | server CPU µs/req | vs DB ceiling | vs memory ceiling | non-2xx / errors | note |',
  );
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const scenario of run.scenarios) {
    if (scenario.error && scenario.endpoints.length === 0) {
      lines.push(
        `| ${scenario.engine} | ${scenario.posts} | (scenario failed) | | | | | | | | | ${scenario.error.split('\n')[0]} |`,
      );
      continue;
    }
    for (const row of scenario.endpoints) {
      lines.push(
        `| ${scenario.engine} | ${scenario.posts} | ${row.label} | ${endpointCells(row, settings.readConnections).join(' | ')} |`,
      );
    }
  }
  lines.push('');
  lines.push(
    '| engine | posts | seed s | cold start ms | startup log ms | server RSS idle MiB | server RSS peak MiB | ceiling RSS idle MiB |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of run.scenarios) {
    const seed = s.seedMs === null ? '–' : (s.seedMs / 1000).toFixed(1);
    lines.push(
      `| ${s.engine} | ${s.posts} | ${seed} | ${s.coldStartMs ?? '–'} | ${s.startupLogMs ?? '–'} | ${mib(s.rssIdleBytes)} | ${mib(s.rssPeakBytes)} | ${mib(s.ceilingRssIdleBytes)} |`,
    );
  }
  lines.push('');
  const official = run.scenarios.filter((s) => s.engine === 'postgres' && s.posts === TARGET_POSTS);
  const checked = official.length > 0 ? official : run.scenarios.filter((s) => s.posts === Math.max(...settings.sizes));
  for (const scenario of checked) {
    lines.push(`Targets, ${scenario.engine} at ${scenario.posts} posts:`, '');
    lines.push('| target | measured | result |', '|---|---:|---|');
    for (const check of checkTargets(scenario, settings.readConnections)) {
      const result = check.pass === null ? 'not measured' : check.pass ? 'met' : '**missed**';
      lines.push(`| ${check.target} | ${check.measured} | ${result} |`);
    }
    lines.push('');
  }
  const failures = run.scenarios.filter((s) => s.error);
  for (const s of failures) lines.push(`Scenario ${s.engine} ${s.posts} failed: \`${s.error?.split('\n')[0]}\``, '');
  return `${lines.join('\n')}\n`;
}

/**
 * Appends one run's section to the benchmarks document.
 * @param {string} file
 * @param {string} section
 */
export async function appendMarkdown(file, section) {
  await appendFile(file, `\n${section}`);
}
