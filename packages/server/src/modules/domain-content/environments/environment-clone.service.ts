import type { Transaction } from '../../../storage/db.js';
import {
  type CloneCounts,
  type CopyScope,
  copyEnvironmentContent,
} from '../../../storage/repositories/environment-clone.repository.js';
import { insertSchemaCopy } from '../../../storage/repositories/schema.repository.js';
import type { ContentEnvironments } from '../../registry-services.js';
import { loadMergedSchema } from '../schema/schema-layers.js';

/**
 * Clones an environment's content for `POST /api/v1/environments { cloneFrom }` (decisions.md §4).
 * `core.system` calls it through the service registry inside the transaction that inserts the
 * environment, so the environment and its copy commit together. No events: a clone creates an
 * environment, not content changes (docs/api.md "Environments: clone and promote").
 */
export function createEnvironmentCloneService(): ContentEnvironments & {
  cloneInto(tx: Transaction, scope: CopyScope): Promise<CloneCounts>;
} {
  return {
    async cloneInto(tx, scope) {
      return { schemas: await copySchema(tx, scope), ...(await copyEnvironmentContent(tx, scope)) };
    },
  };
}

/**
 * Gives the clone the source's effective schema (its layers merged along its `extends` chain) as
 * its own registry row, so the copied documents keep the schema they were written against whatever
 * the clone extends. A new environment holds no cached schema: no invalidation is needed.
 */
async function copySchema(tx: Transaction, scope: CopyScope): Promise<number> {
  const source = { projectId: scope.projectId, environmentId: scope.sourceEnvironmentId };
  const merged = await loadMergedSchema(tx, source);
  if (!merged) return 0;
  return insertSchemaCopy(
    tx,
    {
      projectId: scope.projectId,
      fromEnvironmentId: merged.nearest.environmentId,
      toEnvironmentId: scope.targetEnvironmentId,
    },
    { schemaHash: merged.schemaHash, resolvedSchema: merged.resolvedSchema },
  );
}
