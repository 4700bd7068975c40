import type { RequestContext } from '../../http/request-context.js';
import type { ModuleManifest } from '../module-types.js';
import type { EnvironmentsService, EnvironmentView } from './environments.service.js';
import type { MeService, MeView } from './me.service.js';
import type { ProjectsService, ProjectView } from './projects.service.js';

/** What the Studio loads once at start (`GET /api/v1/studio/bootstrap`). */
export interface StudioBootstrapView {
  me: MeView;
  projects: ProjectView[];
  /** Environments of the active project (X-CMS-Project), else empty. */
  environments: EnvironmentView[];
  modules: readonly ModuleManifest[];
  /** Studio extension points contributed by modules; none are registered yet. */
  extensions: Record<string, unknown>[];
}

/** Gathers the Studio's start-up data in one answer. */
export function createStudioService(deps: {
  me: MeService;
  projects: ProjectsService;
  environments: EnvironmentsService;
  modules: () => readonly ModuleManifest[];
}) {
  return {
    async bootstrap(ctx: RequestContext): Promise<StudioBootstrapView> {
      return {
        me: deps.me.me(ctx),
        projects: await deps.projects.list(ctx),
        environments: await deps.environments.list(ctx),
        modules: deps.modules(),
        extensions: [],
      };
    },
  };
}

/** The studio service's type, for action factories. */
export type StudioService = ReturnType<typeof createStudioService>;
