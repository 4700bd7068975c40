/**
 * Schema overlays (spec/interface.md "Tenancy": an environment that extends another inherits the
 * base schema and may add or modify fields). The schema synced to an extending environment is a
 * layer over its base's effective schema; these functions compute the merged result.
 */
import type { ResolvedSchema, SchemaType } from './field-types.js';

function mergeType(base: SchemaType, layer: SchemaType): SchemaType {
  // The layer's settings win; fields merge by name, a layer field replacing the base's as a whole.
  return { ...layer, fields: { ...base.fields, ...layer.fields } };
}

/**
 * The base schema with one layer applied. Types only in the layer are added (after the base's, in
 * the layer's order); a type in both takes the layer's settings (`directory`, `localized`) and the
 * base's fields with the layer's fields replacing those of the same name, nested objects whole.
 * Nothing of the base is removed. Pure: neither input is changed.
 * @example
 * applySchemaLayer(production, { types: [{ ...post, fields: { subtitle } }] }); // post gains subtitle
 */
export function applySchemaLayer(base: ResolvedSchema, layer: ResolvedSchema): ResolvedSchema {
  const layered = new Map(layer.types.map((type) => [type.name, type]));
  const types = base.types.map((type) => {
    const over = layered.get(type.name);
    if (!over) return type;
    layered.delete(type.name);
    return mergeType(type, over);
  });
  return { types: [...types, ...layered.values()] };
}

/**
 * The effective schema of a chain of layers, the root environment's first: each applied over the
 * merge of those before it. One layer is returned as is (so its hash is the hash that was synced);
 * no layers is the empty schema.
 */
export function mergeSchemaLayers(layers: readonly ResolvedSchema[]): ResolvedSchema {
  const [first, ...rest] = layers;
  if (!first) return { types: [] };
  return rest.reduce(applySchemaLayer, first);
}
