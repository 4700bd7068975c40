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
const LOG_BUFFER_BYTES = 4096;
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
 * LOG_FLUSH_INTERVAL_MS, off the event loop, so a busy server makes one write for many request lines
 * instead of a blocking write each (docs/operations.md "Logs"). What is still buffered is written at exit,
 * a crash included; only a `kill -9` can lose the last moment's lines.
 */
function jsonLogDestination(): LogStream {
  // Not SonicBoom's own `periodicFlush`: it writes (an empty string, through the thread pool) on every
  // tick, idle or not; this flushes only when a line came in since the last tick.
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  let buffered = false;
  setInterval(() => {
    if (!buffered) return;
    buffered = false;
    destination.flush();
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return {
    write(line: string): void {
      buffered = true;
      destination.write(line);
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
