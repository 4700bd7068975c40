import { defineAction } from '../../actions/define-action.js';
import {
  createProjectBodySchema,
  projectSchema,
  projectSettingsSchema,
  putProjectSettingsBodySchema,
} from './projects.schemas.js';
import type { ProjectSettingsView, ProjectsService } from './projects.service.js';

/** Projects: listed as far as the caller may see them; created with `settings:manage`. */
export function projectActions(projects: ProjectsService) {
  return [
    defineAction({
      id: 'projects.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/projects',
      summary: 'List the projects the caller can access',
      permissions: [],
      target: 'none',
      response: { status: 200, envelope: 'single', schema: { type: 'array', items: projectSchema } },
      handler: async (_input, ctx) => projects.list(ctx),
    }),
    defineAction<unknown, unknown, { slug: string; name?: string }>({
      id: 'projects.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/projects',
      summary: 'Create a project with its default environment `production`',
      permissions: ['settings:manage'],
      target: 'none',
      request: { body: createProjectBodySchema },
      response: { status: 201, envelope: 'single', schema: projectSchema },
      handler: async ({ body }, ctx) => projects.create(ctx, body),
    }),
    defineAction({
      id: 'projects.settings.get',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/settings',
      summary: 'Read the settings of the project in X-CMS-Project (the media image size limit)',
      permissions: [],
      target: 'project',
      response: { status: 200, envelope: 'single', schema: projectSettingsSchema },
      handler: async (_input, ctx) => projects.getSettings(ctx),
    }),
    defineAction<unknown, unknown, ProjectSettingsView>({
      id: 'projects.settings.put',
      kind: 'command',
      method: 'PUT',
      path: '/api/v1/settings',
      summary: 'Replace the project settings: mediaImageMaxBytes limits image uploads (null: no extra limit)',
      permissions: ['settings:manage'],
      target: 'project',
      request: { body: putProjectSettingsBodySchema },
      response: { status: 200, envelope: 'single', schema: projectSettingsSchema },
      cli: { alias: 'settings set', inputMode: 'flags' },
      handler: async ({ body }, ctx) => projects.putSettings(ctx, body),
    }),
  ];
}
