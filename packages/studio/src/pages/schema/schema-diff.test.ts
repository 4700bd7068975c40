import { describe, expect, it } from 'vitest';
import type { FieldMetadata, SchemaType } from '../../editor/core-schema.js';
import { overlayOrigins } from './schema-diff.js';

const field = (kind: FieldMetadata['kind'], extra: Partial<FieldMetadata> = {}): FieldMetadata => ({
  kind,
  required: false,
  nullable: false,
  default: null,
  reference: null,
  checks: [],
  ...extra,
});
const type = (name: string, fields: Record<string, FieldMetadata>, extra: Partial<SchemaType> = {}): SchemaType => ({
  name,
  directory: `${name}s`,
  localized: false,
  fields,
  ...extra,
});

describe('overlayOrigins', () => {
  const base = [type('post', { title: field('string'), slug: field('string', { required: true }) })];

  it('marks types and fields only in the overlay as added, differing ones as changed, the rest inherited', () => {
    const here = [
      type('post', {
        title: field('string', { checks: [{ type: 'max', value: 80 }] }),
        slug: field('string', { required: true }),
        subtitle: field('string'),
      }),
      type('note', { text: field('string') }),
    ];
    expect(overlayOrigins(here, base)).toEqual({
      post: { origin: 'changed', fields: { title: 'changed', slug: 'inherited', subtitle: 'added' } },
      note: { origin: 'added', fields: { text: 'added' } },
    });
  });

  it('compares fields whatever their key order, and counts a changed directory or localization', () => {
    const reordered = { checks: [], reference: null, default: null, nullable: false, required: true, kind: 'string' };
    expect(
      overlayOrigins([type('post', { title: field('string'), slug: reordered as FieldMetadata })], base).post,
    ).toEqual({ origin: 'inherited', fields: { title: 'inherited', slug: 'inherited' } });
    expect(overlayOrigins([type('post', base[0]?.fields ?? {}, { localized: true })], base).post?.origin).toBe(
      'changed',
    );
  });
});
