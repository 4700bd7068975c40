import { describe, expect, it } from 'vitest';
import { fieldOrderOf, schemaOrderKey } from './field-order.js';
import type { FieldMetadata, ResolvedSchema } from './field-types.js';
import { computeSchemaHash } from './schema-hash.js';

const base = { required: false, nullable: false, default: null, reference: null, checks: [] };
const text: FieldMetadata = { kind: 'string', ...base };

describe('fieldOrderOf', () => {
  it('lists field names as declared, nested object fields and object items too', () => {
    const fields: Record<string, FieldMetadata> = {
      title: text,
      seo: { kind: 'object', ...base, fields: { title: text, description: text } },
      blocks: { kind: 'array', ...base, items: { kind: 'object', checks: [], fields: { heading: text, body: text } } },
      tags: { kind: 'array', ...base, items: { kind: 'string', checks: [] } },
    };
    expect(fieldOrderOf(fields)).toEqual([
      'title',
      ['seo', ['title', 'description']],
      ['blocks', ['heading', 'body']],
      'tags',
    ]);
  });
});

describe('schemaOrderKey', () => {
  it('differs for a reordering the schema hash does not see', () => {
    const schema = (fields: Record<string, FieldMetadata>): ResolvedSchema => ({
      types: [{ name: 'post', directory: 'posts', localized: false, fields }],
    });
    const declared = schema({ title: text, slug: text });
    const sorted = schema({ slug: text, title: text });
    expect(computeSchemaHash(declared)).toBe(computeSchemaHash(sorted));
    expect(schemaOrderKey(declared)).not.toBe(schemaOrderKey(sorted));
    expect(schemaOrderKey(declared)).toBe(schemaOrderKey(schema({ title: text, slug: text })));
  });
});
