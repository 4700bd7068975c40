/**
 * `npm start`: runs the build's steps (scripts/build.mjs), saying what each does, then starts the server
 * in this process. After `npm install` (whose `prepare` runs the build) every step finds its work done:
 * nothing to transpile, the database template and the Studio already made. Type-checking is not a step
 * (it is `npm run typecheck`). A new step goes in BUILD_STEPS, before the server starts.
 */
import { pathToFileURL } from 'node:url';
import { BUILD_STEPS, runSteps } from './build.mjs';

await runSteps(BUILD_STEPS, (line) => process.stderr.write(`cms: ${line}\n`));
process.stderr.write('cms: starting the server\n');
await import(pathToFileURL(new URL('../packages/server/dist/main.js', import.meta.url).pathname).href);
