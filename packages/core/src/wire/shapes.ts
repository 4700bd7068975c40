/**
 * Building blocks of wire shapes: ids, timestamps, open objects, nullables and the list query
 * parameters every list shares, so bounds cannot drift apart (interface.md "Pagination and
 * sorting", "Limits"; decisions.md §3).
 */
import { type Static, type TOptional, type TSchema, Type } from 'typebox';

/** A UUID (`format: uuid`). */
export const Uuid = Type.String({ format: 'uuid' });

/** An ISO 8601 timestamp (`format: date-time`); services may hand a `Date`, the serializer writes the string. */
export const Timestamp = Type.String({ format: 'date-time' });

/** An object with any properties (frontmatter, details). */
export const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

/**
 * `schema` or `null`, written as a type list (`{ type: ['integer', 'null'] }`) for schemas with a
 * single `type`: the form Ajv and the response serializer handle fastest; `anyOf` otherwise.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string') return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }] });
}

/**
 * A map from keys to values of one schema, written as `propertyNames` (the key's schema) and
 * `additionalProperties` (the value's), so every key is checked and no value escapes its schema.
 * TypeBox's `Type.Record` writes `patternProperties` instead, which checks only the keys its
 * pattern matches (`^.*$` matches no key holding a line break) and lets every other key through
 * with any value.
 */
export function StringMap<V extends TSchema>(
  keys: { pattern?: string; maxLength?: number; description?: string },
  values: V,
  options: { maxProperties?: number; description?: string } = {},
) {
  return Type.Unsafe<Record<string, Static<V>>>({
    type: 'object',
    propertyNames: { type: 'string', ...keys },
    additionalProperties: values,
    ...options,
  });
}

/** Longest locale tag accepted anywhere (BCP 47 tags in practice stay far below). */
export const MAX_LOCALE_LENGTH = 35;
/** Longest document path. */
export const MAX_PATH_LENGTH = 512;

/**
 * Largest `offset` any list accepts: the largest 32-bit integer. Larger values would reach SQL as
 * numbers PostgreSQL cannot take (an error, not an empty page); no table holds that many rows.
 */
export const MAX_QUERY_OFFSET = 2_147_483_647;

/** `offset`: results to skip, 0 to {@link MAX_QUERY_OFFSET}, default 0. */
export const OffsetQuery = Type.Integer({ minimum: 0, maximum: MAX_QUERY_OFFSET, default: 0 });

/** `limit`: page size, 1 to `max`, default `defaultSize`. */
export function LimitQuery(defaultSize: number, max: number) {
  return Type.Integer({ minimum: 1, maximum: max, default: defaultSize });
}

/**
 * A closed enum of strings, written as `{ type: 'string', enum: [...] }` (as the interface
 * document does) rather than a union of constants.
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** `order`: `asc` or `desc`, default `desc`. */
export const OrderQuery = StringEnum(['asc', 'desc'], { default: 'desc' });

declare const DEFAULTED: unique symbol;
/** Type-level mark of a property the validator fills when absent (no runtime presence). */
export interface DefaultedMark {
  readonly [DEFAULTED]: true;
}
/** An optional property with a default: optional for the caller, always present once validated. */
export type TDefaulted<T extends TSchema> = TOptional<T> & DefaultedMark;

/** `schema`, optional on the wire, filled with `value` by validation (Ajv `useDefaults`). */
export function WithDefault<T extends TSchema>(schema: T, value: Static<T>): TDefaulted<T> {
  return Type.Optional({ ...schema, default: value } as T) as TDefaulted<T>;
}

/**
 * The query of a route that takes no parameters: any one is unknown, so `INVALID_QUERY_PARAM`
 * (decisions.md §3). The server gives it to every enveloped route that declares no query.
 */
export const NoQuery = Type.Object({}, { additionalProperties: false });

/** Project slugs: lower-case letters, digits and `-`, starting with a letter or digit, at most 63. */
export const PROJECT_SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
/** Environment names: the same rule as project slugs. */
export const ENVIRONMENT_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
