/**
 * `npm run build` (and `npm install`, through `prepare`): everything `npm start` needs, made ahead so a
 * start does no building work:
 * 1. `packages/core` and `packages/server` transpiled to `dist/` with esbuild, one output file per source
 *    file (the layout `tsc` would write). Only sources newer than their output are transpiled, so a build
 *    with nothing changed does not even load esbuild. No type-checking: that is `npm run typecheck`.
 * 2. the embedded database template (scripts/build-database-template.mjs), remade when the migrations
 *    or PGlite changed: a first start copies it instead of creating a database.
 * 3. the Studio (scripts/ensure-studio.mjs), when it is missing or older than its sources.
 * Importable: `scripts/start.mjs` runs the same steps and says what each did. Files are overwritten in
 * place, not the folder emptied first: `tsc -b` of a package that references `packages/core` keeps its
 * build info (and declarations) there and stays incremental.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDatabaseTemplate } from './build-database-template.mjs';
import { ensureStudio } from './ensure-studio.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The packages the server needs at run time, in dependency order. */
export const PACKAGES = ['packages/core', 'packages/server'];

/**
 * Transpiles every source file whose output is missing or older; returns how many files were written
 * and how many there are. esbuild's helper process is stopped before returning, so a server started in
 * this process does not keep it (about 65 MiB) for its whole life.
 */
export async function buildPackages({ root = ROOT, all = false } = {}) {
  let transpiled = 0;
  let total = 0;
  let esbuild = null;
  try {
    for (const pkg of PACKAGES) {
      const src = join(root, pkg, 'src');
      const outdir = join(root, pkg, 'dist');
      const files = await sourceFiles(src);
      total += files.length;
      const stale = all ? files : await staleFiles(src, outdir, files);
      if (stale.length === 0) continue;
      esbuild ??= await import('esbuild');
      await esbuild.build({
        entryPoints: stale.map((file) => join(src, file)),
        outdir,
        outbase: src,
        bundle: false,
        platform: 'node',
        format: 'esm',
        target: 'node20.19',
        sourcemap: true,
        logLevel: 'warning',
      });
      transpiled += stale.length;
    }
  } finally {
    await esbuild?.stop();
  }
  return { transpiled, total };
}

async function sourceFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .filter((entry) => !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The sources whose `.js` output is missing or older than the source. */
async function staleFiles(src, outdir, files) {
  const mtime = (path) =>
    stat(path).then(
      (s) => s.mtimeMs,
      () => -1,
    );
  const checks = await Promise.all(
    files.map(async (file) => {
      const output = join(outdir, file.replace(/\.ts$/, '.js'));
      return (await mtime(output)) < (await mtime(join(src, file))) ? file : null;
    }),
  );
  return checks.filter((file) => file !== null);
}

/** The steps of a build, each with what it says while it runs (`scripts/start.mjs` prints them). */
export const BUILD_STEPS = [
  {
    label: 'building packages/core and packages/server (esbuild, changed files only, no type-check)',
    run: async () => {
      const { transpiled, total } = await buildPackages();
      return transpiled === 0 ? `${total} files up to date` : `${transpiled} of ${total} files transpiled`;
    },
  },
  {
    label: 'checking the embedded database template (packages/server/dist/pglite-template; made when missing)',
    run: async () => ((await ensureDatabaseTemplate()) ? 'made' : 'up to date'),
  },
  {
    label: 'checking the Studio build (packages/studio/dist; built when missing or older than its sources)',
    run: async () => ((await ensureStudio()) ? 'built' : 'up to date'),
  },
];

/** Runs each step, saying what it does and how long it took. */
export async function runSteps(steps, say) {
  for (const step of steps) {
    const startedAt = performance.now();
    say(`${step.label} ...`);
    const result = await step.run();
    say(`  done: ${result} in ${Math.round(performance.now() - startedAt)} ms`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runSteps(BUILD_STEPS, (line) => console.log(`build: ${line}`));
}
