import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { DEFAULT_PGLITE_SHARED_BUFFERS_MB, type ServerConfig } from '../config.js';
import type { Db } from './db.js';
import { prepareFirstStart } from './pglite-first-start.js';

/** Opens the database the configuration names: PostgreSQL, or PGlite in the data dir. */
export async function openDb(
  config: Pick<ServerConfig, 'databaseUrl' | 'databasePoolMax' | 'dataDir'> &
    Partial<Pick<ServerConfig, 'pgliteSharedBuffersMb' | 'pgliteOptimizingCompiler'>>,
): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgresDb } = await import('./postgres-db.js');
    return openPostgresDb({ connectionString: config.databaseUrl, max: config.databasePoolMax });
  }
  const dataDir = join(config.dataDir, 'db');
  const sharedBuffersMb = config.pgliteSharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB;
  await prepareFirstStart({ dataDir, sharedBuffersMb });
  if (config.pgliteOptimizingCompiler !== true) useBaselineWasmCompiler();
  const { openPgliteDb } = await import('./pglite-db.js');
  return openPgliteDb({ dataDir, sharedBuffersMb });
}

/**
 * PGlite is PostgreSQL compiled to WebAssembly. V8 first compiles it with its baseline compiler
 * (Liftoff), then recompiles the hot functions with TurboFan on background threads: about a second of
 * CPU in the first minute and 50-60 MiB of memory that stays with the process (the compilers' freed
 * memory is kept by the threads' malloc arenas), for 5-15% less CPU on steady database work
 * (docs/benchmarks.md "Footprint: idle memory"). The embedded default favours a small, fast start;
 * `CMS_PGLITE_OPTIMIZING_COMPILER=true` turns TurboFan back on. The flag is process-wide and read when
 * a WebAssembly module is compiled, so it is set before PGlite loads; only PGlite compiles WebAssembly here.
 */
function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
