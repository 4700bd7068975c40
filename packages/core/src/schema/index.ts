export { FIELD_NAME_PATTERN, MAX_FIELD_DEPTH, MAX_REGEX_LENGTH } from './field-definition.js';
export { isEmail, isIsoDateOrDateTime, isUrl, isUuid } from './field-formats.js';
export * from './field-types.js';
export * from './frontmatter-validator.js';
export * from './references.js';
export * from './schema-definition.js';
export * from './schema-hash.js';
export * from './schema-overlay.js';
export * from './validator-cache.js';
