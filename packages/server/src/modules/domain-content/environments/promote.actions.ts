import { defineAction } from '../../../actions/define-action.js';
import type { EnvironmentPromoteService } from './environment-promote.service.js';
import { promoteBodySchema, promoteParamsSchema, promoteResultSchema } from './promote.schemas.js';

/** `POST /api/v1/environments/{name}/promote` (decisions.md §4), declared by the content area. */
export function promoteActions(promotion: EnvironmentPromoteService) {
  return [
    defineAction<{ name: string }, unknown, { target: string; dryRun?: boolean; documentIds?: string[] }>({
      id: 'environments.promote',
      kind: 'command',
      method: 'POST',
      path: '/api/v1/environments/{name}/promote',
      summary: 'Promote published documents of this environment to another one (plan, or plan and apply)',
      permissions: ['settings:manage'],
      target: 'project',
      request: { params: promoteParamsSchema, body: promoteBodySchema },
      response: { status: 200, envelope: 'single', schema: promoteResultSchema },
      handler: async ({ params, body }, ctx) => promotion.promote(ctx, { source: params.name, ...body }),
    }),
  ];
}
