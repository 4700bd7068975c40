import {
  projectsCreateRoute,
  projectsListRoute,
  projectsSettingsGetRoute,
  projectsSettingsPatchRoute,
  projectsSettingsPutRoute,
} from '@cms/core';
import { type AnyAction, defineAction } from '../../actions/define-action.js';
import type { ProjectsService } from './projects.service.js';

/** Projects: listed as far as the caller may see them; created with `settings:manage`. */
export function projectActions(projects: ProjectsService): AnyAction[] {
  return [
    defineAction({
      route: projectsListRoute,
      permissions: [],
      handler: async (_input, ctx) => projects.list(ctx),
    }),
    defineAction({
      route: projectsCreateRoute,
      permissions: ['settings:manage'],
      handler: async ({ body }, ctx) => projects.create(ctx, body),
    }),
    defineAction({
      route: projectsSettingsGetRoute,
      permissions: [],
      handler: async (_input, ctx) => projects.getSettings(ctx),
    }),
    defineAction({
      route: projectsSettingsPutRoute,
      permissions: ['settings:manage'],
      handler: async ({ body }, ctx) => projects.putSettings(ctx, body),
    }),
    defineAction({
      route: projectsSettingsPatchRoute,
      permissions: ['settings:manage'],
      handler: async ({ body }, ctx) => projects.patchSettings(ctx, body),
    }),
  ];
}
