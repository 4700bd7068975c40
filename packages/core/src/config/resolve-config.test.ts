import { describe, expect, it } from 'vitest';
import { validateResolvedSchema } from '../schema/schema-definition.js';
import { computeSchemaHash } from '../schema/schema-hash.js';
import { defineConfig } from './define-config.js';
import { defineType } from './define-type.js';
import { field } from './field-builders.js';
import { ConfigError, resolveConfigSchema, schemaSyncBody } from './resolve-config.js';

const author = defineType({ name: 'author', fields: { name: field.string().required() } });
const post = defineType({
  name: 'post',
  directory: 'posts',
  localized: true,
  fields: {
    title: field.string().required().max(120),
    author: field.reference(author),
    status: field.enum(['draft', 'live']).default('draft'),
  },
});
const postWithSubtitle = defineType({
  name: 'post',
  directory: 'posts',
  localized: true,
  fields: { subtitle: field.string() },
});

const config = defineConfig({
  project: 'site',
  types: [post, author],
  locales: { default: 'en', supported: ['en', 'fr'] },
  contentDirectories: { author: 'people' },
  environments: {
    preview: { extends: 'production', types: [postWithSubtitle] },
    sandbox: { types: [postWithSubtitle] },
  },
});

describe('resolveConfigSchema', () => {
  it('resolves the base environment to the whole schema, valid and hashed', () => {
    const resolved = resolveConfigSchema(config, 'production');
    expect(resolved.resolvedSchema.types.map((type) => type.name)).toEqual(['post', 'author']);
    expect(resolved.resolvedSchema.types[0]).toMatchObject({ name: 'post', directory: 'posts', localized: true });
    expect(validateResolvedSchema(resolved.resolvedSchema).ok).toBe(true);
    expect(resolved.schemaHash).toBe(computeSchemaHash(resolved.resolvedSchema));
    expect(resolved.effectiveSchemaHash).toBe(resolved.schemaHash);
    expect(resolved.extends).toBeNull();
  });

  it('syncs only the overlay to an extending environment and hashes the merge for writes', () => {
    const resolved = resolveConfigSchema(config, 'preview');
    expect(resolved.extends).toBe('production');
    expect(resolved.resolvedSchema).toEqual({ types: [postWithSubtitle.schema] });
    expect(Object.keys(resolved.effectiveSchema.types[0]?.fields ?? {})).toEqual([
      'title',
      'author',
      'status',
      'subtitle',
    ]);
    expect(resolved.effectiveSchemaHash).toBe(computeSchemaHash(resolved.effectiveSchema));
    expect(resolved.effectiveSchemaHash).not.toBe(resolved.schemaHash);
  });

  it('merges the overlay into the whole schema of an environment that extends nothing', () => {
    const resolved = resolveConfigSchema(config, 'sandbox');
    expect(resolved.resolvedSchema).toEqual(resolved.effectiveSchema);
    expect(Object.keys(resolved.resolvedSchema.types[0]?.fields ?? {})).toContain('subtitle');
  });

  it('builds the sync body with the config snapshot', () => {
    const body = schemaSyncBody(config);
    expect(Object.keys(body).sort()).toEqual(['rawConfigSnapshot', 'resolvedSchema', 'schemaHash']);
    expect(body.rawConfigSnapshot).toMatchObject({
      project: 'site',
      contentDirectories: { post: 'posts', author: 'people' },
      environments: { preview: { extends: 'production' } },
    });
    expect(JSON.parse(JSON.stringify(body.rawConfigSnapshot))).toEqual(body.rawConfigSnapshot);
  });

  it('reports an invalid schema by JSON path', () => {
    const broken = defineConfig({
      types: [defineType({ name: 'post', fields: { author: field.reference('nobody') } })],
    });
    expect(() => resolveConfigSchema(broken)).toThrow(ConfigError);
    try {
      resolveConfigSchema(broken);
    } catch (error) {
      expect((error as ConfigError).fields).toHaveProperty([
        'resolvedSchema.types[0].fields.author.reference.targetType',
      ]);
    }
  });

  it('reports a cycle of environments', () => {
    const cyclic = defineConfig({ types: [], environments: { a: { extends: 'b' }, b: { extends: 'a' } } });
    expect(() => resolveConfigSchema(cyclic, 'a')).toThrow(/a -> b -> a is a cycle/);
  });

  it('refuses locales whose default is not supported', () => {
    expect(() => defineConfig({ types: [], locales: { default: 'de', supported: ['en'] } })).toThrow(/default locale/);
  });
});
