/** `POST /api/v1/environments/{name}/promote` (decisions.md §4). */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { ENVIRONMENT_NAME_PATTERN, StringEnum, Uuid, WithDefault } from './shapes.js';

/** Most source documents one promotion may name in `documentIds`. */
export const MAX_PROMOTE_DOCUMENT_IDS = 1000;

/** Path: the source environment. */
export const PromoteParamsSchema = Type.Object({ name: Type.String({ pattern: ENVIRONMENT_NAME_PATTERN }) });

/** Body: the target environment, whether to only plan, and an optional selection of source documents. */
export const PromoteBodySchema = Type.Object(
  {
    target: Type.String({ pattern: ENVIRONMENT_NAME_PATTERN }),
    dryRun: WithDefault(Type.Boolean(), false),
    documentIds: Type.Optional(Type.Array(Uuid, { maxItems: MAX_PROMOTE_DOCUMENT_IDS })),
  },
  { additionalProperties: false },
);

/** One source document and what promoting it does (or would do) in the target. */
export const PromotePlanItemSchema = Type.Object({
  documentId: Uuid,
  path: Type.String(),
  locale: Type.String(),
  action: StringEnum(['create', 'update', 'unchanged', 'conflict']),
  reason: Type.Optional(Type.String()),
});
export type PromotePlanItem = Static<typeof PromotePlanItemSchema>;

/** Answer: the plan, and whether it was written. */
export const PromoteResultSchema = Type.Object({ plan: Type.Array(PromotePlanItemSchema), applied: Type.Boolean() });
export type PromoteResult = Static<typeof PromoteResultSchema>;

export const environmentsPromoteRoute = defineRoute({
  id: 'environments.promote',
  kind: 'command',
  method: 'POST',
  path: '/api/v1/environments/{name}/promote',
  summary: 'Promote published documents of this environment to another one (plan, or plan and apply)',
  target: 'project',
  request: { params: PromoteParamsSchema, body: PromoteBodySchema },
  response: { status: 200, envelope: 'single', schema: PromoteResultSchema },
  errors: ['ENVIRONMENT_NOT_FOUND', 'CONTENT_PATH_CONFLICT'],
});
