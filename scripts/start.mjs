/**
 * `npm start`: runs the build steps in order, saying what each does, then starts the server in this
 * process. Type-checking is not a step (it is `npm run typecheck`); transpiling takes well under a second.
 * A new step (another package to build) goes in STEPS, before the server starts.
 */
import { pathToFileURL } from 'node:url';
import { buildPackages } from './build.mjs';

/** Each step: what it says while it runs, and what it does (returns a short result for the log). */
const STEPS = [
  {
    label: 'building packages/core and packages/server (esbuild, no type-check)',
    run: async () => `${await buildPackages()} files`,
  },
  {
    label: 'checking the Studio build (packages/studio/dist; built once when missing)',
    run: async () => {
      await import('./ensure-studio.mjs');
      return 'ready';
    },
  },
];

const say = (line) => process.stderr.write(`cms: ${line}\n`);

for (const step of STEPS) {
  const startedAt = performance.now();
  say(`${step.label} ...`);
  const result = await step.run();
  say(`  done: ${result} in ${Math.round(performance.now() - startedAt)} ms`);
}
say('starting the server');
await import(pathToFileURL(new URL('../packages/server/dist/main.js', import.meta.url).pathname).href);
