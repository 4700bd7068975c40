import type { StudioExtension } from '@cms/core';
import { type RequestContext, scopeTargetOf } from '../../http/request-context.js';
import type { ModuleManifest } from '../module-types.js';
import { extensionsFor } from '../studio-contributions.js';
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
  /** The modules' Studio contributions whose permissions the caller holds in the active project. */
  extensions: StudioExtension[];
}

/** Gathers the Studio's start-up data in one answer. */
export function createStudioService(deps: {
  me: MeService;
  projects: ProjectsService;
  environments: EnvironmentsService;
  modules: () => readonly ModuleManifest[];
  extensions: () => readonly StudioExtension[];
}) {
  return {
    async bootstrap(ctx: RequestContext): Promise<StudioBootstrapView> {
      // The same scopes `me.capabilities` is computed from: the active project (and environment).
      const held = ctx.principal.scopesIn(scopeTargetOf(ctx));
      return {
        me: deps.me.me(ctx),
        projects: await deps.projects.list(ctx),
        environments: await deps.environments.list(ctx),
        modules: deps.modules(),
        extensions: extensionsFor(deps.extensions(), held),
      };
    },
  };
}

/** The studio service's type, for action factories. */
export type StudioService = ReturnType<typeof createStudioService>;
