import { ConfigError, loadConfig } from './config.js';
import { ModuleValidationError } from './modules/loader.js';
import { createServer } from './server.js';

const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const startedAt = performance.now();
  const config = loadConfig();
  const server = await createServer(config);
  const address = await server.listen();
  server.app.log.info(
    {
      address,
      studio: `${config.publicUrl}/studio`,
      database: server.db.engine,
      startupMs: Math.round(performance.now() - startedAt),
    },
    'server listening',
  );
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
