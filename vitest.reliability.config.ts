import { defineConfig } from 'vitest/config';
import { workspaceAliases } from './vitest.aliases.ts';

/**
 * The reliability suite (`npm run test:reliability`, docs/reliability.md): fuzzing from the OpenAPI
 * document, SIGKILL during writes, concurrent writers, slow clients, two processes on one database.
 * Kept out of `npm test`; CI runs it on both engines.
 */
export default defineConfig({
  resolve: { alias: workspaceAliases },
  test: {
    include: ['packages/server/test/reliability/**/*.reliability.ts'],
    globalSetup: ['packages/server/test/support/global-setup.ts'],
    pool: 'forks',
    // One file at a time: each one loads the machine on purpose.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
