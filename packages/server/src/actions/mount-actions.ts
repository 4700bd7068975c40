import { type CmsError, invalidQueryParam, type Page } from '@cms/core';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AnyAction } from './define-action.js';
import { responseBodySchema, toRouterPath } from './envelope-schemas.js';

/** Mounts every action from its declaration: validation, serialization, envelope, status. */
export function mountActions(app: FastifyInstance, actions: readonly AnyAction[]): void {
  for (const action of actions) {
    const body = responseBodySchema(action);
    const route: RouteOptions = {
      method: action.method,
      url: toRouterPath(action.path),
      config: { action },
      ...(action.bodyLimit ? { bodyLimit: action.bodyLimit } : {}),
      schema: {
        ...(action.request?.params ? { params: action.request.params } : {}),
        ...(action.request?.query ? { querystring: action.request.query } : {}),
        ...(action.request?.body ? { body: action.request.body } : {}),
        ...(action.request?.headers ? { headers: action.request.headers } : {}),
        ...(body ? { response: { [action.response.status]: body } } : {}),
      },
      preValidation: (request, _reply, done) => done(repeatedQueryParamsError(request, action) ?? undefined),
      handler: async (request, reply) => {
        const input = { params: request.params, query: request.query ?? {}, body: request.body };
        const result = await action.handler(input, request.ctx, { request, reply });
        if (action.response.envelope === 'raw') return reply.sent ? reply : result;
        reply.code(action.response.status);
        if (action.response.envelope === 'single') return { data: result };
        const page = result as Page<unknown>;
        return {
          data: page.items,
          pagination: {
            total: page.total,
            limit: page.limit,
            offset: page.offset,
            hasMore: page.offset + page.items.length < page.total,
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
