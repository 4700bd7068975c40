/**
 * Schema overlays (docs/api.md "Schema registry"): an environment's effective schema is the merge of
 * the layers synced along its `extends` chain, the root's first. Its hash is the hash of that merge.
 */
import { computeSchemaHash, mergeSchemaLayers, type ResolvedSchema } from '@cms/core';
import type { Queryable } from '../../../storage/db.js';
import {
  listSchemaLayers,
  type SchemaLayerStamp,
  type SchemaRow,
} from '../../../storage/repositories/schema.repository.js';

/** The merge of an environment's layers. */
export interface MergedSchema {
  resolvedSchema: ResolvedSchema;
  schemaHash: string;
  /** Which layers went in: equal stamps mean an equal merge. */
  stamp: string;
  /** The layer synced last, whichever environment of the chain it belongs to. */
  latest: SchemaRow;
  /** The chain's topmost layer: the environment's own if it has one, else the nearest base's. */
  nearest: SchemaRow;
}

/** Identifies a list of layers; two lists with one stamp merge to the same schema. */
export function stampOf(layers: readonly SchemaLayerStamp[]): string {
  // The sync time too: a sync that only reorders fields or changes locales keeps the hash.
  return layers.map((layer) => `${layer.environmentId}:${layer.schemaHash}:${layer.syncedAt.getTime()}`).join(',');
}

/** Merges layers (root first); null when there are none (nothing synced in the chain). */
export function mergeLayers(layers: readonly SchemaRow[]): MergedSchema | null {
  const nearest = layers.at(-1);
  if (!nearest) return null;
  const latest = layers.reduce((last, layer) => (layer.syncedAt > last.syncedAt ? layer : last));
  // One layer is the schema as synced: its stored hash is the hash of the merge.
  if (layers.length === 1) {
    return {
      resolvedSchema: nearest.resolvedSchema,
      schemaHash: nearest.schemaHash,
      stamp: stampOf(layers),
      latest,
      nearest,
    };
  }
  const resolvedSchema = mergeSchemaLayers(layers.map((layer) => layer.resolvedSchema));
  return { resolvedSchema, schemaHash: computeSchemaHash(resolvedSchema), stamp: stampOf(layers), latest, nearest };
}

/** The effective schema of an environment as `queryable` sees it, uncached; null when nothing is synced in its chain. */
export async function loadMergedSchema(
  queryable: Queryable,
  scope: { projectId: string; environmentId: string },
): Promise<MergedSchema | null> {
  return mergeLayers(await listSchemaLayers(queryable, scope));
}
