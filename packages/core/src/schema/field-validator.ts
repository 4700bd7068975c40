/**
 * The closure compiler behind frontmatter validation: turns field metadata into a tree of small
 * functions once per schema, so validating a document only walks its values. Hand-written rather
 * than Ajv so each message is keyed by the document's own JSON path (`frontmatter.tags[2]`) and
 * says what to fix.
 */
import { codePointLength, compilePattern, isEmail, isIsoDateOrDateTime, isUrl, isUuid } from './field-formats.js';
import type { ArrayItems, FieldCheck, FieldMetadata } from './field-types.js';

/** Field errors keyed by JSON path; the first message for a path wins. */
export type FieldErrors = Record<string, string>;

/**
 * Validates a present, non-null value at `path`, records failures in `errors`, and returns the value
 * to keep: the same value, or a copy with nested defaults applied (objects) or ids lowercased
 * (references).
 */
export type ValueValidator = (value: unknown, path: string, errors: FieldErrors) => unknown;

/** Validates an object's own fields and returns a shallow copy with defaults applied. */
export type FieldMapValidator = (
  value: Record<string, unknown>,
  path: string,
  errors: FieldErrors,
) => Record<string, unknown>;

/** A field or an array's items: what `compileValue` needs. */
export type ValueSpec = Pick<FieldMetadata, 'kind' | 'checks' | 'fields' | 'values' | 'items'> & {
  reference?: FieldMetadata['reference'];
};

type CheckFn = (value: never) => string | null;

function addError(errors: FieldErrors, path: string, message: string): void {
  if (!Object.hasOwn(errors, path)) errors[path] = message;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** True for a JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Checks that do not apply to a kind are skipped here: schema sync rejects them, and a stored
// schema must stay readable even if these rules tighten later.
function compileCheck(kind: ValueSpec['kind'], check: FieldCheck): CheckFn | null {
  switch (check.type) {
    case 'min':
    case 'max': {
      const bound = check.value;
      const isMin = check.type === 'min';
      const word = isMin ? 'at least' : 'at most';
      const fails = (n: number) => (isMin ? n < bound : n > bound);
      if (kind === 'string') {
        return (v: string) => (fails(codePointLength(v)) ? `must be ${word} ${bound} characters long` : null);
      }
      if (kind === 'number') {
        const relation = isMin ? 'greater than or equal to' : 'less than or equal to';
        return (v: number) => (fails(v) ? `must be ${relation} ${bound}` : null);
      }
      if (kind === 'array') {
        return (v: unknown[]) => (fails(v.length) ? `must have ${word} ${bound} items` : null);
      }
      return null;
    }
    case 'regex': {
      if (kind !== 'string') return null;
      const pattern = compilePattern(check.value);
      return (v: string) => (pattern.test(v) ? null : `must match the pattern ${check.value}`);
    }
    case 'url':
      if (kind !== 'string') return null;
      return (v: string) => (isUrl(v) ? null : 'must be an absolute http(s), mailto or tel URL');
    case 'email':
      if (kind !== 'string') return null;
      return (v: string) => (isEmail(v) ? null : 'must be an e-mail address such as name@example.com');
    default:
      return null;
  }
}

function withChecks(spec: ValueSpec, kindCheck: ValueValidator): ValueValidator {
  const checks = spec.checks.map((check) => compileCheck(spec.kind, check)).filter((fn) => fn !== null);
  if (checks.length === 0) return kindCheck;
  return (value, path, errors) => {
    const kept = kindCheck(value, path, errors);
    // Constraints only make sense once the kind is right (nested errors sit under other paths).
    if (Object.hasOwn(errors, path)) return kept;
    for (const check of checks) {
      const message = check(kept as never);
      if (message !== null) {
        addError(errors, path, message);
        break;
      }
    }
    return kept;
  };
}

function compileKind(spec: ValueSpec): ValueValidator {
  switch (spec.kind) {
    case 'string':
      return (v, path, errors) => {
        if (typeof v !== 'string') addError(errors, path, `must be a string, got ${describeValue(v)}`);
        return v;
      };
    case 'number':
      return (v, path, errors) => {
        if (typeof v !== 'number' || !Number.isFinite(v))
          addError(errors, path, `must be a number, got ${describeValue(v)}`);
        return v;
      };
    case 'boolean':
      return (v, path, errors) => {
        if (typeof v !== 'boolean') addError(errors, path, `must be true or false, got ${describeValue(v)}`);
        return v;
      };
    case 'date':
      return (v, path, errors) => {
        if (typeof v !== 'string' || !isIsoDateOrDateTime(v)) {
          addError(errors, path, `must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got ${describeValue(v)}`);
        }
        return v;
      };
    case 'reference': {
      const target = spec.reference?.targetType ? `"${spec.reference.targetType}"` : "the target type's";
      // Ids are kept lowercase so the stored value matches ids as the service prints them.
      return (v, path, errors) => {
        if (typeof v === 'string' && isUuid(v)) return v.toLowerCase();
        addError(
          errors,
          path,
          `must be the id (UUID) of a ${target} document, such as 0b5b2c1e-8f0a-4c5e-9a57-6f1f0f5d3b2a; got ${describeValue(v)}`,
        );
        return v;
      };
    }
    case 'enum': {
      const allowed = new Set(spec.values ?? []);
      const list = (spec.values ?? []).map((value) => JSON.stringify(value)).join(', ');
      return (v, path, errors) => {
        if (typeof v !== 'string' || !allowed.has(v))
          addError(errors, path, `must be one of ${list}, got ${describeValue(v)}`);
        return v;
      };
    }
    case 'object': {
      const validateFields = compileFieldMap(spec.fields ?? {});
      return (v, path, errors) => {
        if (!isPlainObject(v)) {
          addError(errors, path, `must be an object, got ${describeValue(v)}`);
          return v;
        }
        return validateFields(v, path, errors);
      };
    }
    case 'array': {
      const validateItem = spec.items ? compileValue(spec.items) : null;
      return (v, path, errors) => {
        if (!Array.isArray(v)) {
          addError(errors, path, `must be an array, got ${describeValue(v)}`);
          return v;
        }
        if (!validateItem) return v;
        return v.map((item, index) => {
          const itemPath = `${path}[${index}]`;
          if (item === null || item === undefined) {
            addError(errors, itemPath, 'must not be null: remove the item instead');
            return item;
          }
          return validateItem(item, itemPath, errors);
        });
      };
    }
    default:
      return (v, path, errors) => {
        addError(errors, path, `has an unknown kind ${JSON.stringify(spec.kind)}: run \`cms schema sync\``);
        return v;
      };
  }
}

/** Compiles one field (or an array's items) into a validator of present, non-null values. */
export function compileValue(spec: ValueSpec | ArrayItems): ValueValidator {
  return withChecks(spec, compileKind(spec));
}

interface CompiledField {
  name: string;
  required: boolean;
  nullable: boolean;
  defaultValue: unknown;
  validate: ValueValidator;
}

/**
 * Compiles a field map. Properties the map does not name are kept as they are: schema sync is
 * non-destructive, so a removed field just stops being validated (spec "Schema endpoints").
 */
export function compileFieldMap(fields: Record<string, FieldMetadata>): FieldMapValidator {
  const compiled: CompiledField[] = Object.entries(fields).map(([name, meta]) => ({
    name,
    required: meta.required,
    nullable: meta.nullable,
    defaultValue: meta.default,
    validate: compileValue(meta),
  }));
  return (value, path, errors) => {
    const out: Record<string, unknown> = { ...value };
    for (const field of compiled) {
      const fieldPath = `${path}.${field.name}`;
      const current = Object.hasOwn(value, field.name) ? value[field.name] : undefined;
      if (current === undefined) {
        // A default counts as present, so a required field with a default may be omitted.
        if (field.defaultValue !== null && field.defaultValue !== undefined) {
          out[field.name] = field.validate(structuredClone(field.defaultValue), fieldPath, errors);
        } else if (field.required) {
          addError(errors, fieldPath, 'is required');
        }
        continue;
      }
      if (current === null) {
        if (!field.nullable) addError(errors, fieldPath, 'must not be null: give a value or omit the field');
        continue;
      }
      out[field.name] = field.validate(current, fieldPath, errors);
    }
    return out;
  };
}
