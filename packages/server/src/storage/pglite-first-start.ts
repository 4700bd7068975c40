import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ConfigError } from '../config.js';

const run = promisify(execFile);

/**
 * The first start of the embedded database creates its data directory (PostgreSQL's initdb) and applies
 * every migration. PGlite's initdb runs two more WebAssembly instances next to the database, and a
 * WebAssembly memory never shrinks: done in the server's own process, it left the server at about
 * 730 MiB idle instead of the 250 MiB a restart shows. A short-lived child process does that work and
 * exits; the server then opens a ready data directory exactly as on a restart.
 * Returns false when the directory already holds a database (every start after the first).
 */
export async function prepareFirstStart(options: { dataDir: string; sharedBuffersMb: number }): Promise<boolean> {
  if (!isFirstStart(options.dataDir)) return false;
  const child = fileURLToPath(new URL('./pglite-first-start.child.js', import.meta.url));
  // Running from TypeScript sources (tests): no compiled child; the caller's own open does the work.
  if (!existsSync(child)) return false;
  try {
    await run(process.execPath, [child, options.dataDir, String(options.sharedBuffersMb)], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error: unknown) {
    const reason = String((error as { stderr?: string }).stderr ?? '').trim() || String(error);
    // A setting problem for the person starting the server: CMS_DATA_DIR must name a writable directory.
    throw new ConfigError(
      `could not create the embedded database in ${options.dataDir}: ${reason}. CMS_DATA_DIR must be a writable directory.`,
    );
  }
  return true;
}

/** Does this PGlite data directory still have to be created? */
export function isFirstStart(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}
