/** Starts the server: settings, the database and the app, listen, the start banner, signals -> graceful stop. */
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { createPrettyLogStream, usesPrettyLogs } from './logging/pretty-log.js';
import { formatStartBanner } from './logging/start-banner.js';
import { ModuleValidationError } from './modules/loader.js';
import { createServer } from './server.js';
import { hasDatabaseTemplate, isFirstStart } from './storage/pglite-first-start.js';

const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  const pretty = usesPrettyLogs(config, process.stdout.isTTY === true);
  const color = pretty && process.stdout.isTTY === true && !process.env.NO_COLOR;
  if (!config.databaseUrl && isFirstStart(join(config.dataDir, 'db'))) {
    const how = hasDatabaseTemplate() ? "copying the build's template" : 'a few seconds';
    process.stderr.write(`cms: first start: creating the embedded database in ${config.dataDir} (${how})\n`);
  }
  const server = await createServer(
    config,
    pretty ? { logStream: createPrettyLogStream(process.stdout, { color }) } : {},
  );
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

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ModuleValidationError) {
    console.error(`cms: cannot start: ${error.message}`);
  } else {
    console.error('cms: cannot start:', error);
  }
  process.exit(1);
});
