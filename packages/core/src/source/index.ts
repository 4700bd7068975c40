/**
 * `@cms/core/source`: a document's source text (the file as written): frontmatter split, YAML read
 * with the 1.2 core schema, the canonical writer, and the patcher that rewrites only the lines of the
 * keys that changed. One implementation for the server, the CLI and the Studio.
 */

export { deepEqual } from './deep-equal.js';
export * from './frontmatter.js';
export {
  type FrontmatterMerge,
  type MergedKey,
  mergeFrontmatter,
  mergeText,
  type TextMerge,
} from './three-way-merge.js';
export { patchYamlText } from './yaml-patch.js';
export type { FieldShape, FieldShapes } from './yaml-render.js';
export { rootShape, shapeOfItem, shapeOfKey } from './yaml-render.js';
