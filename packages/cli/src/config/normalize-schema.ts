/**
 * Turns the `types` of a config (array or map, builder objects or plain metadata) into core's
 * `ResolvedSchema`, filling the defaults core's metadata requires so a hand-written config stays short.
 */
import type { FieldMetadata, ResolvedSchema, SchemaType } from '@cms/core';

function toPlain(value: unknown): unknown {
  // Builders may carry methods or a toJSON(); the schema is plain JSON on the wire.
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalizeField(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const field: Record<string, unknown> = { ...value };
  field.required ??= false;
  field.nullable ??= false;
  if (!('default' in field)) field.default = null;
  field.reference ??= null;
  field.checks ??= [];
  if (isRecord(field.fields)) field.fields = normalizeFields(field.fields);
  if (isRecord(field.items)) {
    const items: Record<string, unknown> = { ...field.items };
    items.checks ??= [];
    if (isRecord(items.fields)) items.fields = normalizeFields(items.fields);
    field.items = items;
  }
  return field;
}

function normalizeFields(fields: Record<string, unknown>): Record<string, FieldMetadata> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) out[name] = normalizeField(field);
  return out as Record<string, FieldMetadata>;
}

/** The resolved schema of a config's `types`, directories overridden by `contentDirectories`. */
export function normalizeTypes(
  types: unknown[] | Record<string, unknown> | undefined,
  directories: Record<string, string> = {},
): ResolvedSchema {
  const plain = toPlain(types ?? []);
  const list: unknown[] = Array.isArray(plain)
    ? plain
    : isRecord(plain)
      ? Object.entries(plain).map(([name, type]) => ({ name, ...(isRecord(type) ? type : {}) }))
      : [];
  return {
    types: list.map((entry) => {
      if (!isRecord(entry)) return entry as SchemaType;
      const name = entry.name as string;
      const type: Record<string, unknown> = {
        name,
        directory: directories[name] ?? entry.directory ?? name,
        localized: entry.localized ?? false,
        fields: isRecord(entry.fields) ? normalizeFields(entry.fields) : entry.fields,
      };
      for (const [key, value] of Object.entries(entry)) if (!(key in type)) type[key] = value;
      return type as unknown as SchemaType;
    }),
  };
}
