#!/usr/bin/env node
// The `cms` command as npm links it (node_modules/.bin/cms): a committed file, so `npm ci` links it
// before anything is built (npm skips a bin whose file is missing), and it runs the built CLI.
const built = new URL('../dist/bin.js', import.meta.url);
try {
  await import(built.href);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(built.pathname)) throw error;
  process.stderr.write('The cms command is not built yet: run `npm run build` at the repository root.\n');
  process.exitCode = 1;
}
