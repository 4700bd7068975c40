import type { Serializable, StudioBootstrap, StudioExtension } from '@cms/core';
import { type RequestContext, scopeTargetOf } from '../../http/request-context.js';
import type { ModuleManifest } from '../module-types.js';
import { extensionsFor } from '../studio-contributions.js';
import type { EnvironmentsService } from './environments.service.js';
import type { MeService } from './me.service.js';
import type { ProjectsService } from './projects.service.js';

/** What the Studio loads once at start (`GET /api/v1/studio/bootstrap`). */
export type StudioBootstrapView = Serializable<StudioBootstrap>;

/** Gathers the Studio's start-up data in one answer. */
export function createStudioService(deps: {
  me: MeService;
  projects: ProjectsService;
  environments: EnvironmentsService;
  modules: () => readonly ModuleManifest[];
  extensions: () => readonly StudioExtension[];
  /** CMS_PUBLIC_URL, null when the server names itself by HOST and PORT. */
  publicUrl: string | null;
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
        publicUrl: deps.publicUrl,
      };
    },
  };
}

/** The studio service's type, for action factories. */
export type StudioService = ReturnType<typeof createStudioService>;
