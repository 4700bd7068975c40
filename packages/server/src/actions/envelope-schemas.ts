import type { ActionDefinition, JsonSchema } from './define-action.js';

export const PAGINATION_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['total', 'limit', 'offset', 'hasMore'],
  properties: {
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    hasMore: { type: 'boolean' },
  },
};

export const ERROR_ENVELOPE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['status', 'code', 'message', 'statusCode', 'details', 'requestId', 'timestamp'],
      properties: {
        status: { const: 'error' },
        code: { type: 'string' },
        message: { type: 'string' },
        statusCode: { type: 'integer' },
        details: { type: 'object', additionalProperties: true },
        requestId: { type: 'string' },
        timestamp: { type: 'string', format: 'date-time' },
      },
    },
  },
};

/** The full response body schema of an action: its data schema inside its envelope. */
export function responseBodySchema(action: Pick<ActionDefinition, 'response'>): JsonSchema | undefined {
  const { envelope, schema } = action.response;
  if (envelope === 'raw' || !schema) return undefined;
  if (envelope === 'single') return { type: 'object', required: ['data'], properties: { data: schema } };
  return {
    type: 'object',
    required: ['data', 'pagination'],
    properties: { data: { type: 'array', items: schema }, pagination: PAGINATION_SCHEMA },
  };
}

/** `{documentId}` -> `:documentId`, the router's syntax. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
