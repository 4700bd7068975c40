/**
 * Where a type's reference fields are and which document ids a frontmatter holds in them: used to
 * check references on write (spec "Content endpoints": each must be an existing, non-deleted
 * document of the target type) and to resolve them on read (`resolve=seo.author`).
 */

import { isUuid } from './field-formats.js';
import type { FieldMetadata, SchemaType } from './field-types.js';
import { isPlainObject } from './field-validator.js';
import { FRONTMATTER_PATH } from './frontmatter-validator.js';

/** A reference field of a type, addressed in dot notation as the `resolve` parameter names it. */
export interface ReferenceField {
  /** Dot path of the field, such as `author` or `seo.author`. */
  path: string;
  targetType: string;
  /** True when the path goes through an array, so it holds many ids (`related`, `blocks.author`). */
  array: boolean;
}

/** One document id found in frontmatter. */
export interface FrontmatterReference {
  /** JSON path of the value, such as `frontmatter.author` or `frontmatter.related[1]`. */
  path: string;
  /** The reference field it belongs to, in `ReferenceField.path` form (`related`, `seo.author`). */
  fieldPath: string;
  /** Lowercase document id. */
  documentId: string;
  targetType: string;
}

function joinDot(prefix: string, name: string): string {
  return prefix === '' ? name : `${prefix}.${name}`;
}

function listIn(fields: Record<string, FieldMetadata>, prefix: string, inArray: boolean, out: ReferenceField[]): void {
  for (const [name, meta] of Object.entries(fields)) {
    const path = joinDot(prefix, name);
    if (meta.kind === 'reference' && meta.reference) {
      out.push({ path, targetType: meta.reference.targetType, array: inArray });
    } else if (meta.kind === 'object' && meta.fields) {
      listIn(meta.fields, path, inArray, out);
    } else if (meta.kind === 'array' && meta.items) {
      const { items } = meta;
      if (items.kind === 'reference' && items.reference) {
        out.push({ path, targetType: items.reference.targetType, array: true });
      } else if (items.kind === 'object' && items.fields) {
        listIn(items.fields, path, true, out);
      }
    }
  }
}

/**
 * Every reference field of a type, nested objects and arrays included, in schema order.
 * @example listReferenceFields(post) // [{ path: 'seo.author', targetType: 'author', array: false }]
 */
export function listReferenceFields(type: SchemaType): ReferenceField[] {
  const out: ReferenceField[] = [];
  listIn(type.fields, '', false, out);
  return out;
}

function pushId(value: unknown, path: string, fieldPath: string, targetType: string, out: FrontmatterReference[]) {
  // Nulls and malformed ids are skipped: the frontmatter validator reports the latter, and a
  // non-UUID must never reach a uuid column lookup.
  if (typeof value === 'string' && isUuid(value)) {
    out.push({ path, fieldPath, documentId: value.toLowerCase(), targetType });
  }
}

function collectIn(
  fields: Record<string, FieldMetadata>,
  value: Record<string, unknown>,
  path: string,
  fieldPrefix: string,
  out: FrontmatterReference[],
): void {
  for (const [name, meta] of Object.entries(fields)) {
    if (!Object.hasOwn(value, name)) continue;
    const child = value[name];
    const childPath = `${path}.${name}`;
    const fieldPath = joinDot(fieldPrefix, name);
    if (meta.kind === 'reference' && meta.reference) {
      pushId(child, childPath, fieldPath, meta.reference.targetType, out);
    } else if (meta.kind === 'object' && meta.fields && isPlainObject(child)) {
      collectIn(meta.fields, child, childPath, fieldPath, out);
    } else if (meta.kind === 'array' && meta.items && Array.isArray(child)) {
      const { items } = meta;
      child.forEach((item, index) => {
        const itemPath = `${childPath}[${index}]`;
        if (items.kind === 'reference' && items.reference) {
          pushId(item, itemPath, fieldPath, items.reference.targetType, out);
        } else if (items.kind === 'object' && items.fields && isPlainObject(item)) {
          collectIn(items.fields, item, itemPath, fieldPath, out);
        }
      });
    }
  }
}

/**
 * Every document id held in reference fields of a frontmatter, with its JSON path and target type,
 * in document order. Run it on validated frontmatter.
 * @example collectReferences(post, fm) // [{ path: 'frontmatter.related[1]', fieldPath: 'related', ... }]
 */
export function collectReferences(type: SchemaType, frontmatter: unknown): FrontmatterReference[] {
  const out: FrontmatterReference[] = [];
  if (isPlainObject(frontmatter)) collectIn(type.fields, frontmatter, FRONTMATTER_PATH, '', out);
  return out;
}
