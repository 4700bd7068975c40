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

/** Creates the resolver; the cache is safe to lose and cleared on any `targets` invalidation. */
export function createTargetResolver(db: Queryable, bus: InvalidationBus): TargetResolver {
  const projects = new Map<string, ProjectRow>();
  const environments = new Map<string, EnvironmentRow>();
  const forget = () => {
    projects.clear();
    environments.clear();
  };
  bus.subscribe('targets', forget);
  const remember = <T>(map: Map<string, T>, key: string, value: T) => {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, value);
  };
  return {
    forget,
    async findProject(slug) {
      const cached = projects.get(slug);
      if (cached) return cached;
      const row = await findProjectBySlug(db, slug);
      if (row) remember(projects, slug, row);
      return row;
    },
    async findEnvironment(project, name) {
      const key = `${project.id}\u0000${name}`;
      const cached = environments.get(key);
      if (cached) return cached;
      const row = await findEnvironment(db, project.id, name);
      if (row) remember(environments, key, row);
      return row;
    },
  };
}
