/**
 * What a client needs to check frontmatter as the server does, without Node: the field types, the
 * validator and the reference-field walk (`@cms/core/frontmatter`; the Studio shows the server's field
 * errors before saving). The rest of the schema code (its hash uses node:crypto) stays out.
 */
export type { ArrayItems, FieldMetadata, SchemaType } from './field-types.js';
export { compileFrontmatterValidator } from './frontmatter-validator.js';
export { listReferenceFields } from './references.js';
