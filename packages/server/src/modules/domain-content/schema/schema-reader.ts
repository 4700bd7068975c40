import {
  computeSchemaHash,
  createValidatorCache,
  type FrontmatterValidator,
  type ResolvedSchema,
  type SchemaType,
} from '@cms/core';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import {
  findEffectiveSchema,
  findEffectiveSchemaHash,
  type SchemaRow,
} from '../../../storage/repositories/schema.repository.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';

/** The schema of an environment nothing was ever synced to (here or in a base): no types. */
export const EMPTY_SCHEMA: ResolvedSchema = { types: [] };

/** Hash of the empty schema: what `GET /schema` reports and content writes expect before the first sync. */
export const EMPTY_SCHEMA_HASH = computeSchemaHash(EMPTY_SCHEMA);

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
  /**
   * The effective schema as `queryable` (a write's open transaction) sees it: one hash lookup,
   * and the cached schema when the hash still matches. Writes use this, so a sync that committed
   * a moment ago counts even before its invalidation reaches this process; inside a transaction on
   * the embedded database it is also the only safe way (`find` would wait for the transaction).
   */
  load(queryable: Queryable, target: Pick<Target, 'projectId' | 'environmentId'>): Promise<EffectiveSchema | null>;
  /** The compiled frontmatter validator of a type (compiled once per schema hash). */
  validatorFor(schema: EffectiveSchema, type: SchemaType): FrontmatterValidator;
  /** Drops this process's cache at once (after a local sync commits; other processes hear the bus). */
  invalidate(): void;
}

const MAX_CACHED_ENVIRONMENTS = 5_000;

function toEffectiveSchema(row: SchemaRow): EffectiveSchema {
  return {
    schemaHash: row.schemaHash,
    types: new Map(row.resolvedSchema.types.map((type) => [type.name, type])),
    syncedAt: row.syncedAt,
    syncedBy: row.syncedBy,
  };
}

/** Creates the reader; its cache is safe to lose, cleared on every `schema` invalidation, bypassed while the bus is not live. */
export function createSchemaReader(db: Queryable, bus: InvalidationBus): SchemaReader {
  const cache = new Map<string, EffectiveSchema | null>();
  const validators = createValidatorCache();
  // Bumped on every invalidation: a read that started before it must not refill the cache after it.
  let generation = 0;
  const invalidate = () => {
    generation += 1;
    cache.clear();
  };
  // A sync in one environment can change what its extending environments inherit: drop everything.
  bus.subscribe('schema', invalidate);
  const remember = (environmentId: string, schema: EffectiveSchema | null, startedAt: number) => {
    if (startedAt !== generation) return;
    if (cache.size >= MAX_CACHED_ENVIRONMENTS) cache.clear();
    cache.set(environmentId, schema);
  };
  return {
    async find(target) {
      // Not while the bus is down: a sync made meanwhile would go unheard.
      if (bus.isLive() && cache.has(target.environmentId)) return cache.get(target.environmentId) ?? null;
      const startedAt = generation;
      const row = await findEffectiveSchema(db, target);
      const schema = row ? toEffectiveSchema(row) : null;
      remember(target.environmentId, schema, startedAt);
      return schema;
    },
    async load(queryable, target) {
      const hash = await findEffectiveSchemaHash(queryable, target);
      if (hash === null) return null;
      const cached = cache.get(target.environmentId);
      if (cached && cached.schemaHash === hash) return cached;
      const row = await findEffectiveSchema(queryable, target);
      // Not cached: this transaction may still roll back or see what others do not yet.
      return row ? toEffectiveSchema(row) : null;
    },
    validatorFor: (schema, type) => validators.validatorFor(schema.schemaHash, type),
    invalidate,
  };
}
