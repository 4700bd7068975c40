/**
 * Schema validation issues in the user's words: each says which field, what was wrong and what is
 * allowed (`sort must be one of "createdAt", "updatedAt", "path"; got "size"`), never the validator's
 * own text. Reads the failing schema from the issue (Ajv runs with `verbose`).
 */

/** One Ajv issue, as Fastify hands it over (`verbose` adds `parentSchema` and `data`). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
  data?: unknown;
  /** The key a `propertyNames` issue is about (Ajv sets it on the key schema's own issues). */
  propertyName?: string;
}

/** The key an issue refuses, when it is about a key rather than a value (`propertyNames`). */
function refusedKey(issue: ValidationIssue): string | undefined {
  if (typeof issue.propertyName === 'string') return issue.propertyName;
  const name = issue.keyword === 'propertyNames' ? issue.params.propertyName : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** Where the issue is: `body.frontmatter.title`, `limit` (query), `params.version`, `headers.x-cms-locale`. */
export function issuePath(context: string, issue: ValidationIssue): string {
  const prefix = context === 'querystring' ? '' : context;
  const segments = issue.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing = issue.keyword === 'required' ? issue.params.missingProperty : undefined;
  const extra = issue.keyword === 'additionalProperties' ? issue.params.additionalProperty : undefined;
  if (typeof missing === 'string') segments.push(missing);
  if (typeof extra === 'string') segments.push(extra);
  const key = refusedKey(issue);
  if (key !== undefined) segments.push(key);
  return [prefix, ...segments].filter(Boolean).join('.') || context;
}

/** What the value at the issue's path must be or do, with what was received. */
export function issueMessage(context: string, issue: ValidationIssue): string {
  const schema = issue.parentSchema ?? {};
  if (refusedKey(issue) !== undefined) {
    // The key's own issue carries the key schema; the `propertyNames` summary, the map's.
    const keys = (issue.keyword === 'propertyNames' ? schema.propertyNames : schema) as Record<string, unknown>;
    const what = typeof keys?.description === 'string' ? `${keys.description}, ` : '';
    return `is not an allowed key: use ${what}${describeSchema(keys ?? {})}`;
  }
  switch (issue.keyword) {
    case 'required': {
      const name = String(issue.params.missingProperty);
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const expected = properties[name] ? describeSchema(properties[name]) : null;
      return `is required${expected ? `: send ${expected}` : ''}`;
    }
    case 'additionalProperties': {
      const allowed = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
      const what = context === 'querystring' ? 'query parameter' : 'property';
      if (allowed.length === 0) {
        return context === 'querystring'
          ? 'is not a query parameter of this route: it takes none'
          : `is not an allowed ${what}: this object takes no properties`;
      }
      return `is not an allowed ${what}: use ${listOf(allowed)}`;
    }
    case 'type':
      if (issue.instancePath === '' && context === 'body' && (issue.data === undefined || issue.data === null)) {
        return `is required: send ${describeSchema(schema)} with Content-Type: application/json`;
      }
      return `must be ${describeSchema(schema)}${got(issue.data)}`;
    default:
      return `must be ${describeSchema(schema)}${got(issue.data)}`;
  }
}

/** `a string of 1 to 200 characters`, `an integer from 1 to 100`, `one of "asc", "desc"`. */
export function describeSchema(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return `one of ${listOf(schema.enum)}`;
  if ('const' in schema) return `exactly ${JSON.stringify(schema.const)}`;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.map(describeSchema).join(', or ');
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(Boolean) as string[];
  if (types.length === 0) return 'a valid value';
  return types.map((type) => describeType(type, schema)).join(', or ');
}

function describeType(type: string, schema: Record<string, unknown>): string {
  switch (type) {
    case 'string':
      return describeString(schema);
    case 'integer':
      return `an integer${range(schema)}`;
    case 'number':
      return `a number${range(schema)}`;
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array': {
      const items = schema.items as Record<string, unknown> | undefined;
      const count = bounds(schema.minItems, schema.maxItems, 'item');
      return `an array${count ? ` of ${count}` : ''}${items && !Array.isArray(items) ? ` whose items are ${describeSchema(items)}` : ''}`;
    }
    case 'object': {
      const required = (schema.required ?? []) as string[];
      return required.length > 0 ? `an object with ${listOf(required, false, 'and')}` : 'an object';
    }
    default:
      return `a ${type}`;
  }
}

const FORMATS: Record<string, string> = {
  uuid: 'a UUID (such as 0b5b2c1e-8f0a-4c5e-9a57-6f1f0f5d3b2a)',
  'date-time': 'an RFC 3339 date and time (such as 2026-01-31T12:00:00Z)',
  date: 'a date (YYYY-MM-DD)',
  email: 'an email address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
};

function describeString(schema: Record<string, unknown>): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const length = bounds(schema.minLength, schema.maxLength, 'character');
  const base = format ?? `a string${length ? ` of ${length}` : ''}`;
  return typeof schema.pattern === 'string' ? `${base} matching ${schema.pattern}` : base;
}

/** ` from 1 to 100`, ` of at least 0`, ` of at most 10`, or nothing. */
function range(schema: Record<string, unknown>): string {
  const min = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
  const max = (schema.maximum ?? schema.exclusiveMaximum) as number | undefined;
  const low = schema.exclusiveMinimum !== undefined ? `greater than ${min}` : `${min}`;
  const high = schema.exclusiveMaximum !== undefined ? `less than ${max}` : `${max}`;
  if (min !== undefined && max !== undefined) return ` from ${low} to ${high}`;
  if (min !== undefined) return ` of at least ${low}`;
  if (max !== undefined) return ` of at most ${high}`;
  return '';
}

function bounds(min: unknown, max: unknown, unit: string): string {
  const plural = (n: unknown) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (typeof min === 'number' && typeof max === 'number') return min === max ? plural(min) : `${min} to ${plural(max)}`;
  if (typeof min === 'number' && min > 0) return `at least ${plural(min)}`;
  if (typeof max === 'number') return `at most ${plural(max)}`;
  return '';
}

function listOf(values: readonly unknown[], quote = true, conjunction: 'or' | 'and' = 'or'): string {
  const shown = values.map((value) => (quote ? JSON.stringify(value) : String(value)));
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} ${conjunction} ${shown.at(-1)}`;
}

/** `; got "size"`, `; got 2147483648`, `; got an object`. */
function got(data: unknown): string {
  if (data === undefined) return '';
  if (data === null) return '; got null';
  if (typeof data === 'string') return `; got ${JSON.stringify(data.length > 60 ? `${data.slice(0, 57)}...` : data)}`;
  if (typeof data === 'number' || typeof data === 'boolean') return `; got ${data}`;
  return Array.isArray(data) ? '; got an array' : '; got an object';
}
