import type { Queryable } from '../storage/db.js';
import { type EnvironmentRow, findEnvironment } from '../storage/repositories/environments.repository.js';
import { findProjectBySlug, type ProjectRow } from '../storage/repositories/projects.repository.js';
import type { InvalidationBus } from './invalidation.js';

/** Resolves routing headers to rows; caches hits (never misses) until told to forget. */
export interface TargetResolver {
  findProject(slug: string): Promise<ProjectRow | null>;
  findEnvironment(project: ProjectRow, name: string): Promise<EnvironmentRow | null>;
  /**
   * Drops every cached row now. For the process that made a change, after it commits: the `targets`
   * invalidation reaches this process's own cache only when the notification comes back (PostgreSQL).
   */
  forget(): void;
}

const MAX_ENTRIES = 10_000;

/**
 * Creates the resolver; the cache is safe to lose and cleared on any `targets` invalidation. It is
 * bypassed while the bus is not live (invalidations could be missed).
 */
export function createTargetResolver(db: Queryable, bus: InvalidationBus): TargetResolver {
  const projects = new Map<string, ProjectRow>();
  const environments = new Map<string, EnvironmentRow>();
  // Bumped on every forget: a lookup that started before it must not refill the cache after it.
  let generation = 0;
  const forget = () => {
    generation += 1;
    projects.clear();
    environments.clear();
  };
  bus.subscribe('targets', forget);
  const cached = <T>(map: Map<string, T>, key: string): T | undefined => (bus.isLive() ? map.get(key) : undefined);
  const remember = <T>(map: Map<string, T>, key: string, value: T, startedAt: number) => {
    if (startedAt !== generation) return;
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, value);
  };
  return {
    forget,
    async findProject(slug) {
      const hit = cached(projects, slug);
      if (hit) return hit;
      const startedAt = generation;
      const row = await findProjectBySlug(db, slug);
      if (row) remember(projects, slug, row, startedAt);
      return row;
    },
    async findEnvironment(project, name) {
      const key = `${project.id}\u0000${name}`;
      const hit = cached(environments, key);
      if (hit) return hit;
      const startedAt = generation;
      const row = await findEnvironment(db, project.id, name);
      if (row) remember(environments, key, row, startedAt);
      return row;
    },
  };
}
