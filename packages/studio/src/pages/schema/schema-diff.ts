/**
 * What an overlay adds: the environment's effective schema compared with its base's (docs/api.md
 * "Schema overlays": a layer adds types and fields or replaces fields whole; it never removes).
 */
import type { FieldMetadata, SchemaType } from '../../editor/core-schema.js';

export type Origin = 'added' | 'changed' | 'inherited';

export interface TypeOrigin {
  origin: Origin;
  /** Per top-level field; a field the layer replaced is `changed`. */
  fields: Record<string, Origin>;
}

/** Canonical JSON (sorted keys), to compare fields whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** For each type of `here`, what it owes to the layer on top of `base`. */
export function overlayOrigins(here: readonly SchemaType[], base: readonly SchemaType[]): Record<string, TypeOrigin> {
  const baseTypes = new Map(base.map((type) => [type.name, type]));
  const result: Record<string, TypeOrigin> = {};
  for (const type of here) {
    const before = baseTypes.get(type.name);
    const fields: Record<string, Origin> = {};
    for (const [name, field] of Object.entries(type.fields)) {
      const baseField: FieldMetadata | undefined = before?.fields[name];
      fields[name] = !baseField ? 'added' : canonical(baseField) === canonical(field) ? 'inherited' : 'changed';
    }
    const settingsChanged =
      before !== undefined && (before.directory !== type.directory || before.localized !== type.localized);
    const origin: Origin = !before
      ? 'added'
      : settingsChanged || Object.values(fields).some((o) => o !== 'inherited')
        ? 'changed'
        : 'inherited';
    result[type.name] = { origin, fields };
  }
  return result;
}
