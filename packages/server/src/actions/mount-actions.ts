import {
  type CmsError,
  type CursorPage,
  envelopeSchema,
  type FeedPage,
  invalidQueryParam,
  NoQuery,
  type Page,
  type RouteContract,
  toRouterPath,
} from '@cms/core';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { runInAuditScope } from '../audit/audit-scope.js';
import { auditScopeOf, isAudited } from '../http/audit-hook.js';
import { checkRequestInput, numericParametersOf, withIntegerBounds } from '../http/input-rules.js';
import type { ActionInput, AnyAction, JsonSchema } from './define-action.js';

/** Mounts every action from its declaration: validation, serialization, envelope, status. */
export function mountActions(app: FastifyInstance, actions: readonly AnyAction[]): void {
  for (const action of actions) {
    const body = envelopeSchema(action.response);
    const query = withIntegerBounds(querySchemaOf(action));
    const params = withIntegerBounds(action.request?.params);
    const requestBody = withIntegerBounds(action.request?.body);
    const numeric = { query: numericParametersOf(query), params: numericParametersOf(params) };
    const route: RouteOptions = {
      method: action.method,
      url: toRouterPath(action.path),
      config: { action },
      ...(action.bodyLimit ? { bodyLimit: action.bodyLimit } : {}),
      schema: {
        ...(params ? { params } : {}),
        ...(query ? { querystring: query } : {}),
        ...(requestBody ? { body: requestBody } : {}),
        ...(action.request?.headers ? { headers: action.request.headers } : {}),
        ...(body ? { response: { [action.response.status]: body } } : {}),
      },
      // The input rules (docs/api.md "Input rules") run before schema validation, on every route.
      preValidation: (request, _reply, done) => {
        try {
          checkRequestInput(request, numeric);
          done(repeatedQueryParamsError(request, action) ?? undefined);
        } catch (error: unknown) {
          done(error as Error);
        }
      },
      handler: async (request, reply) => {
        const input = {
          params: request.params,
          query: request.query ?? {},
          body: request.body,
          headers: request.headers,
        } as unknown as ActionInput<RouteContract>;
        const run = () => action.handler(input, request.ctx, { request, reply });
        // A command's audit entry is written by the first transaction that commits inside its scope.
        const result = isAudited(action) ? await runInAuditScope(auditScopeOf(request, action), run) : await run();
        if (action.response.envelope === 'raw') return reply.sent ? reply : result;
        reply.code(action.response.status);
        if (action.response.envelope === 'single') return { data: result };
        if (action.response.envelope === 'cursor') {
          const page = result as CursorPage<unknown>;
          return {
            data: page.items,
            pagination: { limit: page.limit, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor },
          };
        }
        if (action.response.envelope === 'feed') {
          const feed = result as FeedPage<unknown>;
          return { data: feed.items, pagination: { nextCursor: feed.nextCursor, hasMore: feed.hasMore } };
        }
        const page = result as Page<unknown>;
        return {
          data: page.items,
          pagination: {
            total: page.total,
            limit: page.limit,
            offset: page.offset,
            hasMore: page.offset + page.items.length < page.total,
            ...(page.totalIsCapped === undefined ? {} : { totalIsCapped: page.totalIsCapped }),
          },
        };
      },
    };
    const { setupScope } = action;
    if (!setupScope) {
      app.route(route);
      continue;
    }
    // Encapsulated: parsers and decorators registered by setupScope reach this route only.
    app.register(async (scope) => {
      await setupScope(scope);
      scope.route(route);
    });
  }
}

/**
 * The declared query schema; an API route (`single` or `paginated` envelope) that declares none takes
 * no parameters, so any one is INVALID_QUERY_PARAM (decisions.md §3). `raw` routes answer documents
 * of their own (files at their capability url, health, OpenAPI), where a query string is ignored as a
 * static file server would (`?v=2` cache busting on a media url keeps working).
 */
export function querySchemaOf(action: AnyAction): JsonSchema | undefined {
  if (action.request?.query) return action.request.query;
  return action.response.envelope === 'raw' ? undefined : (NoQuery as unknown as JsonSchema);
}

/** A parameter sent twice is ambiguous: only declared repeatable ones may be (decisions.md §3). */
function repeatedQueryParamsError(request: FastifyRequest, action: AnyAction): CmsError | null {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return null;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && !action.repeatableQuery?.includes(name)) fields[name] = 'must not be repeated';
  }
  return Object.keys(fields).length > 0 ? invalidQueryParam(fields) : null;
}
