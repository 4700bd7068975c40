/**
 * `npm run bench`: seeds data, starts the real server on loopback and measures it with autocannon,
 * on PGlite and PostgreSQL at each collection size, next to a bare-Fastify ceiling measured in the
 * same run. Writes `bench-results/<timestamp>.json` and appends a table to docs/benchmarks.md.
 * Settings are environment variables (scripts/bench/settings.mjs, docs/benchmarks.md).
 */
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliRowEnabled, renderCliRow, runCliRow } from './cli-row.mjs';
import { disposeAll, probePostgres } from './databases.mjs';
import { firstStartMode, renderFirstStart, runFirstStart } from './first-start.mjs';
import { stopAll } from './processes.mjs';
import { appendMarkdown, checkTargets, describeEnvironment, renderMarkdown, writeJson } from './report.mjs';
import { runScenario } from './scenario.mjs';
import { readSettings } from './settings.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS_FILE = join(ROOT, 'docs', 'benchmarks.md');

/** @param {string} message */
const log = (message) => process.stdout.write(`[bench] ${message}\n`);

async function main() {
  const settings = readSettings();
  // Leave no server running and no benchmark database behind.
  process.once('SIGINT', () => {
    log('interrupted: stopping the servers and dropping the benchmark databases');
    stopAll()
      .then(disposeAll)
      .finally(() => process.exit(130));
  });
  const startedAt = new Date().toISOString();
  const stamp = startedAt.replace(/[:.]/g, '-');
  const jsonFile = join(ROOT, 'bench-results', `${stamp}.json`);
  const profileRoot = join(ROOT, 'bench-results', 'profiles', stamp);
  const environment = await describeEnvironment();
  log(`${environment.machine.cpu} x${environment.machine.cores}, Node ${environment.node}`);
  const [load] = loadavg();
  if ((load ?? 0) > cpus().length / 2) {
    log(`warning: the machine is busy (load average ${load?.toFixed(1)}): numbers will be noisy`);
  }

  // First start and restart of `npm start` (scripts/bench/first-start.mjs); BENCH_FIRST_START=only stops there.
  const firstStartSetting = firstStartMode();
  const firstStart = firstStartSetting === 'off' ? null : await runFirstStart();
  if (firstStart) log(`first start ${firstStart.first.readyMs} ms, restart ${firstStart.restart.readyMs} ms`);
  if (firstStartSetting === 'only') {
    const section = `## First start: ${startedAt}\n\n${environment.machine.cpu} x${environment.machine.cores}, Node ${environment.node}\n\n${renderFirstStart(/** @type {any} */ (firstStart))}`;
    if (settings.appendDocs) await appendMarkdown(DOCS_FILE, section);
    process.stdout.write(`\n${section}\n`);
    return;
  }

  const postgres = settings.engines.includes('postgres') ? await probePostgres(settings.adminDatabaseUrl) : null;
  if (postgres && !postgres.version) log(`PostgreSQL does not answer (${postgres.reason}): skipping it`);

  /** @type {import('./scenario.mjs').ScenarioResult[]} */
  const scenarios = [];
  for (const engine of settings.engines) {
    if (engine === 'postgres' && !postgres?.version) continue;
    for (const posts of settings.sizes) {
      scenarios.push(await runScenario(engine, posts, settings, { profileRoot }));
    }
  }

  // `cms pull` / `cms push` of BENCH_CLI_DOCS documents (scripts/bench/cli-sync.mjs); BENCH_CLI=off skips it.
  const cli = cliRowEnabled() ? await runCliRow(settings.adminDatabaseUrl) : null;
  if (cli) log(cli.error ? `cli sync failed: ${cli.error}` : `cli sync: pull ${cli.pullMs} ms, push ${cli.pushMs} ms`);

  const run = {
    startedAt,
    finishedAt: new Date().toISOString(),
    environment,
    postgres,
    settings,
    firstStart,
    cli,
    scenarios: scenarios.map((scenario) => ({
      ...scenario,
      targets: checkTargets(scenario, settings.readConnections),
    })),
    jsonFile: relative(ROOT, jsonFile),
  };
  await writeJson(jsonFile, run);
  const markdown =
    renderMarkdown(run) +
    (firstStart ? `\n${renderFirstStart(firstStart)}` : '') +
    (cli ? `\n${renderCliRow(cli)}` : '');
  if (settings.appendDocs) await appendMarkdown(DOCS_FILE, markdown);
  process.stdout.write(`\n${markdown}\n`);
  log(`results: ${relative(ROOT, jsonFile)}${settings.appendDocs ? `, appended to ${relative(ROOT, DOCS_FILE)}` : ''}`);
  const elapsed = (Date.parse(run.finishedAt) - Date.parse(startedAt)) / 1000;
  log(`done in ${Math.round(elapsed)} s`);
  if (scenarios.some((scenario) => scenario.error)) process.exitCode = 1;
}

main().catch((error) => {
  console.error('[bench] failed:', error);
  process.exit(1);
});
