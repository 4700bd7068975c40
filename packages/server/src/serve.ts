/** Starts the server: settings, the database and the app, listen, the start banner, signals -> graceful stop. */
import { join } from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import type { LogStream } from './http/create-app.js';
import { createPrettyLogStream, usesPrettyLogs } from './logging/pretty-log.js';
import { formatStartBanner } from './logging/start-banner.js';
import { ModuleValidationError } from './modules/loader.js';
import { createServer } from './server.js';
import { hasDatabaseTemplate, isFirstStart } from './storage/pglite-first-start.js';

const SHUTDOWN_TIMEOUT_MS = 25_000;
/** JSON log lines are written in batches of about this many bytes, or at least this often. */
const LOG_BUFFER_BYTES = 16_384;
const LOG_FLUSH_INTERVAL_MS = 200;

async function main(): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  const pretty = usesPrettyLogs(config, process.stdout.isTTY === true);
  const color = pretty && process.stdout.isTTY === true && !process.env.NO_COLOR;
  if (!config.databaseUrl && isFirstStart(join(config.dataDir, 'db'))) {
    const how = hasDatabaseTemplate() ? "copying the build's template" : 'a few seconds';
    process.stderr.write(`cms: first start: creating the embedded database in ${config.dataDir} (${how})\n`);
  }
  const server = await createServer(config, {
    logStream: pretty ? createPrettyLogStream(process.stdout, { color }) : jsonLogDestination(),
  });
  const address = await server.listen();
  const startupMs = Math.round(performance.now() - startedAt);
  server.app.log.info(
    {
      address,
      studio: `${config.publicUrl}/studio`,
      database: server.db.engine,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      startupMs,
    },
    'server listening',
  );
  if (pretty)
    process.stdout.write(formatStartBanner({ address, config, notices: server.notices, startupMs }, { color }));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      server.app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * JSON lines to stdout, buffered: written in batches of about LOG_BUFFER_BYTES, and at least every
 * LOG_FLUSH_INTERVAL_MS, so a busy server makes one write for a few dozen request lines instead of one
 * each (docs/operations.md "Logs"). What is still buffered is written at exit, a crash included; only a
 * `kill -9` can lose the last moment's lines.
 */
function jsonLogDestination(): LogStream {
  // SonicBoom writes each batch, synchronously as pino does by default: one write of 16 KB costs the
  // event loop less than handing it to the thread pool and taking its completion back (measured,
  // docs/benchmarks.md "2026-11-29 10:30-12:00 UTC"); on a pipe that is full it waits and retries.
  // The lines are gathered here, not in SonicBoom's `minLength` buffer, which measures its whole pending
  // string on every line it is given (Buffer.byteLength); and not flushed by its `periodicFlush`, which
  // writes on every tick, idle or not: this hands a batch over only when a line came in since the last tick.
  const destination = pino.destination({ dest: 1, sync: true });
  let lines: string[] = [];
  let length = 0;
  const handOver = () => {
    if (lines.length === 0) return;
    const batch = lines.length === 1 ? (lines[0] as string) : lines.join('');
    lines = [];
    length = 0;
    destination.write(batch);
  };
  setInterval(handOver, LOG_FLUSH_INTERVAL_MS).unref();
  // What is gathered is written at exit (a crash included); SonicBoom holds nothing between writes.
  process.on('exit', handOver);
  return {
    write(line: string): void {
      lines.push(line);
      // Characters, not bytes: a batch only needs to be about the size.
      length += line.length;
      if (length >= LOG_BUFFER_BYTES) handOver();
    },
  };
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ModuleValidationError) {
    console.error(`cms: cannot start: ${error.message}`);
  } else {
    console.error('cms: cannot start:', error);
  }
  process.exit(1);
});
