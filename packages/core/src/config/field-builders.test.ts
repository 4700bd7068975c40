import { describe, expect, it } from 'vitest';
import { field } from './field-builders.js';

describe('field builders', () => {
  it('yields fully explicit metadata with defaults off', () => {
    expect(field.boolean().metadata).toEqual({
      kind: 'boolean',
      required: false,
      nullable: false,
      default: null,
      reference: null,
      checks: [],
    });
  });

  it('records string checks in the order they are written', () => {
    const slug = field
      .string()
      .required()
      .min(1)
      .max(80)
      .regex(/^[a-z-]+$/);
    expect(slug.metadata).toMatchObject({
      kind: 'string',
      required: true,
      checks: [
        { type: 'min', value: 1 },
        { type: 'max', value: 80 },
        { type: 'regex', value: '^[a-z-]+$' },
      ],
    });
    expect(field.string().url().metadata.checks).toEqual([{ type: 'url' }]);
    expect(field.string().email().nullable().metadata).toMatchObject({ nullable: true, checks: [{ type: 'email' }] });
  });

  it('is immutable: a modifier returns a new builder', () => {
    const base = field.number();
    const ranged = base.min(0).max(10).default(5);
    expect(base.metadata.checks).toEqual([]);
    expect(ranged.metadata).toMatchObject({
      default: 5,
      checks: [
        { type: 'min', value: 0 },
        { type: 'max', value: 10 },
      ],
    });
  });

  it('builds enum, reference, array and object fields', () => {
    expect(field.enum(['draft', 'live']).metadata.values).toEqual(['draft', 'live']);
    expect(field.reference('author').metadata.reference).toEqual({ targetType: 'author' });
    expect(field.reference({ name: 'author' }).metadata.reference).toEqual({ targetType: 'author' });
    expect(field.array(field.reference('tag')).max(5).metadata).toMatchObject({
      kind: 'array',
      items: { kind: 'reference', checks: [], reference: { targetType: 'tag' } },
      checks: [{ type: 'max', value: 5 }],
    });
    const seo = field.object({ title: field.string().required(), noindex: field.boolean() });
    expect(seo.metadata.fields?.title).toMatchObject({ kind: 'string', required: true });
    expect(seo.metadata.fields?.noindex).toMatchObject({ kind: 'boolean', required: false });
  });

  it('refuses arrays of arrays', () => {
    expect(() => field.array(field.array(field.string()) as never)).toThrow(/wrap the inner array/);
  });
});
