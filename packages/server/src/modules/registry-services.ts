/**
 * What modules provide each other through the service registry (`deps.registry`): each service's
 * registry name and the interface it is provided under. Modules meet only here and in the registry,
 * never by importing each other's files, so a module can be left out without breaking another's
 * imports (a missing service is found at request time: `registry.find` answers null).
 */
import type { Transaction } from '../storage/db.js';

/** Registry name of the content area's environment service (provided by `domain.content`). */
export const CONTENT_ENVIRONMENTS_SERVICE = 'content.environments';

/**
 * What `core.system` needs of the content area to clone an environment. `domain.content` provides
 * it; `core.system` is set up first and looks it up at request time.
 */
export interface ContentEnvironments {
  /** Copies schema, documents and their history from source into the new, empty target, in `tx`. */
  cloneInto(
    tx: Transaction,
    scope: { projectId: string; sourceEnvironmentId: string; targetEnvironmentId: string },
  ): Promise<unknown>;
}
