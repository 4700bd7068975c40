import { describe, expect, it } from 'vitest';
import type { FieldMetadata, SchemaType } from './field-types.js';
import { generateTypes } from './type-generator.js';

const field = (kind: FieldMetadata['kind'], extra: Partial<FieldMetadata> = {}): FieldMetadata => ({
  kind,
  required: false,
  nullable: false,
  default: null,
  reference: null,
  checks: [],
  ...extra,
});

const type = (name: string, fields: Record<string, FieldMetadata> = {}, localized = false): SchemaType => ({
  name,
  directory: name,
  localized,
  fields,
});

describe('generateTypes', () => {
  it('names interfaces in PascalCase, unique, never a name the file declares itself', () => {
    const text = generateTypes({
      schemaHash: 'h',
      types: [type('blog-post'), type('blog_post'), type('locale'), type('cms-types'), type('9lives')],
    });
    expect(text).toContain('export type BlogPost = Record<string, never>;');
    expect(text).toContain('export type BlogPost2 = Record<string, never>;');
    expect(text).toContain('export type Locale2 = Record<string, never>;');
    expect(text).toContain('export type CmsTypes2 = Record<string, never>;');
    expect(text).toContain('export type T9lives = Record<string, never>;');
    expect(text).toContain('"blog-post": {');
  });

  it('is the same text whatever order the types come in, and says the hash', () => {
    const a = type('a', { x: field('string', { required: true }) });
    const b = type('b', { y: field('enum', { values: ['one', "it's"] }) });
    const first = generateTypes({ schemaHash: 'abc', types: [a, b] });
    expect(generateTypes({ schemaHash: 'abc', types: [b, a] })).toBe(first);
    expect(first).toContain('export const CMS_SCHEMA_HASH = "abc";');
    expect(first).toContain('y?: "one" | "it\'s";');
    expect(first).toContain('export type Locale = string;');
  });

  it('types arrays of enums and nullable objects, and keeps a */ in a pattern out of the comment end', () => {
    const text = generateTypes({
      schemaHash: 'h',
      types: [
        type('post', {
          states: field('array', { items: { kind: 'enum', values: ['a', 'b'], checks: [] } }),
          seo: field('object', { nullable: true, fields: { title: field('string') } }),
          code: field('string', { checks: [{ type: 'regex', value: 'a*/b' }] }),
        }),
      ],
    });
    expect(text).toContain('states?: ("a" | "b")[];');
    expect(text).toMatch(/seo\?: \{\n {4}title\?: string;\n {2}\} \| null;/);
    expect(text).toContain('@pattern a*\\/b');
  });
});
