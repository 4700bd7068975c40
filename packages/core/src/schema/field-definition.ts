/**
 * Structural validation of field metadata at schema sync: kinds, their extra properties, checks,
 * nesting and defaults. Everything a frontmatter validator later relies on is proven here, so
 * compiling it cannot fail (an invalid regex is rejected now, not on the first write).
 */
import { compilePattern } from './field-formats.js';
import { FIELD_KINDS, type FieldCheckType, type FieldKind } from './field-types.js';
import { compileValue, type FieldErrors, isPlainObject, type ValueSpec } from './field-validator.js';

/** Field names: a letter, then letters, digits, `_` or `-`; never a dot, as paths use dot notation. */
export const FIELD_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
/** Deepest nesting of field maps: top-level fields are level 1, an object's fields level 2. */
export const MAX_FIELD_DEPTH = 5;
/** Longest `regex` check pattern, bounding the work a pushed pattern can cause. */
export const MAX_REGEX_LENGTH = 1024;

const FIELD_KEYS = ['kind', 'required', 'nullable', 'default', 'reference', 'checks', 'items', 'fields', 'values'];
const ITEMS_KEYS = ['kind', 'checks', 'reference', 'fields', 'values'];
const CHECK_TYPES: readonly FieldCheckType[] = ['min', 'max', 'regex', 'url', 'email'];
const CHECKS_BY_KIND: Record<FieldKind, readonly FieldCheckType[]> = {
  string: CHECK_TYPES,
  number: ['min', 'max'],
  array: ['min', 'max'],
  boolean: [],
  date: [],
  object: [],
  reference: [],
  enum: [],
};

/** What field validation needs from the schema around it. */
export interface DefinitionContext {
  errors: FieldErrors;
  /** Names of the schema's types, for `reference.targetType`. */
  typeNames: ReadonlySet<string>;
  /** Fields seen so far in the current type, nested ones included. */
  fieldCount: number;
}

function fail(ctx: DefinitionContext, path: string, message: string): void {
  if (!Object.hasOwn(ctx.errors, path)) ctx.errors[path] = message;
}

function errorCount(ctx: DefinitionContext): number {
  return Object.keys(ctx.errors).length;
}

/** `base.name`, or `base["odd name"]` when the name could not be read back from a dot path. */
export function childPath(base: string, name: string): string {
  return /^[a-zA-Z_$][\w$-]*$/.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], path: string, ctx: DefinitionContext) {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(ctx, childPath(path, key), `unknown property: allowed are ${allowed.join(', ')}`);
  }
}

function checkKind(kind: unknown, path: string, ctx: DefinitionContext, allowArray: boolean): kind is FieldKind {
  if (typeof kind === 'string' && (FIELD_KINDS as readonly string[]).includes(kind)) {
    if (kind === 'array' && !allowArray) {
      fail(ctx, path, 'arrays of arrays are not supported: make the items objects with an array field');
      return false;
    }
    return true;
  }
  fail(ctx, path, `must be one of ${FIELD_KINDS.join(', ')}`);
  return false;
}

/** Validates one check; `seen` maps check types met so far to their bound (min/max). */
function checkOneCheck(check: unknown, kind: FieldKind, at: string, seen: Map<string, number>, ctx: DefinitionContext) {
  if (!isPlainObject(check)) {
    fail(ctx, at, 'must be an object { type, value? }');
    return;
  }
  const { type } = check;
  if (typeof type !== 'string' || !(CHECK_TYPES as readonly string[]).includes(type)) {
    fail(ctx, `${at}.type`, `must be one of ${CHECK_TYPES.join(', ')}`);
    return;
  }
  const allowed = CHECKS_BY_KIND[kind];
  if (!allowed.includes(type as FieldCheckType)) {
    const hint = allowed.length > 0 ? `; ${kind} fields take ${allowed.join(', ')}` : '';
    fail(ctx, `${at}.type`, `${type} checks do not apply to ${kind} fields${hint}`);
    return;
  }
  if (type !== 'regex' && seen.has(type)) {
    fail(ctx, `${at}.type`, `duplicate ${type} check`);
    return;
  }
  const hasValue = type === 'min' || type === 'max' || type === 'regex';
  checkKeys(check, hasValue ? ['type', 'value'] : ['type'], at, ctx);
  seen.set(type, Number.NaN);
  if (type === 'regex') {
    checkPattern(check.value, `${at}.value`, ctx);
    return;
  }
  if (!hasValue) return;
  const { value } = check;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(ctx, `${at}.value`, 'must be a number');
  } else if (kind !== 'number' && (!Number.isInteger(value) || value < 0)) {
    const unit = kind === 'array' ? 'items' : 'characters';
    fail(ctx, `${at}.value`, `must be a whole number of at least 0 (it counts ${unit})`);
  } else {
    seen.set(type, value);
  }
}

function checkChecks(checks: unknown, kind: FieldKind, path: string, ctx: DefinitionContext): void {
  if (!Array.isArray(checks)) {
    fail(ctx, path, 'must be an array of checks (use [] for none)');
    return;
  }
  const seen = new Map<string, number>();
  for (const [index, check] of checks.entries()) checkOneCheck(check, kind, `${path}[${index}]`, seen, ctx);
  const [min, max] = [seen.get('min'), seen.get('max')];
  // NaN (a bound that failed its own check) compares false, so it never adds this error.
  if (min !== undefined && max !== undefined && min > max) fail(ctx, path, `min (${min}) is greater than max (${max})`);
}

function checkPattern(pattern: unknown, path: string, ctx: DefinitionContext): void {
  if (typeof pattern !== 'string') {
    fail(ctx, path, 'must be a regular expression pattern string');
    return;
  }
  if (pattern.length > MAX_REGEX_LENGTH) {
    fail(ctx, path, `must be at most ${MAX_REGEX_LENGTH} characters long`);
    return;
  }
  try {
    compilePattern(pattern);
  } catch (error: unknown) {
    const reason = error instanceof SyntaxError ? error.message : 'it does not compile';
    fail(ctx, path, `is not a valid regular expression (ECMAScript, u flag): ${reason}`);
  }
}

function checkReference(reference: unknown, kind: FieldKind, path: string, ctx: DefinitionContext): void {
  if (kind !== 'reference') {
    if (reference !== null && reference !== undefined) fail(ctx, path, `must be null for a ${kind} field`);
    return;
  }
  if (!isPlainObject(reference)) {
    fail(ctx, path, 'must be { targetType } naming the referenced type');
    return;
  }
  checkKeys(reference, ['targetType'], path, ctx);
  const { targetType } = reference;
  if (typeof targetType !== 'string' || !ctx.typeNames.has(targetType)) {
    const known = [...ctx.typeNames].slice(0, 20).join(', ');
    fail(ctx, `${path}.targetType`, `must name a type of this schema (${known || 'none defined'})`);
  }
}

function checkValues(values: unknown, path: string, ctx: DefinitionContext): void {
  if (!Array.isArray(values) || values.length === 0) {
    fail(ctx, path, 'must be a non-empty array of strings');
    return;
  }
  const seen = new Set<string>();
  values.forEach((value: unknown, index) => {
    if (typeof value !== 'string') {
      fail(ctx, `${path}[${index}]`, 'must be a string');
      return;
    }
    if (seen.has(value)) {
      fail(ctx, `${path}[${index}]`, `duplicate value ${JSON.stringify(value)}`);
      return;
    }
    seen.add(value);
  });
}

/** Checks what a kind brings besides `kind` and `checks`: `reference`, `items`, `fields`, `values`. */
function checkKindProperties(
  spec: Record<string, unknown>,
  kind: FieldKind,
  path: string,
  depth: number,
  ctx: DefinitionContext,
): void {
  checkChecks(spec.checks, kind, `${path}.checks`, ctx);
  checkReference(spec.reference, kind, `${path}.reference`, ctx);
  const only = (key: string, owner: FieldKind) => {
    if (kind !== owner && spec[key] !== undefined) fail(ctx, `${path}.${key}`, `only ${owner} fields have ${key}`);
  };
  only('items', 'array');
  only('fields', 'object');
  only('values', 'enum');
  if (kind === 'array') checkItems(spec.items, `${path}.items`, depth, ctx);
  if (kind === 'object') checkFieldMap(spec.fields, `${path}.fields`, depth + 1, ctx);
  if (kind === 'enum') checkValues(spec.values, `${path}.values`, ctx);
}

function checkItems(items: unknown, path: string, depth: number, ctx: DefinitionContext): void {
  if (!isPlainObject(items)) {
    fail(ctx, path, 'is required for array fields: { kind, checks }');
    return;
  }
  checkKeys(items, ITEMS_KEYS, path, ctx);
  if (checkKind(items.kind, `${path}.kind`, ctx, false)) checkKindProperties(items, items.kind, path, depth, ctx);
}

function checkField(field: unknown, path: string, depth: number, ctx: DefinitionContext): void {
  if (!isPlainObject(field)) {
    fail(ctx, path, 'must be field metadata { kind, required, nullable, ... }');
    return;
  }
  const before = errorCount(ctx);
  checkKeys(field, FIELD_KEYS, path, ctx);
  for (const key of ['required', 'nullable'] as const) {
    if (typeof field[key] !== 'boolean') fail(ctx, `${path}.${key}`, 'must be true or false');
  }
  if (!Object.hasOwn(field, 'default')) fail(ctx, `${path}.default`, 'is required: use null for no default');
  if (!Object.hasOwn(field, 'reference'))
    fail(ctx, `${path}.reference`, 'is required: use null unless kind is reference');
  if (!checkKind(field.kind, `${path}.kind`, ctx, true)) return;
  checkKindProperties(field, field.kind, path, depth, ctx);
  if (errorCount(ctx) === before) checkDefault(field as unknown as ValueSpec & { default: unknown }, path, ctx);
}

// A default must itself be a valid value, or every document omitting the field would be rejected.
function checkDefault(field: ValueSpec & { default: unknown }, path: string, ctx: DefinitionContext): void {
  if (field.default === null || field.default === undefined) return;
  const errors: FieldErrors = {};
  compileValue(field)(structuredClone(field.default), `${path}.default`, errors);
  const root = `${path}.default`;
  for (const [at, message] of Object.entries(errors)) fail(ctx, at, at === root ? `the default ${message}` : message);
}

/** Validates a field map at `depth` (top level is 1), recording errors in the context. */
export function checkFieldMap(fields: unknown, path: string, depth: number, ctx: DefinitionContext): void {
  if (!isPlainObject(fields)) {
    fail(ctx, path, 'must be an object mapping field names to field metadata');
    return;
  }
  if (depth > MAX_FIELD_DEPTH) {
    fail(ctx, path, `nests fields ${depth} levels deep; at most ${MAX_FIELD_DEPTH} are allowed`);
    return;
  }
  for (const [name, field] of Object.entries(fields)) {
    const at = childPath(path, name);
    ctx.fieldCount += 1;
    if (!FIELD_NAME_PATTERN.test(name)) {
      fail(ctx, at, 'is not a valid field name: start with a letter, then letters, digits, _ or -, 64 at most');
      continue;
    }
    checkField(field, at, depth, ctx);
  }
}
