import semver from 'semver';
import type { ModuleManifest, ServerModule } from './module-types.js';
import { assertStudioContributions, StudioContributionError } from './studio-contributions.js';

/** The version modules are checked against (minCoreVersion / maxCoreVersion). */
export const CORE_VERSION = '1.0.0';

const MODULE_ID = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;
const KINDS = new Set(['core', 'domain']);

/** A module that cannot be loaded; the server refuses to start and names it. */
export class ModuleValidationError extends Error {
  constructor(
    readonly moduleId: string,
    readonly reason: string,
  ) {
    super(`Module "${moduleId}" cannot be loaded: ${reason}`);
    this.name = 'ModuleValidationError';
  }
}

/**
 * Validates every module (manifest, core version range, dependencies, cycles, Studio contributions)
 * and returns them in mount order: dependencies first, ties broken by manifest id so the order never
 * depends on the order modules were listed in.
 */
export function loadModules(modules: readonly ServerModule[], coreVersion = CORE_VERSION): ServerModule[] {
  const byId = new Map<string, ServerModule>();
  for (const module of modules) {
    const id = describeId(module);
    assertManifest(module.manifest, id, coreVersion);
    if (byId.has(id)) throw new ModuleValidationError(id, 'another module has the same id');
    byId.set(id, module);
  }
  for (const module of byId.values()) {
    for (const dependency of module.manifest.dependsOn ?? []) {
      if (!byId.has(dependency)) {
        throw new ModuleValidationError(module.manifest.id, `depends on "${dependency}", which is not installed`);
      }
    }
  }
  const ordered = orderByDependencies(byId);
  try {
    assertStudioContributions(ordered);
  } catch (error: unknown) {
    if (error instanceof StudioContributionError) throw new ModuleValidationError(error.moduleId, error.message);
    throw error;
  }
  return ordered;
}

function describeId(module: ServerModule): string {
  const id = (module?.manifest as Partial<ModuleManifest> | undefined)?.id;
  return typeof id === 'string' && id ? id : '(unnamed)';
}

function assertManifest(manifest: ModuleManifest | undefined, id: string, coreVersion: string): void {
  const fail = (reason: string): never => {
    throw new ModuleValidationError(id, reason);
  };
  if (!manifest || typeof manifest !== 'object') throw new ModuleValidationError(id, 'the manifest is missing');
  if (!MODULE_ID.test(manifest.id ?? '')) fail('id must be dotted lowercase words, like "domain.content"');
  if (typeof manifest.version !== 'string' || !semver.valid(manifest.version)) {
    fail(`version "${String(manifest.version)}" is not a semantic version`);
  }
  if (manifest.apiVersion !== '1') fail(`apiVersion must be "1", got "${String(manifest.apiVersion)}"`);
  if (manifest.kind !== undefined && !KINDS.has(manifest.kind)) fail(`kind "${String(manifest.kind)}" is unknown`);
  if (manifest.dependsOn !== undefined) {
    if (!Array.isArray(manifest.dependsOn) || manifest.dependsOn.some((d) => typeof d !== 'string')) {
      fail('dependsOn must be a list of module ids');
    }
    if (manifest.dependsOn.includes(manifest.id)) fail('it depends on itself');
  }
  for (const key of ['minCoreVersion', 'maxCoreVersion'] as const) {
    const value = manifest[key];
    if (value !== undefined && !semver.valid(value)) fail(`${key} "${String(value)}" is not a semantic version`);
  }
  if (manifest.minCoreVersion && semver.lt(coreVersion, manifest.minCoreVersion)) {
    fail(`needs core ${manifest.minCoreVersion} or later, this server is ${coreVersion}`);
  }
  if (manifest.maxCoreVersion && semver.gt(coreVersion, manifest.maxCoreVersion)) {
    fail(`supports core up to ${manifest.maxCoreVersion}, this server is ${coreVersion}`);
  }
}

/** Kahn's algorithm with a sorted ready list; what remains unsorted is a cycle. */
function orderByDependencies(byId: Map<string, ServerModule>): ServerModule[] {
  const remaining = new Map([...byId].map(([id, m]) => [id, new Set(m.manifest.dependsOn ?? [])]));
  const ordered: ServerModule[] = [];
  while (remaining.size > 0) {
    const ready = [...remaining].filter(([, deps]) => deps.size === 0).map(([id]) => id);
    if (ready.length === 0) {
      const cycle = [...remaining.keys()].sort();
      throw new ModuleValidationError(cycle[0] as string, `dependency cycle among ${cycle.join(', ')}`);
    }
    const next = ready.sort()[0] as string;
    ordered.push(byId.get(next) as ServerModule);
    remaining.delete(next);
    for (const deps of remaining.values()) deps.delete(next);
  }
  return ordered;
}
