import { defineAction } from '../../actions/define-action.js';
import { environmentSchema } from './environments.schemas.js';
import type { EnvironmentsService } from './environments.service.js';

/** Environment routes of `core.system` (create and delete come with identity; clone/promote with content). */
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
  ];
}
