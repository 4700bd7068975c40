/**
 * The server's entry point (`node dist/main.js`, `npm start`). It turns on Node's on-disk compile
 * cache (Node 22.1 and later; nothing on Node 20) before loading the rest, so a restart loads the
 * server's modules from cached V8 code instead of compiling them again (docs/operations.md "Start").
 * The cache lives where `NODE_COMPILE_CACHE` says, else in the system's temporary directory.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./serve.js');
