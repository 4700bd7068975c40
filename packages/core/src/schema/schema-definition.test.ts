import { describe, expect, it } from 'vitest';
import { MAX_FIELD_DEPTH, MAX_REGEX_LENGTH } from './field-definition.js';
import type { FieldKind, FieldMetadata } from './field-types.js';
import { MAX_FIELDS_PER_TYPE, MAX_SCHEMA_TYPES, validateResolvedSchema } from './schema-definition.js';
import { computeSchemaHash } from './schema-hash.js';

function field(kind: FieldKind, overrides: Record<string, unknown> = {}): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [], ...overrides };
}

function schemaWith(fields: Record<string, unknown>, extraTypes: unknown[] = []) {
  return {
    types: [{ name: 'post', directory: 'posts', localized: true, fields }, ...extraTypes],
  };
}

function errorsOf(input: unknown): Record<string, string> {
  const result = validateResolvedSchema(input);
  if (result.ok) throw new Error('expected the schema to be rejected');
  return result.fields;
}

const author = { name: 'author', directory: 'authors', localized: false, fields: {} };

describe('validateResolvedSchema: accepted schemas', () => {
  it('accepts every kind and returns the input itself, so its hash is unchanged', () => {
    const input = schemaWith(
      {
        title: field('string', {
          required: true,
          checks: [
            { type: 'min', value: 1 },
            { type: 'max', value: 120 },
          ],
        }),
        slug: field('string', { checks: [{ type: 'regex', value: '^[a-z0-9-]+$' }] }),
        website: field('string', { nullable: true, checks: [{ type: 'url' }] }),
        contact: field('string', { checks: [{ type: 'email' }] }),
        rating: field('number', { default: 3, checks: [{ type: 'min', value: -1.5 }] }),
        draft: field('boolean', { default: false }),
        date: field('date'),
        author: field('reference', { reference: { targetType: 'author' } }),
        status: field('enum', { values: ['draft', 'live'], default: 'draft' }),
        seo: field('object', { fields: { description: field('string') } }),
        tags: field('array', { items: { kind: 'string', checks: [{ type: 'max', value: 20 }] }, default: ['a'] }),
        related: field('array', { items: { kind: 'reference', checks: [], reference: { targetType: 'post' } } }),
        blocks: field('array', { items: { kind: 'object', checks: [], fields: { heading: field('string') } } }),
        moods: field('array', { items: { kind: 'enum', checks: [], values: ['happy'] } }),
      },
      [author],
    );
    const hash = computeSchemaHash(input);
    const result = validateResolvedSchema(input);
    expect(result).toEqual({ ok: true, schema: input });
    expect(result.ok && result.schema).toBe(input);
    expect(computeSchemaHash(input)).toBe(hash);
  });

  it('accepts an empty schema', () => {
    expect(validateResolvedSchema({ types: [] }).ok).toBe(true);
  });
});

describe('validateResolvedSchema: the schema and its types', () => {
  it.each([[null], [[]], ['x']])('rejects %j as the schema', (input) => {
    expect(errorsOf(input)).toEqual({ resolvedSchema: 'must be an object { types: [schema type] }' });
  });

  it('rejects missing types and unknown top-level properties', () => {
    expect(errorsOf({ typez: [] })).toEqual({
      'resolvedSchema.typez': 'unknown property: allowed are types',
      'resolvedSchema.types': 'must be an array of schema types',
    });
  });

  it(`rejects more than ${MAX_SCHEMA_TYPES} types`, () => {
    const types = Array.from({ length: MAX_SCHEMA_TYPES + 1 }, (_, i) => ({ ...author, name: `t${i}` }));
    expect(errorsOf({ types })).toEqual({ 'resolvedSchema.types': 'has 201 types; at most 200 are allowed' });
    expect(validateResolvedSchema({ types: types.slice(1) }).ok).toBe(true);
  });

  it('rejects bad and duplicate type names', () => {
    expect(
      errorsOf({ types: [author, { ...author, name: '1st' }, author, { ...author, name: 'a'.repeat(65) }] }),
    ).toEqual({
      'resolvedSchema.types[1].name':
        'must be a type name: a letter, then letters, digits, _ or -, 64 characters at most',
      'resolvedSchema.types[2].name': 'duplicate type name "author" (also at types[0])',
      'resolvedSchema.types[3].name':
        'must be a type name: a letter, then letters, digits, _ or -, 64 characters at most',
    });
  });

  it('checks directory, localized, fields and unknown type properties', () => {
    expect(errorsOf({ types: [{ name: 'post', directory: 3, localized: 'yes', fields: [], label: 'Post' }] })).toEqual({
      'resolvedSchema.types[0].label': 'unknown property: allowed are name, directory, localized, fields',
      'resolvedSchema.types[0].directory': 'must be a string: the content directory of the type',
      'resolvedSchema.types[0].localized': 'must be true or false',
      'resolvedSchema.types[0].fields': 'must be an object mapping field names to field metadata',
    });
    expect(errorsOf({ types: ['post'] })).toHaveProperty(['resolvedSchema.types[0]']);
  });

  it(`counts nested fields towards the limit of ${MAX_FIELDS_PER_TYPE}`, () => {
    const inner = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, field('string')]));
    const outer = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`g${i}`, field('string')]));
    expect(validateResolvedSchema(schemaWith({ ...outer, nested: field('object', { fields: inner }) })).ok).toBe(false);
    expect(validateResolvedSchema(schemaWith({ ...outer, ...inner })).ok).toBe(true);
    expect(errorsOf(schemaWith({ ...outer, ...inner, extra: field('string') }))).toEqual({
      'resolvedSchema.types[0].fields': 'defines 201 fields counting nested ones; at most 200 are allowed',
    });
  });
});

describe('validateResolvedSchema: fields', () => {
  const at = (rest: string) => `resolvedSchema.types[0].fields.${rest}`;

  it('rejects invalid field names with a readable path', () => {
    expect(errorsOf(schemaWith({ 'a.b': field('string'), _x: field('string'), ok: field('string') }))).toEqual({
      'resolvedSchema.types[0].fields["a.b"]':
        'is not a valid field name: start with a letter, then letters, digits, _ or -, 64 at most',
      'resolvedSchema.types[0].fields._x':
        'is not a valid field name: start with a letter, then letters, digits, _ or -, 64 at most',
    });
  });

  it('requires every metadata property and rejects unknown ones', () => {
    expect(errorsOf(schemaWith({ title: { kind: 'string', checks: [], label: 'Title' } }))).toEqual({
      [at('title.label')]:
        'unknown property: allowed are kind, required, nullable, default, reference, checks, items, fields, values',
      [at('title.required')]: 'must be true or false',
      [at('title.nullable')]: 'must be true or false',
      [at('title.default')]: 'is required: use null for no default',
      [at('title.reference')]: 'is required: use null unless kind is reference',
    });
  });

  it('rejects unknown kinds', () => {
    expect(errorsOf(schemaWith({ title: field('text' as FieldKind) }))).toEqual({
      [at('title.kind')]: 'must be one of string, number, boolean, date, array, object, reference, enum',
    });
  });

  it('requires items for arrays, fields for objects, values for enums', () => {
    expect(
      errorsOf(
        schemaWith({
          list: field('array'),
          obj: field('object'),
          choice: field('enum', { values: [] }),
          dupes: field('enum', { values: ['a', 'a', 1] }),
        }),
      ),
    ).toEqual({
      [at('list.items')]: 'is required for array fields: { kind, checks }',
      [at('obj.fields')]: 'must be an object mapping field names to field metadata',
      [at('choice.values')]: 'must be a non-empty array of strings',
      [at('dupes.values[1]')]: 'duplicate value "a"',
      [at('dupes.values[2]')]: 'must be a string',
    });
  });

  it('rejects kind properties on the wrong kind, and arrays of arrays', () => {
    expect(
      errorsOf(
        schemaWith({
          title: field('string', { items: { kind: 'string', checks: [] }, fields: {}, values: ['a'] }),
          grid: field('array', { items: { kind: 'array', checks: [] } }),
        }),
      ),
    ).toEqual({
      [at('title.items')]: 'only array fields have items',
      [at('title.fields')]: 'only object fields have fields',
      [at('title.values')]: 'only enum fields have values',
      [at('grid.items.kind')]: 'arrays of arrays are not supported: make the items objects with an array field',
    });
  });

  it('requires a reference target that names a type of the schema', () => {
    expect(
      errorsOf(
        schemaWith(
          {
            a: field('reference'),
            b: field('reference', { reference: { targetType: 'nobody' } }),
            c: field('string', { reference: { targetType: 'author' } }),
            d: field('array', { items: { kind: 'reference', checks: [] } }),
          },
          [author],
        ),
      ),
    ).toEqual({
      [at('a.reference')]: 'must be { targetType } naming the referenced type',
      [at('b.reference.targetType')]: 'must name a type of this schema (post, author)',
      [at('c.reference')]: 'must be null for a string field',
      [at('d.items.reference')]: 'must be { targetType } naming the referenced type',
    });
  });

  it(`limits nesting to ${MAX_FIELD_DEPTH} levels`, () => {
    let fields: Record<string, FieldMetadata> = { leaf: field('string') };
    for (let level = 1; level < MAX_FIELD_DEPTH; level += 1) fields = { n: field('object', { fields }) };
    expect(validateResolvedSchema(schemaWith(fields)).ok).toBe(true);
    expect(errorsOf(schemaWith({ n: field('object', { fields }) }))).toEqual({
      [at('n.fields.n.fields.n.fields.n.fields.n.fields')]: 'nests fields 6 levels deep; at most 5 are allowed',
    });
  });

  it('counts array items of objects as a nesting level', () => {
    let fields: Record<string, FieldMetadata> = { leaf: field('string') };
    for (let level = 1; level < MAX_FIELD_DEPTH; level += 1) {
      fields = { n: field('array', { items: { kind: 'object', checks: [], fields } }) };
    }
    expect(validateResolvedSchema(schemaWith(fields)).ok).toBe(true);
    expect(validateResolvedSchema(schemaWith({ n: field('object', { fields }) })).ok).toBe(false);
  });
});

describe('validateResolvedSchema: checks', () => {
  const at = (rest: string) => `resolvedSchema.types[0].fields.${rest}`;

  it('rejects checks that do not apply to the kind', () => {
    expect(
      errorsOf(
        schemaWith({
          n: field('number', { checks: [{ type: 'regex', value: 'x' }] }),
          d: field('date', { checks: [{ type: 'min', value: 0 }] }),
          b: field('boolean', { checks: [{ type: 'email' }] }),
          s: field('string', { checks: [{ type: 'uuid' }] }),
          list: field('array', { items: { kind: 'number', checks: [{ type: 'url' }] }, checks: 'none' }),
        }),
      ),
    ).toEqual({
      [at('n.checks[0].type')]: 'regex checks do not apply to number fields; number fields take min, max',
      [at('d.checks[0].type')]: 'min checks do not apply to date fields',
      [at('b.checks[0].type')]: 'email checks do not apply to boolean fields',
      [at('s.checks[0].type')]: 'must be one of min, max, regex, url, email',
      [at('list.checks')]: 'must be an array of checks (use [] for none)',
      [at('list.items.checks[0].type')]: 'url checks do not apply to number fields; number fields take min, max',
    });
  });

  it('checks bounds', () => {
    expect(
      errorsOf(
        schemaWith({
          a: field('string', { checks: [{ type: 'min', value: 1.5 }] }),
          b: field('array', { items: { kind: 'string', checks: [] }, checks: [{ type: 'max', value: -1 }] }),
          c: field('number', { checks: [{ type: 'min', value: '1' }] }),
          d: field('number', {
            checks: [
              { type: 'min', value: 5 },
              { type: 'max', value: 1 },
            ],
          }),
          e: field('string', {
            checks: [
              { type: 'min', value: 1 },
              { type: 'min', value: 2 },
            ],
          }),
          f: field('string', { checks: [{ type: 'email', value: true }] }),
        }),
      ),
    ).toEqual({
      [at('a.checks[0].value')]: 'must be a whole number of at least 0 (it counts characters)',
      [at('b.checks[0].value')]: 'must be a whole number of at least 0 (it counts items)',
      [at('c.checks[0].value')]: 'must be a number',
      [at('d.checks')]: 'min (5) is greater than max (1)',
      [at('e.checks[1].type')]: 'duplicate min check',
      [at('f.checks[0].value')]: 'unknown property: allowed are type',
    });
  });

  it('rejects a regex that does not compile, at sync time', () => {
    const errors = errorsOf(
      schemaWith({
        title: field('string', {
          checks: [
            { type: 'min', value: 1 },
            { type: 'regex', value: '([a-z' },
          ],
        }),
        long: field('string', { checks: [{ type: 'regex', value: 'a'.repeat(MAX_REGEX_LENGTH + 1) }] }),
      }),
    );
    expect(errors[at('title.checks[1].value')]).toMatch(/^is not a valid regular expression \(ECMAScript, u flag\): /);
    expect(errors[at('long.checks[0].value')]).toBe('must be at most 1024 characters long');
  });
});

describe('validateResolvedSchema: defaults', () => {
  const at = (rest: string) => `resolvedSchema.types[0].fields.${rest}`;

  it('requires a default to satisfy its own field', () => {
    expect(
      errorsOf(
        schemaWith({
          title: field('string', { default: 'ab', checks: [{ type: 'min', value: 3 }] }),
          count: field('number', { default: 'zero' }),
          status: field('enum', { values: ['draft'], default: 'live' }),
          seo: field('object', { fields: { title: field('string', { required: true }) }, default: {} }),
        }),
      ),
    ).toEqual({
      [at('title.default')]: 'the default must be at least 3 characters long',
      [at('count.default')]: 'the default must be a number, got the string "zero"',
      [at('status.default')]: 'the default must be one of "draft", got the string "live"',
      [at('seo.default.title')]: 'is required',
    });
  });
});
