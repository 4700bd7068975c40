import type { Queryable } from '../storage/db.js';
import { type EnvironmentRow, findEnvironment } from '../storage/repositories/environments.repository.js';
import { findProjectBySlug, type ProjectRow } from '../storage/repositories/projects.repository.js';
import { createInvalidatedCache } from './invalidated-cache.js';
import type { InvalidationBus } from './invalidation.js';

/** Resolves routing headers to rows; caches hits (never misses) until told to forget. */
export interface TargetResolver {
  findProject(slug: string): Promise<ProjectRow | null>;
  findEnvironment(project: ProjectRow, name: string): Promise<EnvironmentRow | null>;
  /** The cached project, or undefined when only a query could tell (not cached, or the bus not live). */
  cachedProject(slug: string): ProjectRow | null | undefined;
  /** The cached environment, or undefined when only a query could tell. */
  cachedEnvironment(project: ProjectRow, name: string): EnvironmentRow | null | undefined;
  /**
   * Drops every cached row now. For the process that made a change, after it commits: the `targets`
   * invalidation reaches this process's own cache only when the notification comes back (PostgreSQL).
   */
  forget(): void;
}

const MAX_ENTRIES = 10_000;

const environmentKey = (project: ProjectRow, name: string) => `${project.id}\u0000${name}`;

/**
 * Creates the resolver; the cache is safe to lose and cleared on any `targets` invalidation. It is
 * bypassed while the bus is not live (invalidations could be missed).
 */
export function createTargetResolver(db: Queryable, bus: InvalidationBus): TargetResolver {
  // Hits only: requests naming projects or environments that do not exist cannot push real rows out.
  const options = { bus, topic: 'targets', maxEntries: MAX_ENTRIES, keeps: (row: unknown) => row !== null } as const;
  const projects = createInvalidatedCache<ProjectRow | null>(options);
  const environments = createInvalidatedCache<EnvironmentRow | null>(options);
  return {
    forget() {
      projects.forget();
      environments.forget();
    },
    findProject: (slug) => projects.fetch(slug, () => findProjectBySlug(db, slug)),
    findEnvironment: (project, name) =>
      environments.fetch(environmentKey(project, name), () => findEnvironment(db, project.id, name)),
    cachedProject: (slug) => projects.cached(slug),
    cachedEnvironment: (project, name) => environments.cached(environmentKey(project, name)),
  };
}
