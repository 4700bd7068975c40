/**
 * The embedded database template: a PGlite data directory with every migration applied, made at build
 * time in a child process (`packages/server/dist/storage/pglite-first-start.child.js`, the same one a
 * first start without a template runs). A first start copies it into the data directory instead of
 * creating a database there (PostgreSQL's initdb in WebAssembly: seconds, and hundreds of MiB).
 * It is remade when its key changes: the PGlite version, the migrations, the child script.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the template and its key live (what `packages/server/src/storage/pglite-template.ts` reads). */
export function templatePaths(root = ROOT) {
  const dist = join(root, 'packages/server/dist');
  return {
    dir: join(dist, 'pglite-template'),
    key: join(dist, 'pglite-template.key'),
    child: join(dist, 'storage/pglite-first-start.child.js'),
    migrations: join(root, 'packages/server/migrations'),
  };
}

/** Makes the template when it is missing or stale; returns whether it made one. */
export async function ensureDatabaseTemplate({ root = ROOT } = {}) {
  const paths = templatePaths(root);
  const key = await templateKey(root, paths);
  const current = await readFile(paths.key, 'utf8').catch(() => null);
  if (current === key && existsSync(join(paths.dir, 'PG_VERSION'))) return false;
  const building = `${paths.dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  try {
    // A small buffer cache: the child only creates and migrates.
    await run(process.execPath, [paths.child, building, '16'], { maxBuffer: 16 * 1024 * 1024 });
    await rm(paths.key, { force: true });
    await rm(paths.dir, { recursive: true, force: true });
    await rename(building, paths.dir);
    await writeFile(paths.key, key);
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return true;
}

async function templateKey(root, paths) {
  const hash = createHash('sha256');
  const require = createRequire(join(root, 'packages/server/package.json'));
  const entry = require.resolve('@electric-sql/pglite');
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  hash.update(`pglite ${JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).version}\n`);
  for (const file of (await readdir(paths.migrations)).sort()) {
    hash.update(`${file}\n`).update(await readFile(join(paths.migrations, file)));
  }
  hash.update(await readFile(paths.child));
  return hash.digest('hex');
}
