import { defineAction } from '../../actions/define-action.js';
import { createProjectBodySchema, projectSchema } from './projects.schemas.js';
import type { ProjectsService } from './projects.service.js';

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
  ];
}
