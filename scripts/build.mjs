/**
 * `npm run build`: transpiles `packages/core` and `packages/server` to `dist/` with esbuild, one output
 * file per source file (the layout `tsc` would write), in well under a second. No type-checking here:
 * that is `npm run typecheck` (and CI). Importable: `scripts/start.mjs` runs it as its first step.
 * Files are overwritten in place, not the folder emptied first: `tsc -b` of a package that references
 * `packages/core` keeps its build info (and declarations) there and stays incremental.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The packages the server needs at run time, in dependency order. */
export const PACKAGES = ['packages/core', 'packages/server'];

/** Transpiles every package; returns how many files were written. */
export async function buildPackages({ root = ROOT } = {}) {
  let files = 0;
  for (const pkg of PACKAGES) {
    const src = join(root, pkg, 'src');
    const outdir = join(root, pkg, 'dist');
    const entryPoints = (await sourceFiles(src)).map((file) => join(src, file));
    await build({
      entryPoints,
      outdir,
      outbase: src,
      bundle: false,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      sourcemap: true,
      logLevel: 'warning',
    });
    files += entryPoints.length;
  }
  return files;
}

async function sourceFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .filter((entry) => !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const startedAt = performance.now();
  const files = await buildPackages();
  console.log(`build: ${files} files transpiled in ${Math.round(performance.now() - startedAt)} ms (esbuild)`);
}
