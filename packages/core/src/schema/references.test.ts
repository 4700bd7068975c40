import { describe, expect, it } from 'vitest';
import type { FieldKind, FieldMetadata, SchemaType } from './field-types.js';
import { collectReferences, listReferenceFields } from './references.js';

const A = '0b5b6f2e-8f0a-4c36-9d55-0c1b9f2b7a11';
const B = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

function field(kind: FieldKind, overrides: Partial<FieldMetadata> = {}): FieldMetadata {
  return { kind, required: false, nullable: true, default: null, reference: null, checks: [], ...overrides };
}

const post: SchemaType = {
  name: 'post',
  directory: 'posts',
  localized: false,
  fields: {
    title: field('string'),
    author: field('reference', { reference: { targetType: 'author' } }),
    seo: field('object', {
      fields: {
        description: field('string'),
        author: field('reference', { reference: { targetType: 'author' } }),
      },
    }),
    related: field('array', { items: { kind: 'reference', checks: [], reference: { targetType: 'post' } } }),
    blocks: field('array', {
      items: {
        kind: 'object',
        checks: [],
        fields: { image: field('reference', { reference: { targetType: 'media' } }) },
      },
    }),
    tags: field('array', { items: { kind: 'string', checks: [] } }),
  },
};

describe('listReferenceFields', () => {
  it('lists every reference field in dot notation, flagging those under an array', () => {
    expect(listReferenceFields(post)).toEqual([
      { path: 'author', targetType: 'author', array: false },
      { path: 'seo.author', targetType: 'author', array: false },
      { path: 'related', targetType: 'post', array: true },
      { path: 'blocks.image', targetType: 'media', array: true },
    ]);
  });

  it('is empty for a type without references', () => {
    expect(listReferenceFields({ ...post, fields: { title: field('string') } })).toEqual([]);
  });
});

describe('collectReferences', () => {
  it('returns each id with its document path, field path and target type', () => {
    const frontmatter = {
      title: A,
      author: A.toUpperCase(),
      seo: { author: B },
      related: [B, A],
      blocks: [{ image: A }, { other: 1 }, { image: B }],
      tags: [A],
      unknown: A,
    };
    expect(collectReferences(post, frontmatter)).toEqual([
      { path: 'frontmatter.author', fieldPath: 'author', documentId: A, targetType: 'author' },
      { path: 'frontmatter.seo.author', fieldPath: 'seo.author', documentId: B, targetType: 'author' },
      { path: 'frontmatter.related[0]', fieldPath: 'related', documentId: B, targetType: 'post' },
      { path: 'frontmatter.related[1]', fieldPath: 'related', documentId: A, targetType: 'post' },
      { path: 'frontmatter.blocks[0].image', fieldPath: 'blocks.image', documentId: A, targetType: 'media' },
      { path: 'frontmatter.blocks[2].image', fieldPath: 'blocks.image', documentId: B, targetType: 'media' },
    ]);
  });

  it('skips nulls, missing values and malformed ids', () => {
    expect(collectReferences(post, { author: null, seo: null, related: ['not-an-id', 3, null], blocks: 'x' })).toEqual(
      [],
    );
    expect(collectReferences(post, null)).toEqual([]);
  });
});
