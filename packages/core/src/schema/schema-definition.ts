/**
 * Structural validation of a pushed `resolvedSchema` (spec "Schema endpoints", `PUT /schema/sync`).
 * Errors are keyed by JSON path from the request body, such as
 * `resolvedSchema.types[0].fields.title.checks[1].value`.
 */
import { checkFieldMap, childPath, type DefinitionContext } from './field-definition.js';
import type { ResolvedSchema } from './field-types.js';
import { type FieldErrors, isPlainObject } from './field-validator.js';

/** Type names: a letter, then letters, digits, `_` or `-`, 64 characters at most. */
export const TYPE_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
/** Most types one schema may define. */
export const MAX_SCHEMA_TYPES = 200;
/** Most fields one type may define, counting the fields of nested objects and array items. */
export const MAX_FIELDS_PER_TYPE = 200;
/** Longest `directory` of a type, as long as the longest document path. */
export const MAX_DIRECTORY_LENGTH = 512;

const ROOT = 'resolvedSchema';
const SCHEMA_KEYS = ['types'];
const TYPE_KEYS = ['name', 'directory', 'localized', 'fields'];

/** Options of `validateResolvedSchema`. */
export interface SchemaValidationOptions {
  /**
   * Types a reference field may target besides the schema's own: those of the base schema a layer
   * is applied over (schema overlays).
   */
  baseTypeNames?: Iterable<string>;
}

/** Outcome of `validateResolvedSchema`: the schema, or errors by JSON path. */
export type SchemaValidation = { ok: true; schema: ResolvedSchema } | { ok: false; fields: Record<string, string> };

function rejectUnknownKeys(value: Record<string, unknown>, allowed: string[], path: string, errors: FieldErrors) {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) errors[childPath(path, key)] = `unknown property: allowed are ${allowed.join(', ')}`;
  }
}

/** Type names in order; records a bad or repeated name. Only unique valid names are returned. */
function collectTypeNames(types: unknown[], errors: FieldErrors): Set<string> {
  const firstIndex = new Map<string, number>();
  types.forEach((type, index) => {
    const name = isPlainObject(type) ? type.name : undefined;
    const at = `${ROOT}.types[${index}].name`;
    if (typeof name !== 'string' || !TYPE_NAME_PATTERN.test(name)) {
      errors[at] = 'must be a type name: a letter, then letters, digits, _ or -, 64 characters at most';
      return;
    }
    const first = firstIndex.get(name);
    if (first !== undefined) {
      errors[at] = `duplicate type name ${JSON.stringify(name)} (also at types[${first}])`;
      return;
    }
    firstIndex.set(name, index);
  });
  return new Set(firstIndex.keys());
}

function checkType(type: unknown, path: string, typeNames: ReadonlySet<string>, errors: FieldErrors): void {
  if (!isPlainObject(type)) {
    errors[path] = 'must be a schema type { name, directory, localized, fields }';
    return;
  }
  rejectUnknownKeys(type, TYPE_KEYS, path, errors);
  if (typeof type.directory !== 'string') {
    errors[`${path}.directory`] = 'must be a string: the content directory of the type';
  } else if (type.directory.length > MAX_DIRECTORY_LENGTH) {
    errors[`${path}.directory`] = `must be at most ${MAX_DIRECTORY_LENGTH} characters long`;
  }
  if (typeof type.localized !== 'boolean') errors[`${path}.localized`] = 'must be true or false';
  const ctx: DefinitionContext = { errors, typeNames, fieldCount: 0 };
  checkFieldMap(type.fields, `${path}.fields`, 1, ctx);
  if (ctx.fieldCount > MAX_FIELDS_PER_TYPE) {
    errors[`${path}.fields`] =
      `defines ${ctx.fieldCount} fields counting nested ones; at most ${MAX_FIELDS_PER_TYPE} are allowed`;
  }
}

/**
 * Validates the structure of a pushed resolved schema, collecting every error. On success the
 * input itself is returned, unchanged, so its hash is the hash the client computed. A layer synced
 * to an extending environment passes its base's type names as `baseTypeNames`.
 * @example
 * const result = validateResolvedSchema(body.resolvedSchema);
 * if (!result.ok) throw invalidInput(result.fields);
 */
export function validateResolvedSchema(input: unknown, options: SchemaValidationOptions = {}): SchemaValidation {
  const errors: FieldErrors = {};
  if (!isPlainObject(input)) {
    return { ok: false, fields: { [ROOT]: 'must be an object { types: [schema type] }' } };
  }
  rejectUnknownKeys(input, SCHEMA_KEYS, ROOT, errors);
  const { types } = input;
  if (!Array.isArray(types)) {
    errors[`${ROOT}.types`] = 'must be an array of schema types';
    return { ok: false, fields: errors };
  }
  if (types.length > MAX_SCHEMA_TYPES) {
    errors[`${ROOT}.types`] = `has ${types.length} types; at most ${MAX_SCHEMA_TYPES} are allowed`;
    return { ok: false, fields: errors };
  }
  const typeNames = collectTypeNames(types, errors);
  const targetNames = new Set([...typeNames, ...(options.baseTypeNames ?? [])]);
  types.forEach((type, index) => {
    checkType(type, `${ROOT}.types[${index}]`, targetNames, errors);
  });
  if (Object.keys(errors).length > 0) return { ok: false, fields: errors };
  return { ok: true, schema: input as unknown as ResolvedSchema };
}
