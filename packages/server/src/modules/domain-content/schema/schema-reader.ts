import {
  CmsError,
  computeSchemaHash,
  createValidatorCache,
  type FrontmatterValidator,
  type ResolvedSchema,
  SCHEMA_SYNC_HINT,
  type SchemaLocales,
  type SchemaType,
} from '@cms/core';
import { LRUCache } from 'lru-cache';
import type { Target } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { listSchemaLayerStamps } from '../../../storage/repositories/schema.repository.js';
import { createInvalidatedCache } from '../../../tenancy/invalidated-cache.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';
import { loadMergedSchema, type MergedSchema, stampOf } from './schema-layers.js';

/** The schema of an environment nothing was ever synced to (here or in a base): no types. */
export const EMPTY_SCHEMA: ResolvedSchema = { types: [] };

/** Hash of the empty schema: what `GET /schema` reports and content writes expect before the first sync. */
export const EMPTY_SCHEMA_HASH = computeSchemaHash(EMPTY_SCHEMA);

/**
 * The schema in force in an environment, with its types by name: the merge of the layers synced
 * along its `extends` chain (schema overlays), hashed as merged.
 */
export interface EffectiveSchema {
  schemaHash: string;
  types: ReadonlyMap<string, SchemaType>;
  /** The locales the config of the nearest synced layer declares, when it sent well-formed ones. */
  locales: SchemaLocales | null;
  /** When and by whom the latest of its layers was synced. */
  syncedAt: Date;
  syncedBy: string;
}

/** A type with the schema in force it belongs to: what validation and reads need. */
export interface TypeInSchema {
  schema: EffectiveSchema;
  type: SchemaType;
}

/**
 * The type named `name` in the schema in force, else `SCHEMA_NOT_FOUND`: the one lookup every
 * service (schema, documents, reads, search, migrations) uses, so the answer is the same everywhere.
 */
export function requireSchemaType(schema: EffectiveSchema | null, name: string): TypeInSchema {
  const type = schema?.types.get(name);
  if (!schema || !type) {
    throw new CmsError(
      'SCHEMA_NOT_FOUND',
      `No content type "${name}" in the schema of this environment: check the name, or ${SCHEMA_SYNC_HINT}.`,
      { type: name },
    );
  }
  return { schema, type };
}

/** Reads the schema in force per environment, cached until a sync publishes `schema`. */
export interface SchemaReader {
  /** The effective schema, or null when nothing was ever synced here or in a base environment. */
  find(target: Pick<Target, 'projectId' | 'environmentId'>): Promise<EffectiveSchema | null>;
  /**
   * The effective schema as `queryable` (a write's open transaction) sees it: one lookup of the
   * chain's layer hashes, and the cached merge when they are still the same. Writes use this, so a
   * sync that committed a moment ago (here or in a base) counts even before its invalidation
   * reaches this process; inside a transaction on the embedded database it is also the only safe
   * way (`find` would wait for the transaction).
   */
  load(queryable: Queryable, target: Pick<Target, 'projectId' | 'environmentId'>): Promise<EffectiveSchema | null>;
  /** The compiled frontmatter validator of a type (compiled once per effective schema hash). */
  validatorFor(schema: EffectiveSchema, type: SchemaType): FrontmatterValidator;
  /** Drops this process's cache at once (after a local sync commits; other processes hear the bus). */
  invalidate(): void;
}

const MAX_CACHED_ENVIRONMENTS = 5_000;
/** Merges kept for writes (a few per environment being written to). */
const MAX_CACHED_MERGES = 256;

/** A cached effective schema and the layers it was merged from. */
interface CacheEntry {
  stamp: string;
  schema: EffectiveSchema;
}

/** `{ default, supported }` from a raw config snapshot, or null when it holds anything else. */
export function localesOf(value: unknown): SchemaLocales | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { default: main, supported } = value as Record<string, unknown>;
  if (typeof main !== 'string' || !Array.isArray(supported)) return null;
  if (!supported.every((locale) => typeof locale === 'string')) return null;
  const rest = (supported as string[]).filter((locale) => locale !== main);
  return { default: main, supported: [main, ...new Set(rest)] };
}

/**
 * The locales a raw config snapshot gives an environment: its own under `environments`, else the
 * config's (what schema.repository.ts selects as `configLocales`).
 */
export function snapshotLocalesOf(snapshot: Record<string, unknown>, environmentName: string): unknown {
  const environments = snapshot.environments;
  const own =
    environments !== null && typeof environments === 'object'
      ? (environments as Record<string, { locales?: unknown } | undefined>)[environmentName]?.locales
      : undefined;
  return own ?? snapshot.locales;
}

function toEffectiveSchema(merged: MergedSchema): EffectiveSchema {
  return {
    schemaHash: merged.schemaHash,
    types: new Map(merged.resolvedSchema.types.map((type) => [type.name, type])),
    locales: localesOf(merged.nearest.configLocales),
    syncedAt: merged.latest.syncedAt,
    syncedBy: merged.latest.syncedBy,
  };
}

/** Creates the reader; its cache is safe to lose, cleared on every `schema` invalidation, bypassed while the bus is not live. */
export function createSchemaReader(db: Queryable, bus: InvalidationBus): SchemaReader {
  // A sync in one environment changes the effective schema of every environment extending it,
  // directly or not: whatever the key, drop every entry (this process caches few environments).
  // `null` is kept too: "nothing synced here" until a sync says otherwise.
  const cache = createInvalidatedCache<CacheEntry | null>({
    bus,
    topic: 'schema',
    maxEntries: MAX_CACHED_ENVIRONMENTS,
  });
  const validators = createValidatorCache();
  // Merges a write read inside its transaction, by the exact layers they were merged from, for the
  // next writes while no read has filled `cache` (write-only traffic, a `cms push`). Never used by
  // `find`: the transaction may still roll back. A rolled-back sync's layers never come back under the
  // same stamp (environment, hash, sync time), and every `schema` invalidation empties it anyway.
  const merges = new LRUCache<string, EffectiveSchema>({ max: MAX_CACHED_MERGES });
  bus.subscribe('schema', () => merges.clear());
  const forget = () => {
    merges.clear();
    cache.forget();
  };
  return {
    async find(target) {
      const entry = await cache.fetch(target.environmentId, async () => {
        const merged = await loadMergedSchema(db, target);
        return merged ? { stamp: merged.stamp, schema: toEffectiveSchema(merged) } : null;
      });
      return entry?.schema ?? null;
    },
    async load(queryable, target) {
      const stamps = await listSchemaLayerStamps(queryable, target);
      if (stamps.length === 0) return null;
      const stamp = stampOf(stamps);
      const cached = cache.cached(target.environmentId);
      if (cached && cached.stamp === stamp) return cached.schema;
      const merge = bus.isLive() ? merges.get(stamp) : undefined;
      if (merge) return merge;
      const merged = await loadMergedSchema(queryable, target);
      if (!merged) return null;
      const schema = toEffectiveSchema(merged);
      if (bus.isLive()) merges.set(merged.stamp, schema);
      return schema;
    },
    validatorFor: (schema, type) => validators.validatorFor(schema.schemaHash, type),
    invalidate: forget,
  };
}
