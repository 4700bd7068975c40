/**
 * Core's schema types and frontmatter validator (`@cms/core/frontmatter`: no Node dependency), so the
 * browser shows the same field errors as the server before saving.
 */
export type { ArrayItems, FieldMetadata, SchemaType } from '@cms/core/frontmatter';
export { compileFrontmatterValidator, listReferenceFields } from '@cms/core/frontmatter';
