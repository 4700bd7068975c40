/**
 * `npm run bench`: seeds data, starts the real server on loopback and measures it with autocannon,
 * on PGlite and PostgreSQL at each collection size, next to a bare-Fastify ceiling measured in the
 * same run. Writes `bench-results/<timestamp>.json` and appends a table to docs/benchmarks.md.
 * Settings are environment variables (scripts/bench/settings.mjs, docs/benchmarks.md).
 */
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditRowEnabled, renderAuditRow, runAuditRow } from './audit-row.mjs';
import { cliRowEnabled, renderCliRow, runCliRow } from './cli-row.mjs';
import { compressedMode, renderCompressedReads, runCompressedReads } from './compressed-reads.mjs';
import { disposeAll, probePostgres } from './databases.mjs';
import { renderDiskRatio, runDiskRatio } from './disk-ratio.mjs';
import { firstStartMode, renderFirstStart, runFirstStart } from './first-start.mjs';
import { imageRowEnabled, renderImageRow, runImageRow } from './image-row.mjs';
import { nextRowEnabled, renderNextRow, runNextRow } from './next-row.mjs';
import { stopAll } from './processes.mjs';
import { releaseRowEnabled, renderReleaseRow, runReleaseRow } from './release-row.mjs';
import { appendMarkdown, checkTargets, describeEnvironment, renderMarkdown, writeJson } from './report.mjs';
import { runScenario } from './scenario.mjs';
import { renderSearchRow, runSearchRow, searchRowEnabled } from './search-row.mjs';
import { readSettings } from './settings.mjs';
import { renderStudioBytes, runStudioBytes } from './studio-bytes.mjs';
import { renderWriteRow, runWriteRow, writeRowEnabled } from './write-row.mjs';

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

  // The JavaScript each Studio page loads, from the build (scripts/bench/studio-bytes.mjs); BENCH_STUDIO_BYTES=only stops there.
  const studioBytesSetting = process.env.BENCH_STUDIO_BYTES || 'on';
  if (!['on', 'only', 'off'].includes(studioBytesSetting))
    throw new Error(`BENCH_STUDIO_BYTES must be on, only or off, got "${studioBytesSetting}"`);
  let studioBytes = null;
  if (studioBytesSetting !== 'off') {
    try {
      studioBytes = runStudioBytes();
    } catch (error) {
      studioBytes = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  if (studioBytesSetting === 'only') {
    const section = `## Studio bytes: ${startedAt}\n\n${renderStudioBytes(/** @type {any} */ (studioBytes))}`;
    if (settings.appendDocs) await appendMarkdown(DOCS_FILE, section);
    process.stdout.write(`\n${section}\n`);
    return;
  }

  // The embedded database's size after a push and publish (scripts/bench/disk-ratio.mjs); BENCH_DISK=only stops there.
  const diskSetting = process.env.BENCH_DISK || 'on';
  if (!['on', 'only', 'off'].includes(diskSetting))
    throw new Error(`BENCH_DISK must be on, only or off, got "${diskSetting}"`);
  const disk =
    diskSetting === 'off'
      ? null
      : await runDiskRatio().catch((error) => ({ error: error instanceof Error ? error.message : String(error) }));
  if (disk) log(disk.error ? `disk failed: ${disk.error}` : `disk: ${disk.ratio}x the Markdown`);
  if (diskSetting === 'only') {
    const section = `## Disk: ${startedAt}\n\n${environment.machine.cpu} x${environment.machine.cores}, Node ${environment.node}\n\n${renderDiskRatio(/** @type {any} */ (disk))}`;
    if (settings.appendDocs) await appendMarkdown(DOCS_FILE, section);
    process.stdout.write(`\n${section}\n`);
    return;
  }

  // Compressed cached reads against a bare node:http server (scripts/bench/compressed-reads.mjs).
  const compressedSetting = compressedMode();
  const compressed = compressedSetting === 'off' ? null : await runCompressedReads();
  if (compressed) {
    for (const row of compressed.rows)
      log(`compressed ${row.name}: ${Math.round(row.medianRatio * 100)}% of bare node:http`);
  }
  if (compressedSetting === 'only') {
    const section = `## Compressed reads: ${startedAt}\n\n${environment.machine.cpu} x${environment.machine.cores}, Node ${environment.node}, load average ${loadavg()[0]?.toFixed(1)}\n\n${renderCompressedReads(/** @type {any} */ (compressed))}`;
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

  // `cms pull` / `cms push` of BENCH_CLI_DOCS documents (scripts/bench/cli-sync.mjs) and the import of
  // BENCH_IMPORT_FILES new files (scripts/bench/cli-import.mjs); BENCH_CLI=off skips both.
  const cli = cliRowEnabled() ? await runCliRow(settings.adminDatabaseUrl) : null;
  if (cli) log(cli.error ? `cli sync failed: ${cli.error}` : `cli sync: pull ${cli.pullMs} ms, push ${cli.pushMs} ms`);
  const imported = cli?.import;
  if (imported)
    log(
      imported.error
        ? `cli import failed: ${imported.error}`
        : `cli import: push ${imported.pushMs} ms, status ${imported.statusMs} ms, push with no edits ${imported.noopPushMs} ms`,
    );

  // Publishing a release of 1,000 and of 10,000 documents (scripts/bench/release-publish.mjs); BENCH_RELEASES=off skips it.
  const releases = releaseRowEnabled() ? await runReleaseRow(settings.adminDatabaseUrl) : null;
  if (releases)
    log(releases.error ? `releases failed: ${releases.error}` : `releases: ${JSON.stringify(releases.rows)}`);
  // `GET /api/v1/audit` over a large generated log (scripts/bench/audit-list.mjs); BENCH_AUDIT=off skips it.
  const audit = auditRowEnabled() ? await runAuditRow(settings.adminDatabaseUrl) : null;
  if (audit) log(audit.error ? `audit failed: ${audit.error}` : `audit: ${JSON.stringify(audit.rows)}`);
  // Search p50/p99 at 100,000 posts on PostgreSQL and 10,000 embedded (scripts/bench/search-scale.mjs); BENCH_SEARCH=off skips it.
  const search = searchRowEnabled()
    ? await runSearchRow(settings.adminDatabaseUrl, settings.engines.includes('postgres') && !!postgres?.version)
    : null;
  if (search)
    for (const result of search)
      log(
        result.error
          ? `search (${result.engine}) failed: ${result.error}`
          : `search (${result.engine}, ${result.docs} posts): worst p99 ${Math.max(...result.rows.map((r) => r.p99))} ms`,
      );
  // Create against direct SQL doing the same INSERTs (scripts/bench/write-ceiling.mjs); BENCH_WRITE_CEILING=off skips it.
  const writes = writeRowEnabled() && postgres?.version ? await runWriteRow(settings.adminDatabaseUrl) : null;
  if (writes)
    log(
      writes.error
        ? `write ceiling failed: ${writes.error}`
        : `write ceiling: create at ${Math.round(writes.medianRatio * 100)}% of direct SQL`,
    );
  // First and cached transform of a typical photo (scripts/bench/image-row.mjs); BENCH_IMAGES=off skips it.
  const images = imageRowEnabled() ? await runImageRow() : null;
  if (images) {
    log(
      images.error
        ? `images failed: ${images.error}`
        : `images: cold ${images.coldServerMs} ms, cached ${images.cachedServerMs} ms (server)`,
    );
  }

  // Publish to visible on examples/next-site (scripts/bench/next-publish.mjs); BENCH_NEXT=off skips it.
  const nextSite = nextRowEnabled() ? await runNextRow() : null;
  if (nextSite)
    log(
      nextSite.error ? `next site failed: ${nextSite.error}` : `next site: publish to visible p95 ${nextSite.p95Ms} ms`,
    );

  const run = {
    startedAt,
    finishedAt: new Date().toISOString(),
    environment,
    postgres,
    settings,
    firstStart,
    disk,
    studioBytes,
    compressed,
    cli,
    releases,
    audit,
    search,
    writes,
    images,
    nextSite,
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
    (disk ? `\n${renderDiskRatio(disk)}` : '') +
    (studioBytes ? `\n${renderStudioBytes(studioBytes)}` : '') +
    (compressed ? `\n${renderCompressedReads(compressed)}` : '') +
    (cli ? `\n${renderCliRow(cli)}` : '') +
    (releases ? `\n${renderReleaseRow(releases)}` : '') +
    (audit ? `\n${renderAuditRow(audit)}` : '') +
    (search ? `\n${renderSearchRow(search)}` : '') +
    (writes ? `\n${renderWriteRow(writes)}` : '') +
    (images ? `\n${renderImageRow(images)}` : '') +
    (nextSite ? `\n${renderNextRow(nextSite)}` : '');
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
