/**
 * Query-cache entries that more than one page reads, with one key each, so a page that changes the
 * data can update or invalidate what the others show (docs/studio.md "Data fetching"). Keys start
 * with what the data is, then the project (and environment) it belongs to.
 */
import type { ProjectSettings } from '@cms/sdk';
import { useQueries, useQuery } from '@tanstack/react-query';
import { content, type Environment, environments, type Target } from '../api/index.js';
import { at, viaSdk } from '../api/sdk.js';

export const environmentsKey = (project: string) => ['environments', project] as const;

/** The environments of each project named, read once each, by project slug; a refusal is kept per project. */
export function useEnvironmentLists(projects: readonly string[]) {
  return useQueries({
    queries: projects.map((project) => ({
      queryKey: environmentsKey(project),
      queryFn: () => environments.list(project),
    })),
    combine: (results) =>
      Object.fromEntries(
        results.map((result, index) => [
          projects[index] as string,
          { data: (result.data ?? null) as Environment[] | null, error: result.error },
        ]),
      ),
  });
}

export const projectSettingsKey = (project: string) => ['project-settings', project] as const;

/**
 * The project's settings (`GET /api/v1/settings`): the settings panel, the media library's image limit
 * and the live preview's `previewUrl`.
 */
export function useProjectSettings(project: string, enabled = true) {
  return useQuery({
    queryKey: projectSettingsKey(project),
    queryFn: (): Promise<ProjectSettings> => viaSdk(() => at({ project }).projects.settings()),
    enabled,
  });
}

/** The locale variants of a document (the editor's translation views read the same entry). */
export function useVariants(target: Target, documentId: string, enabled = true) {
  return useQuery({
    queryKey: ['variants', target.project, target.environment, documentId],
    queryFn: () => content.variants(target, documentId),
    enabled,
  });
}
