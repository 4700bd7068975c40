import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { workspaceAliases } from '../../vitest.aliases.ts';

/**
 * The Studio's browser tests: Debian's Chromium driven by playwright-core against a real server on
 * the embedded database. Their own run (`npm run test:studio`), once per CI run, files one at a time.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: { alias: workspaceAliases },
  test: {
    include: ['packages/studio/test/**/*.e2e.ts'],
    globalSetup: ['packages/server/test/support/global-setup.ts', 'packages/studio/test/support/build-studio.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
