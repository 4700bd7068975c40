import { createValidatorCache, type FrontmatterValidator, type SchemaType } from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { findEffectiveSchema } from '../../../storage/repositories/schema.repository.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';

/** The schema in force in an environment, with its types by name. */
export interface EffectiveSchema {
  schemaHash: string;
  types: ReadonlyMap<string, SchemaType>;
  syncedAt: Date;
  syncedBy: string;
}

/** Reads the schema in force per environment, cached until a sync publishes `schema`. */
export interface SchemaReader {
  /** The effective schema, or null when nothing was ever synced here or in a base environment. */
  find(target: Pick<Target, 'projectId' | 'environmentId'>): Promise<EffectiveSchema | null>;
  /** The compiled frontmatter validator of a type (compiled once per schema hash). */
  validatorFor(schema: EffectiveSchema, type: SchemaType): FrontmatterValidator;
}

const MAX_CACHED_ENVIRONMENTS = 5_000;

/** Creates the reader; its cache is safe to lose and cleared on every `schema` invalidation. */
export function createSchemaReader(db: Queryable, bus: InvalidationBus): SchemaReader {
  const cache = new Map<string, EffectiveSchema | null>();
  const validators = createValidatorCache();
  // A sync in one environment can change what its extending environments inherit: drop everything.
  bus.subscribe('schema', () => cache.clear());
  return {
    async find(target) {
      if (cache.has(target.environmentId)) return cache.get(target.environmentId) ?? null;
      const row = await findEffectiveSchema(db, target);
      const schema = row
        ? {
            schemaHash: row.schemaHash,
            types: new Map(row.resolvedSchema.types.map((type) => [type.name, type])),
            syncedAt: row.syncedAt,
            syncedBy: row.syncedBy,
          }
        : null;
      if (cache.size >= MAX_CACHED_ENVIRONMENTS) cache.clear();
      cache.set(target.environmentId, schema);
      return schema;
    },
    validatorFor: (schema, type) => validators.validatorFor(schema.schemaHash, type),
  };
}
