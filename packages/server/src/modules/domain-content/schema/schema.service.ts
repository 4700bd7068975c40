import { randomUUID } from 'node:crypto';
import {
  applySchemaLayer,
  computeSchemaHash,
  invalidInput,
  type ResolvedSchema,
  type SchemaList,
  type SchemaType,
  type Serializable,
  type SyncSchemaBody,
  type SyncSchemaResult,
  schemaOrderKey,
  validateResolvedSchema,
} from '@cms/core';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext } from '../../../http/request-context.js';
import { type Db, withTransaction } from '../../../storage/db.js';
import {
  findOwnSchema,
  listSchemaLayers,
  saveSchemaIfChanged,
} from '../../../storage/repositories/schema.repository.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';
import { mergeLayers } from './schema-layers.js';
import {
  EMPTY_SCHEMA,
  EMPTY_SCHEMA_HASH,
  localesOf,
  requireSchemaType,
  type SchemaReader,
  snapshotLocalesOf,
} from './schema-reader.js';

/** `GET /schema`: every type in force and the hash guarding content writes. */
export type SchemaView = SchemaList;

/** `PUT /schema/sync` body (core's contract). */
type SyncSchemaInput = SyncSchemaBody;

/** A pushed schema that passed validation, with its hash. */
interface ValidLayer {
  schema: ResolvedSchema;
  schemaHash: string;
}

/**
 * Validates a pushed schema as a layer over `base` (null: nothing below it): its references may
 * target the base's types, its hash must be the client's, and merged with the base it must still be
 * a valid schema (the type and field limits hold for the merge).
 */
function assertValidLayer(input: SyncSchemaInput, base: ResolvedSchema | null): ValidLayer {
  const baseTypeNames = base?.types.map((type) => type.name) ?? [];
  const validation = validateResolvedSchema(input.resolvedSchema, { baseTypeNames });
  if (!validation.ok) throw invalidInput(validation.fields);
  const schema = validation.schema;
  const expected = computeSchemaHash(schema);
  if (expected !== input.schemaHash) {
    throw invalidInput(
      { schemaHash: `does not match the resolved schema: its hash is ${expected}` },
      `schemaHash does not match the resolved schema (expected ${expected}): hash the canonical JSON (RFC 8785) of resolvedSchema with SHA-256.`,
    );
  }
  if (base) {
    const merged = validateResolvedSchema(applySchemaLayer(base, schema));
    if (!merged.ok) {
      const [path, problem] = Object.entries(merged.fields)[0] ?? ['resolvedSchema', 'is invalid'];
      throw invalidInput({
        resolvedSchema: `merged with the schema of the environment it extends, ${path} ${problem}`,
      });
    }
  }
  return { schema, schemaHash: expected };
}

/** The effective schema once `layer` is the environment's own: the layer over its base's. */
function applyLayer(base: ResolvedSchema | null, layer: ValidLayer): { schema: ResolvedSchema; schemaHash: string } {
  if (!base) return layer;
  const schema = applySchemaLayer(base, layer.schema);
  return { schema, schemaHash: computeSchemaHash(schema) };
}

/** The schema registry: reads of the schema in force and idempotent, non-destructive syncs. */
export function createSchemaService(deps: { db: Db; schemas: SchemaReader; bus: InvalidationBus; clock: Clock }) {
  return {
    async list(ctx: EnvironmentContext): Promise<SchemaView> {
      const schema = await deps.schemas.find(ctx.target);
      if (!schema) return { types: [], schemaHash: EMPTY_SCHEMA_HASH };
      return {
        types: [...schema.types.values()],
        schemaHash: schema.schemaHash,
        ...(schema.locales ? { locales: schema.locales } : {}),
      };
    },

    async get(ctx: EnvironmentContext, name: string): Promise<SchemaType & { schemaHash: string }> {
      const { schema, type } = requireSchemaType(await deps.schemas.find(ctx.target), name);
      return { ...type, schemaHash: schema.schemaHash };
    },

    /**
     * Stores a pushed schema as the environment's layer (its whole schema when it extends nothing).
     * Nothing is written (`synced: false`) when the environment's effective schema would stay the
     * same. Documents are never touched: a removed field simply stops being validated
     * (interface.md "Schema endpoints"). Answers the effective schema's hash and types.
     */
    async sync(ctx: EnvironmentContext, input: SyncSchemaInput): Promise<Serializable<SyncSchemaResult>> {
      const { target } = ctx;
      const result = await withTransaction(deps.db, async (tx) => {
        const layers = await listSchemaLayers(tx, target);
        const baseLayers = layers.filter((layer) => layer.environmentId !== target.environmentId);
        const current = mergeLayers(layers);
        const base = mergeLayers(baseLayers);
        const layer = assertValidLayer(input, base?.resolvedSchema ?? null);
        const next = applyLayer(base?.resolvedSchema ?? null, layer);
        const unchanged = (syncedAt: Date, syncedBy: string) => ({
          synced: false,
          schema: current?.resolvedSchema ?? EMPTY_SCHEMA,
          schemaHash: current?.schemaHash ?? EMPTY_SCHEMA_HASH,
          syncedAt,
          syncedBy,
        });
        // Same effective schema: also when an extending environment is sent exactly what it inherits
        // (it then keeps following its base: no layer is stored). The hash ignores key order, so a
        // sync that only reorders fields changes the schema too: the order is what forms and new
        // files follow (migration 0018), though content writes keep the same hash. So do new locales
        // in the config (`GET /schema` answers them); a snapshot without locales leaves them as they are.
        const sentLocales = localesOf(snapshotLocalesOf(input.rawConfigSnapshot, target.environmentName));
        const sameLocales =
          !sentLocales ||
          JSON.stringify(sentLocales) === JSON.stringify(current ? localesOf(current.nearest.configLocales) : null);
        if (
          current &&
          current.schemaHash === next.schemaHash &&
          schemaOrderKey(current.resolvedSchema) === schemaOrderKey(next.schema) &&
          sameLocales
        )
          return unchanged(current.latest.syncedAt, current.latest.syncedBy);
        const sync = {
          historyId: randomUUID(),
          schemaHash: layer.schemaHash,
          resolvedSchema: layer.schema,
          rawConfigSnapshot: input.rawConfigSnapshot,
          syncedAt: deps.clock(),
          syncedBy: ctx.principal.id,
        };
        if (!(await saveSchemaIfChanged(tx, target, sync))) {
          // A concurrent sync of the same layer committed first.
          const winner = await findOwnSchema(tx, target);
          const now = mergeLayers(await listSchemaLayers(tx, target));
          return {
            synced: false,
            schema: now?.resolvedSchema ?? next.schema,
            schemaHash: now?.schemaHash ?? next.schemaHash,
            syncedAt: winner?.syncedAt ?? sync.syncedAt,
            syncedBy: winner?.syncedBy ?? sync.syncedBy,
          };
        }
        // Every process (this one included) drops its cached schemas, those of environments
        // extending this one too, once this commits.
        await deps.bus.publish(tx, 'schema', target.environmentId);
        return { synced: true, ...next, syncedAt: sync.syncedAt, syncedBy: sync.syncedBy };
      });
      if (result.synced) deps.schemas.invalidate();
      const names = result.schema.types.map((type) => type.name);
      return {
        synced: result.synced,
        schemaHash: result.schemaHash,
        typesCount: names.length,
        types: names,
        syncedAt: result.syncedAt,
        syncedBy: result.syncedBy,
      };
    },
  };
}

/** The schema service's type, for action factories. */
export type SchemaService = ReturnType<typeof createSchemaService>;
