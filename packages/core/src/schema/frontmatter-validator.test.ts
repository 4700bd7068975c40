import { describe, expect, it } from 'vitest';
import type { FieldKind, FieldMetadata, SchemaType } from './field-types.js';
import { compileFrontmatterValidator } from './frontmatter-validator.js';

const ID = '0b5b6f2e-8f0a-4c36-9d55-0c1b9f2b7a11';

function field(kind: FieldKind, overrides: Partial<FieldMetadata> = {}): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [], ...overrides };
}

function typeWith(fields: Record<string, FieldMetadata>): SchemaType {
  return { name: 'post', directory: 'posts', localized: false, fields };
}

function validate(fields: Record<string, FieldMetadata>, frontmatter: unknown) {
  return compileFrontmatterValidator(typeWith(fields))(frontmatter);
}

function errorsOf(fields: Record<string, FieldMetadata>, frontmatter: unknown): Record<string, string> {
  const result = validate(fields, frontmatter);
  if (result.ok) throw new Error('expected the frontmatter to be rejected');
  return result.fields;
}

describe('frontmatter shape', () => {
  it.each([[null], [[]], ['text'], [3]])('rejects %j as frontmatter', (frontmatter) => {
    expect(errorsOf({}, frontmatter)).toEqual({ frontmatter: 'must be an object of field values' });
  });

  it('keeps properties the schema does not name (sync is non-destructive)', () => {
    expect(validate({ title: field('string') }, { title: 'a', removed: { any: 1 } })).toEqual({
      ok: true,
      value: { title: 'a', removed: { any: 1 } },
    });
  });

  it('never mutates its input', () => {
    const input = { seo: {} };
    const fields = { seo: field('object', { fields: { title: field('string', { default: 'x' }) } }) };
    expect(validate(fields, input)).toEqual({ ok: true, value: { seo: { title: 'x' } } });
    expect(input).toEqual({ seo: {} });
  });
});

describe('kinds', () => {
  const cases: [FieldKind, Partial<FieldMetadata>, unknown, unknown, string][] = [
    ['string', {}, 'hello', 3, 'must be a string, got number 3'],
    ['number', {}, 1.5, '1.5', 'must be a number, got the string "1.5"'],
    ['boolean', {}, false, 'false', 'must be true or false, got the string "false"'],
    [
      'date',
      {},
      '2024-05-01',
      '2024-02-30',
      'must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got the string "2024-02-30"',
    ],
    [
      'date',
      {},
      '2024-05-01T10:00:00Z',
      1714557600000,
      'must be a date (YYYY-MM-DD) or an ISO 8601 date-time, got number 1714557600000',
    ],
    [
      'reference',
      { reference: { targetType: 'author' } },
      ID,
      'jane',
      'must be the id (UUID) of a "author" document, such as 0b5b2c1e-8f0a-4c5e-9a57-6f1f0f5d3b2a; got the string "jane"',
    ],
    ['enum', { values: ['draft', 'live'] }, 'live', 'gone', 'must be one of "draft", "live", got the string "gone"'],
    ['object', { fields: {} }, { a: 1 }, [1], 'must be an object, got an array'],
    ['array', { items: { kind: 'string', checks: [] } }, ['a'], { 0: 'a' }, 'must be an array, got an object'],
  ];

  it.each(cases)('%s accepts a valid value and rejects a wrong one', (kind, extra, good, bad, message) => {
    const fields = { value: field(kind, extra) };
    expect(validate(fields, { value: good })).toEqual({ ok: true, value: { value: good } });
    expect(errorsOf(fields, { value: bad })).toEqual({ 'frontmatter.value': message });
  });

  it('stores reference ids lowercase', () => {
    const fields = { author: field('reference', { reference: { targetType: 'author' } }) };
    expect(validate(fields, { author: ID.toUpperCase() })).toEqual({ ok: true, value: { author: ID } });
  });

  it('refuses non-finite numbers', () => {
    expect(errorsOf({ n: field('number') }, { n: Number.NaN })).toHaveProperty(['frontmatter.n']);
  });
});

describe('checks', () => {
  const cases: [string, FieldMetadata, unknown, unknown, string][] = [
    [
      'string min',
      field('string', { checks: [{ type: 'min', value: 3 }] }),
      'abc',
      'ab',
      'must be at least 3 characters long',
    ],
    [
      'string max',
      field('string', { checks: [{ type: 'max', value: 3 }] }),
      'a😀c',
      'abcd',
      'must be at most 3 characters long',
    ],
    [
      'number min',
      field('number', { checks: [{ type: 'min', value: 0 }] }),
      0,
      -0.5,
      'must be greater than or equal to 0',
    ],
    [
      'number max',
      field('number', { checks: [{ type: 'max', value: 10 }] }),
      10,
      11,
      'must be less than or equal to 10',
    ],
    [
      'array min',
      field('array', { items: { kind: 'string', checks: [] }, checks: [{ type: 'min', value: 1 }] }),
      ['a'],
      [],
      'must have at least 1 items',
    ],
    [
      'array max',
      field('array', { items: { kind: 'string', checks: [] }, checks: [{ type: 'max', value: 1 }] }),
      ['a'],
      ['a', 'b'],
      'must have at most 1 items',
    ],
    [
      'regex',
      field('string', { checks: [{ type: 'regex', value: '^[a-z-]+$' }] }),
      'a-b',
      'A B',
      'must match the pattern ^[a-z-]+$',
    ],
    [
      'url',
      field('string', { checks: [{ type: 'url' }] }),
      'https://example.com/x',
      'example.com',
      'must be an absolute http(s), mailto or tel URL',
    ],
    [
      'email',
      field('string', { checks: [{ type: 'email' }] }),
      'a@example.com',
      'a@',
      'must be an e-mail address such as name@example.com',
    ],
  ];

  it.each(cases)('%s', (_name, meta, good, bad, message) => {
    expect(validate({ value: meta }, { value: good }).ok).toBe(true);
    expect(errorsOf({ value: meta }, { value: bad })).toEqual({ 'frontmatter.value': message });
  });

  it('reports the kind, not a check, when the kind is wrong', () => {
    const meta = field('string', { checks: [{ type: 'min', value: 3 }] });
    expect(errorsOf({ value: meta }, { value: 12345 })).toEqual({
      'frontmatter.value': 'must be a string, got number 12345',
    });
  });

  it('applies every regex check and reports the first that fails', () => {
    const meta = field('string', {
      checks: [
        { type: 'regex', value: '^a' },
        { type: 'regex', value: 'z$' },
      ],
    });
    expect(validate({ value: meta }, { value: 'abz' }).ok).toBe(true);
    expect(errorsOf({ value: meta }, { value: 'abc' })).toEqual({ 'frontmatter.value': 'must match the pattern z$' });
  });

  it('keeps array count checks apart from item errors', () => {
    const meta = field('array', { items: { kind: 'number', checks: [] }, checks: [{ type: 'max', value: 1 }] });
    expect(errorsOf({ value: meta }, { value: [1, 'x'] })).toEqual({
      'frontmatter.value': 'must have at most 1 items',
      'frontmatter.value[1]': 'must be a number, got the string "x"',
    });
  });
});

describe('required, nullable and default', () => {
  it('requires a required field', () => {
    expect(errorsOf({ title: field('string', { required: true }) }, {})).toEqual({
      'frontmatter.title': 'is required',
    });
  });

  it('treats an undefined value as omitted', () => {
    expect(errorsOf({ title: field('string', { required: true }) }, { title: undefined })).toEqual({
      'frontmatter.title': 'is required',
    });
  });

  it('lets an optional field be omitted', () => {
    expect(validate({ title: field('string') }, {})).toEqual({ ok: true, value: {} });
  });

  it('accepts null only when nullable', () => {
    expect(validate({ title: field('string', { nullable: true, required: true }) }, { title: null })).toEqual({
      ok: true,
      value: { title: null },
    });
    expect(errorsOf({ title: field('string') }, { title: null })).toEqual({
      'frontmatter.title': 'must not be null: give a value or omit the field',
    });
  });

  it('applies a default when omitted, and lets it satisfy required', () => {
    const fields = {
      status: field('enum', { values: ['draft', 'live'], default: 'draft', required: true }),
      tags: field('array', { items: { kind: 'string', checks: [] }, default: ['news'] }),
      count: field('number', { default: 0 }),
      featured: field('boolean', { default: false }),
    };
    expect(validate(fields, {})).toEqual({
      ok: true,
      value: { status: 'draft', tags: ['news'], count: 0, featured: false },
    });
  });

  it('does not apply a default over an explicit null', () => {
    expect(validate({ s: field('string', { default: 'x', nullable: true }) }, { s: null })).toEqual({
      ok: true,
      value: { s: null },
    });
  });

  it('gives each document its own copy of a default', () => {
    const validateFm = compileFrontmatterValidator(
      typeWith({ tags: field('array', { items: { kind: 'string', checks: [] }, default: ['a'] }) }),
    );
    const first = validateFm({});
    if (!first.ok) throw new Error('expected ok');
    (first.value.tags as string[]).push('mutated');
    expect(validateFm({})).toEqual({ ok: true, value: { tags: ['a'] } });
  });
});

describe('nested objects and arrays', () => {
  const fields = {
    seo: field('object', {
      required: true,
      fields: {
        description: field('string', { required: true, checks: [{ type: 'max', value: 5 }] }),
        image: field('object', { fields: { alt: field('string', { required: true }) } }),
        robots: field('string', { default: 'index' }),
      },
    }),
    tags: field('array', { items: { kind: 'string', checks: [{ type: 'min', value: 2 }] } }),
    blocks: field('array', {
      items: { kind: 'object', checks: [], fields: { heading: field('string', { required: true }) } },
    }),
    related: field('array', { items: { kind: 'reference', checks: [], reference: { targetType: 'post' } } }),
    moods: field('array', { items: { kind: 'enum', checks: [], values: ['happy', 'sad'] } }),
  };

  it('validates recursively and applies nested defaults', () => {
    const result = validate(fields, {
      seo: { description: 'short', image: { alt: 'x', extra: true } },
      tags: ['ab', 'cd'],
      blocks: [{ heading: 'h', extra: 1 }],
      related: [ID.toUpperCase()],
      moods: ['sad'],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        seo: { description: 'short', image: { alt: 'x', extra: true }, robots: 'index' },
        tags: ['ab', 'cd'],
        blocks: [{ heading: 'h', extra: 1 }],
        related: [ID],
        moods: ['sad'],
      },
    });
  });

  it('keys every error by its JSON path in the document', () => {
    expect(
      errorsOf(fields, {
        seo: { description: 'too long', image: {} },
        tags: ['ok', 'x', 3],
        blocks: [{ heading: 'h' }, {}, 'text'],
        related: [ID, 'nope', null],
        moods: ['angry'],
      }),
    ).toEqual({
      'frontmatter.seo.description': 'must be at most 5 characters long',
      'frontmatter.seo.image.alt': 'is required',
      'frontmatter.tags[1]': 'must be at least 2 characters long',
      'frontmatter.tags[2]': 'must be a string, got number 3',
      'frontmatter.blocks[1].heading': 'is required',
      'frontmatter.blocks[2]': 'must be an object, got the string "text"',
      'frontmatter.related[1]':
        'must be the id (UUID) of a "post" document, such as 0b5b2c1e-8f0a-4c5e-9a57-6f1f0f5d3b2a; got the string "nope"',
      'frontmatter.related[2]': 'must not be null: remove the item instead',
      'frontmatter.moods[0]': 'must be one of "happy", "sad", got the string "angry"',
    });
  });

  it('reports a missing required object', () => {
    expect(errorsOf(fields, {})).toEqual({ 'frontmatter.seo': 'is required' });
  });
});
