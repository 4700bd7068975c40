import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@cms\/core$/, replacement: source('./packages/core/src/index.ts') },
      { find: /^@cms\/core\/route-table$/, replacement: source('./packages/core/src/wire/route-table.ts') },
      { find: /^@cms\/sdk$/, replacement: source('./packages/sdk/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['packages/server/test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
