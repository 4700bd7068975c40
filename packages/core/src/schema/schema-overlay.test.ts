import { describe, expect, it } from 'vitest';
import type { FieldMetadata, ResolvedSchema, SchemaType } from './field-types.js';
import { validateResolvedSchema } from './schema-definition.js';
import { computeSchemaHash } from './schema-hash.js';
import { applySchemaLayer, mergeSchemaLayers } from './schema-overlay.js';

function field(kind: FieldMetadata['kind'], extra: Partial<FieldMetadata> = {}): FieldMetadata {
  return { kind, required: false, nullable: false, default: null, reference: null, checks: [], ...extra };
}

const post: SchemaType = {
  name: 'post',
  directory: 'posts',
  localized: false,
  fields: {
    title: field('string', { required: true }),
    seo: field('object', { fields: { description: field('string'), noindex: field('boolean') } }),
  },
};
const page: SchemaType = { name: 'page', directory: 'pages', localized: true, fields: { title: field('string') } };
const base: ResolvedSchema = { types: [post, page] };

describe('applySchemaLayer', () => {
  it('adds the types only in the layer, after the base types', () => {
    const note: SchemaType = { name: 'note', directory: 'notes', localized: false, fields: {} };
    expect(applySchemaLayer(base, { types: [note] })).toEqual({ types: [post, page, note] });
  });

  it('merges the fields of a type in both by name: the layer replaces, adds, and keeps the rest', () => {
    const layer: ResolvedSchema = {
      types: [
        {
          ...post,
          fields: {
            title: field('string', { required: false, checks: [{ type: 'max', value: 10 }] }),
            subtitle: field('string'),
          },
        },
      ],
    };
    const merged = applySchemaLayer(base, layer);
    expect(merged.types.map((type) => type.name)).toEqual(['post', 'page']);
    expect(merged.types[0]?.fields).toEqual({
      title: field('string', { required: false, checks: [{ type: 'max', value: 10 }] }),
      seo: post.fields.seo,
      subtitle: field('string'),
    });
    expect(merged.types[1]).toBe(page);
  });

  it('replaces a nested object field as a whole and lets the layer change a kind', () => {
    const layer: ResolvedSchema = {
      types: [{ ...post, fields: { seo: field('object', { fields: { canonical: field('string') } }) } }],
    };
    expect(applySchemaLayer(base, layer).types[0]?.fields.seo).toEqual(
      field('object', { fields: { canonical: field('string') } }),
    );
    const kind = applySchemaLayer(base, { types: [{ ...post, fields: { title: field('number') } }] });
    expect(kind.types[0]?.fields.title?.kind).toBe('number');
  });

  it("takes the layer's type settings", () => {
    const layer: ResolvedSchema = { types: [{ ...page, directory: 'site/pages', localized: false, fields: {} }] };
    expect(applySchemaLayer(base, layer).types[1]).toEqual({ ...page, directory: 'site/pages', localized: false });
  });

  it('changes neither input, and a layer repeating the base changes nothing', () => {
    const before = JSON.stringify(base);
    const layer: ResolvedSchema = { types: [{ ...post, fields: { extra: field('date') } }] };
    applySchemaLayer(base, layer);
    expect(JSON.stringify(base)).toBe(before);
    expect(Object.keys(layer.types[0]?.fields ?? {})).toEqual(['extra']);
    expect(computeSchemaHash(applySchemaLayer(base, base))).toBe(computeSchemaHash(base));
  });
});

describe('mergeSchemaLayers', () => {
  it('is the empty schema for no layers and the layer itself for one', () => {
    expect(mergeSchemaLayers([])).toEqual({ types: [] });
    expect(mergeSchemaLayers([base])).toBe(base);
  });

  it('applies the layers in order, the root first', () => {
    const middle: ResolvedSchema = { types: [{ ...post, fields: { subtitle: field('string') } }] };
    const top: ResolvedSchema = { types: [{ ...post, fields: { subtitle: field('string', { required: true }) } }] };
    const merged = mergeSchemaLayers([base, middle, top]);
    expect(merged.types[0]?.fields.subtitle?.required).toBe(true);
    expect(Object.keys(merged.types[0]?.fields ?? {})).toEqual(['title', 'seo', 'subtitle']);
    expect(mergeSchemaLayers([base, top, middle]).types[0]?.fields.subtitle?.required).toBe(false);
  });
});

describe('validateResolvedSchema with base type names', () => {
  it('lets a layer reference a type only its base defines', () => {
    const layer = {
      types: [{ ...page, fields: { parent: field('reference', { reference: { targetType: 'post' } }) } }],
    };
    expect(validateResolvedSchema(layer).ok).toBe(false);
    expect(validateResolvedSchema(layer, { baseTypeNames: ['post'] }).ok).toBe(true);
  });
});
