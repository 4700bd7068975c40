import { fileURLToPath } from 'node:url';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Every test run reads the workspace packages from their TypeScript sources, each entry point
 * matched exactly: a bare `@cms/core` prefix would also catch `@cms/core/source` and point it
 * into `index.ts`. One list, used by the unit, reliability and Studio browser configs.
 */
export const workspaceAliases = [
  { find: /^@cms\/core$/, replacement: source('./packages/core/src/index.ts') },
  { find: /^@cms\/core\/source$/, replacement: source('./packages/core/src/source/index.ts') },
  { find: /^@cms\/core\/schema$/, replacement: source('./packages/core/src/schema/index.ts') },
  { find: /^@cms\/core\/config$/, replacement: source('./packages/core/src/config/index.ts') },
  { find: /^@cms\/core\/errors$/, replacement: source('./packages/core/src/errors/cms-error.ts') },
  { find: /^@cms\/core\/route-table$/, replacement: source('./packages/core/src/wire/route-table.ts') },
  { find: /^@cms\/core\/preview-url$/, replacement: source('./packages/core/src/preview/preview-url.ts') },
  { find: /^@cms\/sdk$/, replacement: source('./packages/sdk/src/index.ts') },
  { find: /^@cms\/sdk\/preview$/, replacement: source('./packages/sdk/src/live-preview/index.ts') },
  { find: /^@cms\/sdk\/markdown$/, replacement: source('./packages/sdk/src/markdown/index.ts') },
];
