/**
 * The input rules every route applies, decided once (docs/api.md "Input rules"):
 * - every string (value or object key) of a JSON body, query string or path must be storable by
 *   PostgreSQL: no NUL character (U+0000) and no lone UTF-16 surrogate;
 * - a JSON body nests at most {@link MAX_JSON_DEPTH} levels of objects and arrays;
 * - every integer of a request schema (body field, query or path parameter) lies within the range of
 *   the column it reaches: `mountActions` adds `minimum`/`maximum` where a declaration has none;
 * - no number is past the largest a double holds (`1e309`): a JSON body's would be read as Infinity,
 *   and a query or path parameter's would be coerced to Infinity, which passes the schema's bounds.
 * The walks are iterative, so a body nested 10,000 levels deep cannot overflow the stack.
 */
import { invalidInput, invalidQueryParam } from '@cms/core';
import type { JsonSchema } from '../actions/define-action.js';
import { unstorablePart } from '../storage/storable-text.js';
import { describeSchema } from './validation-messages.js';

/** Deepest nesting of objects and arrays a JSON body may have (the top-level value is depth 1). */
export const MAX_JSON_DEPTH = 64;
/** Bounds given to every integer of a request schema that declares none: PostgreSQL's `integer`. */
export const INT_MIN = -2_147_483_648;
export const INT_MAX = 2_147_483_647;

/** Why a string cannot be stored, or null. */
export function unstorableReason(value: string): string | null {
  const part = unstorablePart(value);
  if (part === null) return null;
  return part === 'nul'
    ? 'must not contain the NUL character (U+0000): remove it'
    : 'must be valid Unicode text: it contains a lone UTF-16 surrogate (send both halves of the pair)';
}

/** `body.frontmatter.tags[2]`: the JSON path of a value, as `details.fields` keys name it. */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The first problem of a parsed JSON value under `root` (`body`), as `{ path: message }`, or null.
 * Walks with an explicit stack: depth is checked before descending.
 */
export function jsonValueProblem(value: unknown, root: string): Record<string, string> | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const current = item.value;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) return { [item.path]: reason };
      continue;
    }
    if (typeof current === 'number' && !Number.isFinite(current)) {
      return { [item.path]: PAST_ANY_NUMBER };
    }
    if (current === null || typeof current !== 'object') continue;
    if (item.depth > MAX_JSON_DEPTH) {
      return {
        [item.path]: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed`,
      };
    }
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) {
        stack.push({ value: current[index], path: childPath(item.path, index), depth: item.depth + 1 });
      }
      continue;
    }
    for (const [key, child] of Object.entries(current)) {
      const path = childPath(item.path, key);
      const reason = unstorableReason(key);
      if (reason) return { [path]: `is a property name that ${reason}` };
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

const PAST_ANY_NUMBER = 'is a number past the largest one there is (1.7976931348623157e308): send a smaller number';

/** The numeric parameters of a route's query and path schemas (after {@link withIntegerBounds}). */
export interface NumericParameters {
  query: ReadonlyMap<string, JsonSchema>;
  params: ReadonlyMap<string, JsonSchema>;
}

/** Each property of a flat (query or path) object schema whose type is `integer` or `number`. */
export function numericParametersOf(schema: JsonSchema | undefined): ReadonlyMap<string, JsonSchema> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const numeric = new Map<string, JsonSchema>();
  for (const [name, property] of Object.entries(properties)) {
    const types = ([] as unknown[]).concat(property.type ?? []);
    if (types.includes('integer') || types.includes('number')) numeric.set(name, property);
  }
  return numeric;
}

/** The rules applied to a request's parts before schema validation; throws the 400 to answer. */
export function checkRequestInput(
  parts: { params?: unknown; query?: unknown; body?: unknown },
  numeric?: NumericParameters,
): void {
  const queryProblem = flatStringsProblem(parts.query, numeric?.query);
  if (queryProblem) throw invalidQueryParam(queryProblem);
  const paramsProblem = flatStringsProblem(parts.params, numeric?.params);
  if (paramsProblem) throw invalidInput(prefixed('params', paramsProblem));
  if (parts.body !== undefined) {
    const bodyProblem = jsonValueProblem(parts.body, 'body');
    if (bodyProblem) throw invalidInput(bodyProblem);
  }
}

/**
 * Query strings and path parameters: names to strings or arrays of strings, one level. A numeric
 * parameter whose text reads as Infinity (`1e309`) is refused here, before coercion makes it a number
 * every bound lets through.
 */
function flatStringsProblem(
  values: unknown,
  numeric: ReadonlyMap<string, JsonSchema> = new Map(),
): Record<string, string> | null {
  if (!values || typeof values !== 'object') return null;
  for (const [name, value] of Object.entries(values)) {
    const nameReason = unstorableReason(name);
    if (nameReason) return { [JSON.stringify(name)]: `is a parameter name that ${nameReason}` };
    const schema = numeric.get(name);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== 'string') continue;
      const reason = unstorableReason(item) ?? (schema && readsAsInfinity(item) ? rangeReason(schema, item) : null);
      if (reason) return { [name]: reason };
    }
  }
  return null;
}

function readsAsInfinity(text: string): boolean {
  return Math.abs(Number(text)) === Number.POSITIVE_INFINITY;
}

/** `must be an integer from 1 to 100; got "1e309"`, from the parameter's own schema. */
function rangeReason(schema: JsonSchema, sent: string): string {
  return `must be ${describeSchema(schema)}; got ${JSON.stringify(sent)}`;
}

function prefixed(prefix: string, fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, message]) => [`${prefix}.${key}`, message]));
}

/**
 * A copy of a request schema where every `integer` without bounds gets PostgreSQL's `integer` range,
 * so an out-of-range number is a 400 naming the field instead of a database error. Schemas are small
 * declarations; the copy keeps every other keyword (symbol keys, such as TypeBox's, are dropped).
 */
export function withIntegerBounds<T extends JsonSchema | undefined>(schema: T): T {
  if (!schema) return schema;
  return boundCopy(schema) as T;
}

function boundCopy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(boundCopy);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // `default`, `const`, `enum` and `examples` hold values, not schemas.
    copy[key] = ['default', 'const', 'enum', 'examples'].includes(key) ? value : boundCopy(value);
  }
  if (isIntegerSchema(copy)) {
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = INT_MIN;
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = INT_MAX;
  }
  return copy;
}

function isIntegerSchema(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}
