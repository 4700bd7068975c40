/** JSON Schemas of `POST /api/v1/environments/{name}/promote` (decisions.md §4). */
import { ENVIRONMENT_NAME_PATTERN } from '../../core-system/environments.schemas.js';

/** Most source documents one promotion may name in `documentIds`. */
export const MAX_PROMOTE_DOCUMENT_IDS = 1000;

/** Path: the source environment. */
export const promoteParamsSchema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN } },
} as const;

/** Body: the target environment, whether to only plan, and an optional selection of source documents. */
export const promoteBodySchema = {
  type: 'object',
  required: ['target'],
  additionalProperties: false,
  properties: {
    target: { type: 'string', pattern: ENVIRONMENT_NAME_PATTERN },
    dryRun: { type: 'boolean', default: false },
    documentIds: {
      type: 'array',
      maxItems: MAX_PROMOTE_DOCUMENT_IDS,
      items: { type: 'string', format: 'uuid' },
    },
  },
} as const;

/** One source document and what promoting it does (or would do) in the target. */
export const promotePlanItemSchema = {
  type: 'object',
  required: ['documentId', 'path', 'locale', 'action'],
  properties: {
    documentId: { type: 'string', format: 'uuid' },
    path: { type: 'string' },
    locale: { type: 'string' },
    action: { type: 'string', enum: ['create', 'update', 'unchanged', 'conflict'] },
    reason: { type: 'string' },
  },
} as const;

/** Answer: the plan, and whether it was written. */
export const promoteResultSchema = {
  type: 'object',
  required: ['plan', 'applied'],
  properties: {
    plan: { type: 'array', items: promotePlanItemSchema },
    applied: { type: 'boolean' },
  },
} as const;
