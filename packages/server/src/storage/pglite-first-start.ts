import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ConfigError } from '../config.js';

const run = promisify(execFile);

/**
 * The data directory `npm run build` makes with every migration applied (scripts/build-database-template.mjs),
 * next to the compiled server: `dist/pglite-template`.
 */
export const DEFAULT_TEMPLATE_DIR = fileURLToPath(new URL('../pglite-template/', import.meta.url));

/**
 * The first start of the embedded database needs a data directory (PostgreSQL's initdb) with every
 * migration applied. The fast way copies the template made at build time (a few hundred milliseconds;
 * migrations newer than the template are applied by the server's usual `migrate`). Without a template,
 * a short-lived child process creates the database: PGlite's initdb runs two more WebAssembly instances
 * next to the database, and a WebAssembly memory never shrinks, so done in the server's own process it
 * left the server at about 730 MiB idle instead of the 250 MiB a restart shows. Either way the server
 * then opens a ready data directory exactly as on a restart.
 * Returns how the directory was made, or false when it already holds a database (every later start).
 */
export async function prepareFirstStart(options: {
  dataDir: string;
  sharedBuffersMb: number;
  templateDir?: string;
}): Promise<'template' | 'created' | false> {
  if (!isFirstStart(options.dataDir)) return false;
  const templateDir = options.templateDir ?? DEFAULT_TEMPLATE_DIR;
  try {
    if (hasDatabaseTemplate(templateDir)) {
      await copyTemplate(templateDir, options.dataDir);
      return 'template';
    }
    const child = fileURLToPath(new URL('./pglite-first-start.child.js', import.meta.url));
    // Running from TypeScript sources (tests): no compiled child; the caller's own open does the work.
    if (!existsSync(child)) return false;
    await run(process.execPath, [child, options.dataDir, String(options.sharedBuffersMb)], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return 'created';
  } catch (error: unknown) {
    const { stderr, message } = (error ?? {}) as { stderr?: string; message?: string };
    const reason = String(stderr ?? '').trim() || message || String(error);
    // A setting problem for the person starting the server: CMS_DATA_DIR must name a writable directory.
    throw new ConfigError(
      `could not create the embedded database in ${options.dataDir}: ${reason}. CMS_DATA_DIR must be a writable directory.`,
    );
  }
}

/**
 * Copies the template next to the data directory, then renames it into place: a start stopped halfway
 * leaves no half-copied database behind that a later start would take for a ready one.
 */
async function copyTemplate(templateDir: string, dataDir: string): Promise<void> {
  const copying = `${dataDir}.copying-${process.pid}`;
  await mkdir(dirname(dataDir), { recursive: true });
  // What an earlier first start stopped halfway left (one database directory has one server).
  for (const name of await readdir(dirname(dataDir))) {
    if (name.startsWith(`${basename(dataDir)}.copying-`)) await rm(join(dirname(dataDir), name), { recursive: true });
  }
  try {
    await cp(templateDir, copying, { recursive: true });
    // An empty directory named by the settings is fine to replace; anything else makes rename fail.
    if (existsSync(dataDir)) await rmdir(dataDir);
    await rename(copying, dataDir);
  } finally {
    await rm(copying, { recursive: true, force: true });
  }
}

/** Did the build make the database template a first start copies? */
export function hasDatabaseTemplate(templateDir = DEFAULT_TEMPLATE_DIR): boolean {
  return existsSync(join(templateDir, 'PG_VERSION'));
}

/** Does this PGlite data directory still have to be created? */
export function isFirstStart(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}
