import type { ModuleSurface, ServerDeps } from '../module-types.js';
import type { DomainShared } from './domain-shared.js';

/** The content reads area (get, list, overview, variants, resolve, preview tokens) of `domain.content`: its actions and background work. */
export async function setupContentReadsArea(_deps: ServerDeps, _shared: DomainShared): Promise<ModuleSurface> {
  return { actions: [] };
}
