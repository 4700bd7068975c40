import { randomUUID } from 'node:crypto';
import { CmsError, computeSchemaHash, invalidInput, type SchemaType, validateResolvedSchema } from '@cms/core';
import type { RequestContext } from '../../../http/request-context.js';
import { type Db, withTransaction } from '../../../storage/db.js';
import { findOwnSchema, saveSchemaIfChanged } from '../../../storage/repositories/schema.repository.js';
import type { InvalidationBus } from '../../../tenancy/invalidation.js';
import { requireTarget } from '../documents/document-context.js';
import { EMPTY_SCHEMA_HASH, type SchemaReader } from './schema-reader.js';

/** `GET /schema`: every type in force and the hash guarding content writes. */
export interface SchemaView {
  types: SchemaType[];
  schemaHash: string;
}

/** `PUT /schema/sync` body. */
export interface SyncSchemaInput {
  rawConfigSnapshot: Record<string, unknown>;
  resolvedSchema: unknown;
  schemaHash: string;
}

/** `PUT /schema/sync` answer. */
export interface SyncSchemaResult {
  synced: boolean;
  schemaHash: string;
  typesCount: number;
  types: string[];
  syncedAt: Date;
  syncedBy: string;
}

/** The schema registry: reads of the schema in force and idempotent, non-destructive syncs. */
export function createSchemaService(deps: { db: Db; schemas: SchemaReader; bus: InvalidationBus; clock: () => Date }) {
  return {
    async list(ctx: RequestContext): Promise<SchemaView> {
      const schema = await deps.schemas.find(requireTarget(ctx));
      if (!schema) return { types: [], schemaHash: EMPTY_SCHEMA_HASH };
      return { types: [...schema.types.values()], schemaHash: schema.schemaHash };
    },

    async get(ctx: RequestContext, name: string): Promise<SchemaType & { schemaHash: string }> {
      const schema = await deps.schemas.find(requireTarget(ctx));
      const type = schema?.types.get(name);
      if (!schema || !type) {
        throw new CmsError(
          'SCHEMA_NOT_FOUND',
          `No content type "${name}" in the schema registry: run \`cms schema sync\`.`,
          {
            type: name,
          },
        );
      }
      return { ...type, schemaHash: schema.schemaHash };
    },

    /**
     * Stores a pushed schema. Same hash as stored: nothing is written (`synced: false`). Documents
     * are never touched: a removed field simply stops being validated (interface.md "Schema endpoints").
     */
    async sync(ctx: RequestContext, input: SyncSchemaInput): Promise<SyncSchemaResult> {
      const target = requireTarget(ctx);
      const validation = validateResolvedSchema(input.resolvedSchema);
      if (!validation.ok) throw invalidInput(validation.fields);
      const schema = validation.schema;
      const expected = computeSchemaHash(schema);
      if (expected !== input.schemaHash) {
        throw invalidInput(
          { schemaHash: `does not match the resolved schema: its hash is ${expected}` },
          `schemaHash does not match the resolved schema (expected ${expected}): hash the canonical JSON (RFC 8785) of resolvedSchema with SHA-256.`,
        );
      }
      const names = schema.types.map((type) => type.name);
      const result = await withTransaction(deps.db, async (tx) => {
        const current = await findOwnSchema(tx, target);
        if (current?.schemaHash === expected)
          return { synced: false, syncedAt: current.syncedAt, syncedBy: current.syncedBy };
        const sync = {
          historyId: randomUUID(),
          schemaHash: expected,
          resolvedSchema: schema,
          rawConfigSnapshot: input.rawConfigSnapshot,
          syncedAt: deps.clock(),
          syncedBy: ctx.principal.id,
        };
        if (!(await saveSchemaIfChanged(tx, target, sync))) {
          const winner = await findOwnSchema(tx, target);
          return {
            synced: false,
            syncedAt: winner?.syncedAt ?? sync.syncedAt,
            syncedBy: winner?.syncedBy ?? sync.syncedBy,
          };
        }
        // Every process (this one included) drops its cached schema once this commits.
        await deps.bus.publish(tx, 'schema', target.environmentId);
        return { synced: true, syncedAt: sync.syncedAt, syncedBy: sync.syncedBy };
      });
      if (result.synced) deps.schemas.invalidate();
      return { ...result, schemaHash: expected, typesCount: names.length, types: names };
    },
  };
}

/** The schema service's type, for action factories. */
export type SchemaService = ReturnType<typeof createSchemaService>;
