/**
 * Prints the Markdown section of a finished run from its JSON, with the current report code:
 *   node scripts/bench/render.mjs bench-results/<timestamp>.json
 * For re-reading an old run after the report (columns, targets) changed; the figures are the run's own.
 */
import { readFile } from 'node:fs/promises';
import { renderCliRow } from './cli-row.mjs';
import { renderFirstStart } from './first-start.mjs';
import { checkTargets, renderMarkdown } from './report.mjs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/bench/render.mjs bench-results/<timestamp>.json');
  process.exit(2);
}
const run = JSON.parse(await readFile(file, 'utf8'));
run.scenarios = run.scenarios.map((scenario) => ({
  ...scenario,
  targets: checkTargets(scenario, run.settings.readConnections),
}));
process.stdout.write(
  renderMarkdown(run) +
    (run.firstStart ? `\n${renderFirstStart(run.firstStart)}` : '') +
    (run.cli ? `\n${renderCliRow(run.cli)}` : ''),
);
