/**
 * The order of a schema's fields, which its hash leaves out: RFC 8785 sorts keys, so two schemas that
 * list the same fields in another order have one hash and validate content alike. The order is still
 * what people declared (the order of fields in a form, of keys in a new markdown file), so the
 * registry keeps it (migration 0018) and a sync that only reorders fields is stored too.
 */
import type { ArrayItems, FieldMetadata, ResolvedSchema } from './field-types.js';

/** Field names in order, each with the order of its nested fields (objects, object items) when it has any. */
export type FieldOrder = Array<string | [string, FieldOrder]>;

function orderOfItems(items: ArrayItems | undefined): FieldOrder | null {
  return items?.fields ? fieldOrderOf(items.fields) : null;
}

/**
 * The names of a field map in declared order, nested maps included (an object's fields, an array's
 * object items): `['title', ['seo', ['description']], 'tags']`.
 */
export function fieldOrderOf(fields: Readonly<Record<string, FieldMetadata>>): FieldOrder {
  return Object.entries(fields).map(([name, field]) => {
    const nested = field.fields ? fieldOrderOf(field.fields) : orderOfItems(field.items);
    return nested && nested.length > 0 ? [name, nested] : name;
  });
}

/**
 * A text that differs exactly when two schemas order their types or fields differently (whatever
 * else they differ in): compare it alongside the hash to tell an order-only change.
 */
export function schemaOrderKey(schema: ResolvedSchema): string {
  return JSON.stringify(schema.types.map((type) => [type.name, fieldOrderOf(type.fields)]));
}
