import { type CatalogItem as CatalogEntry, CmsError, envelopeSchema, type Serializable } from '@cms/core';
import { catalogPermissions } from '../../actions/catalog-permissions.js';
import type { AnyAction, JsonSchema } from '../../actions/define-action.js';
import { buildOpenApiDocument, openApiPath } from '../../actions/openapi.js';
import { permissionFailure, scopesInContext } from '../../http/authorize.js';
import type { RequestContext } from '../../http/request-context.js';

/** An entry of `GET /api/v1/actions` (interface.md "Action catalog item"), as core's contract declares it. */
type CatalogItem = Serializable<CatalogEntry>;

/** Reads the action catalog, filtered by what the caller may do where it stands. */
export function createCatalogService(deps: {
  actions: () => readonly AnyAction[];
  version: string;
  publicUrl: string;
}) {
  let openApiCache: unknown = null;
  return {
    list(ctx: RequestContext): CatalogItem[] {
      return deps
        .actions()
        .filter((action) => isAllowed(action, ctx))
        .map(toCatalogItem);
    },
    get(ctx: RequestContext, id: string): CatalogItem {
      const action = deps.actions().find((candidate) => candidate.id === id);
      if (!action || !isAllowed(action, ctx)) throw new CmsError('NOT_FOUND', `No action "${id}".`);
      return toCatalogItem(action);
    },
    openApi(): unknown {
      openApiCache ??= buildOpenApiDocument(deps.actions(), { version: deps.version, serverUrl: deps.publicUrl });
      return openApiCache;
    },
  };
}

function isAllowed(action: AnyAction, ctx: RequestContext): boolean {
  if (action.auth === 'public') return true;
  // Callers without credentials see only what they could call without them.
  if (ctx.principal.type === 'anonymous') return action.auth === 'optional';
  return permissionFailure(action, scopesInContext(ctx)) === null;
}

function toCatalogItem(action: AnyAction): CatalogItem {
  const request = action.request ?? {};
  const parts = Object.entries({ params: request.params, query: request.query, body: request.body }).filter(
    ([, schema]) => schema !== undefined,
  );
  const responseSchema = envelopeSchema(action.response) as JsonSchema | undefined;
  return {
    id: action.id,
    kind: action.kind,
    method: action.method,
    path: openApiPath(action.path),
    ...catalogPermissions(action),
    target: action.target,
    auth: action.auth ?? 'required',
    ...(action.studio ? { studio: { ...action.studio } } : {}),
    ...(action.cli ? { cli: { ...action.cli } } : {}),
    ...(parts.length > 0 ? { requestSchema: { type: 'object', properties: Object.fromEntries(parts) } } : {}),
    ...(responseSchema ? { responseSchema } : {}),
  };
}

/** The catalog service's type, for action factories. */
export type CatalogService = ReturnType<typeof createCatalogService>;
