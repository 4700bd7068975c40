#!/usr/bin/env node
// Builds the Studio (packages/studio/dist) when it is missing, so `npm install && npm start` ends with
// the Studio reachable at /studio/. An existing build is left alone: `npm run build -w @cms/studio`
// rebuilds it after changing the Studio's code.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const index = fileURLToPath(new URL('../packages/studio/dist/index.html', import.meta.url));

if (!existsSync(index)) {
  console.log('Building the Studio (first start)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build', '--silent', '-w', '@cms/studio'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The Studio did not build; the API still starts, and /studio/ explains how to build it.');
  }
}
