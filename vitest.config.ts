import { defineConfig } from 'vitest/config';
import { workspaceAliases } from './vitest.aliases.ts';

export default defineConfig({
  resolve: { alias: workspaceAliases },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['packages/server/test/support/global-setup.ts'],
    pool: 'forks',
    // Two files at a time on CI's 2 cores: much of a file's time is spent waiting on a child process
    // (the cms binary, a server, a build) or on the database, and one worker left a core idle then.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
