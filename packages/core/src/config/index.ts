export * from './define-config.js';
export * from './define-type.js';
export * from './field-builders.js';
export * from './infer-frontmatter.js';
export * from './resolve-config.js';
