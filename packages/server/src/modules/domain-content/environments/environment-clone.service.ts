import type { Transaction } from '../../../storage/db.js';
import {
  type CloneCounts,
  type CopyScope,
  copyEnvironmentContent,
} from '../../../storage/repositories/environment-copy.repository.js';
import type { ContentEnvironments } from '../../core-system/environments.service.js';

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
      return copyEnvironmentContent(tx, scope);
    },
  };
}
