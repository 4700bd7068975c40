import { defineAction } from '../../actions/define-action.js';
import {
  createEnvironmentBodySchema,
  environmentDeletedSchema,
  environmentNameParamsSchema,
  environmentSchema,
} from './environments.schemas.js';
import type { CreateEnvironmentInput, EnvironmentsService } from './environments.service.js';

/** Environment routes of `core.system` (cloning is done by, and promotion declared in, the content area). */
export function environmentActions(environments: EnvironmentsService) {
  return [
    defineAction({
      id: 'environments.list',
      kind: 'query',
      method: 'GET',
      path: '/api/v1/environments',
      summary: "List the project's environments",
      permissions: [],
      // interface.md "Target routing" §3: the listing needs only the project header.
      target: 'project',
      response: { status: 200, envelope: 'single', schema: { type: 'array', items: environmentSchema } },
      handler: async (_input, ctx) => environments.list(ctx),
    }),
    defineAction<unknown, unknown, CreateEnvironmentInput>({
      id: 'environments.create',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/environments',
      summary: 'Create an environment in the project, optionally extending or cloning another one',
      permissions: ['settings:manage'],
      target: 'project',
      request: { body: createEnvironmentBodySchema },
      response: { status: 201, envelope: 'single', schema: environmentSchema },
      handler: async ({ body }, ctx) => environments.create(ctx, body),
    }),
    defineAction<{ name: string }>({
      id: 'environments.delete',
      kind: 'command',
      method: 'DELETE',
      path: '/api/v1/environments/{name}',
      summary: 'Delete an environment and everything in it (not the default one)',
      permissions: ['settings:manage'],
      target: 'project',
      request: { params: environmentNameParamsSchema },
      response: { status: 200, envelope: 'single', schema: environmentDeletedSchema },
      handler: async ({ params }, ctx) => environments.remove(ctx, params.name),
    }),
  ];
}
