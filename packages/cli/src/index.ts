// The config DSL, so `import { defineConfig, defineType, field } from '@cms/cli'` works in cms.config.ts.
export { defineConfig, defineType, field } from '@cms/core/config';
export { main } from './main.js';
export * from './sync/classify.js';
export * from './sync/content-hash.js';
export * from './sync/file-naming.js';
export * from './sync/frontmatter.js';
export * from './sync/manifest.js';
