import type { ModuleSurface, ServerDeps } from '../module-types.js';
import type { DomainShared } from './domain-shared.js';

/** The content area (schema registry and document lifecycle) of `domain.content`: its actions and background work. */
export async function setupContentArea(_deps: ServerDeps, _shared: DomainShared): Promise<ModuleSurface> {
  return { actions: [] };
}
