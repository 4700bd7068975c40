/**
 * Builds the Studio (packages/studio/dist) when it is missing or older than its own sources, so
 * `npm install` (which runs `npm run build`'s steps through `prepare`) ends with the Studio ready and
 * `npm start` finds it built. `npm run build -w @cms/studio` rebuilds it by hand.
 */
import { spawnSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STUDIO = join(ROOT, 'packages/studio');
/** What the Studio's build reads from its own package (the SDK and core are type and route sources). */
const INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'];

/** Builds the Studio when needed; returns whether it built. A failed build is a message, not a stop. */
export async function ensureStudio({ root = ROOT } = {}) {
  const built = await mtime(join(root, 'packages/studio/dist/index.html'));
  if (built >= 0 && built >= (await newestInput(join(root, 'packages/studio')))) return false;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Its output goes to stderr: `npm start`'s stdout carries the server's log lines only.
  const result = spawnSync(npm, ['run', 'build', '--silent', '-w', '@cms/studio'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.status !== 0) {
    console.error('The Studio did not build; the API still starts, and /studio/ explains how to build it.');
  }
  return true;
}

async function mtime(path) {
  return stat(path).then(
    (s) => s.mtimeMs,
    () => -1,
  );
}

async function newestInput(studio = STUDIO) {
  let newest = 0;
  for (const input of INPUTS) {
    const path = join(studio, input);
    newest = Math.max(newest, await mtime(path));
    const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isFile()) newest = Math.max(newest, await mtime(join(entry.parentPath, entry.name)));
    }
  }
  return newest;
}
