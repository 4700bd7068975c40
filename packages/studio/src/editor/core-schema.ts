/**
 * Core's schema types and frontmatter validator, imported file by file: they have no Node
 * dependency, so the browser shows the same field errors as the server before saving.
 */
export type { ArrayItems, FieldMetadata, SchemaType } from '../../../core/src/schema/field-types.js';
export { compileFrontmatterValidator } from '../../../core/src/schema/frontmatter-validator.js';
export { listReferenceFields } from '../../../core/src/schema/references.js';
