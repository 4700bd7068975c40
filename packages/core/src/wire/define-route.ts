/**
 * The route contract: one declaration per HTTP route, read by the server (validation, mounting,
 * OpenAPI, the action catalog) and by every client (method, path, input and output types).
 * Browser-safe: TypeBox schemas are plain JSON Schema objects, nothing here imports Node.
 */
import type { Static, TSchema } from 'typebox';
import type { ErrorCode } from '../errors/error-codes.js';
import type { CursorPage, CursorPagination, FeedPage, FeedPagination, Page, Pagination } from './envelopes.js';
import type { DefaultedMark } from './shapes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Which routing headers a route needs (interface.md "Target routing"): `environment` needs both
 * `X-CMS-Project` and `X-CMS-Environment`, `project` only the first, `optional` uses them when sent.
 */
export type TargetRule = 'environment' | 'project' | 'optional' | 'none';

/** Whether credentials are needed: `public` routes (login, health) take none. */
export type AuthRule = 'required' | 'optional' | 'public';

/**
 * How the result is wrapped: `{ data }`, a page `{ data, pagination }` (offset pages), a keyset page
 * `{ data, pagination: { limit, hasMore, nextCursor } }` (`cursor`: logs too large to count), a feed
 * `{ data, pagination: { nextCursor, hasMore } }` (`feed`: the cursor is never null), or sent as is.
 */
export type EnvelopeKind = 'single' | 'paginated' | 'cursor' | 'feed' | 'raw';

/**
 * Request schemas. Without `query`, an enveloped route takes no query parameters (any one is
 * INVALID_QUERY_PARAM); a `raw` one ignores them. A `body` whose schema allows `null` is optional.
 * `multipart` describes a `multipart/form-data` body (media upload) for documentation only.
 * Header names are lower case, as HTTP/1.1 and HTTP/2 deliver them.
 */
export interface RouteRequest {
  params?: TSchema;
  query?: TSchema;
  headers?: TSchema;
  body?: TSchema;
  multipart?: TSchema;
}

/**
 * What a route answers on success. Besides its status, a `raw` route names its media type when it is
 * not JSON (`text/event-stream`, `application/xml`, `image/*`; a stored file leaves it out), and a
 * route that honours validators or ranges says so, so OpenAPI declares its 304, 206 and 416 answers.
 */
export interface RouteResponse<
  E extends EnvelopeKind = EnvelopeKind,
  Res extends TSchema | undefined = TSchema | undefined,
> {
  status: 200 | 201 | 302;
  envelope: E;
  schema?: Res;
  /** The media type of a raw answer that is not JSON. */
  contentType?: string;
  /** Answers `304 Not Modified` when `If-None-Match` (or `If-Modified-Since`) shows the copy is current. */
  conditional?: boolean;
  /** Answers a `Range` request with `206 Partial Content`, or `416` when it is outside the file. */
  ranges?: boolean;
}

/** One HTTP route, declared once. */
export interface RouteContract<
  Id extends string = string,
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Req extends RouteRequest = RouteRequest,
  Res extends TSchema | undefined = TSchema | undefined,
  E extends EnvelopeKind = EnvelopeKind,
> {
  /** Action id, e.g. `content.get` (the action catalog's key). */
  id: Id;
  kind: 'command' | 'query';
  method: M;
  /** Path with `{param}` placeholders, as in the interface document: `/api/v1/content/{documentId}`. */
  path: P;
  summary: string;
  target: TargetRule;
  auth?: AuthRule;
  /** Session mutations need the CSRF header unless this is false (login, setup, accept invite). */
  csrf?: boolean;
  /** Query parameters that may repeat (arrays); any other repeated parameter is INVALID_QUERY_PARAM. */
  repeatableQuery?: readonly string[];
  /**
   * Query parameters that carry secrets (tokens, OAuth `code`/`state`): the server's request log
   * line shows them as `[redacted]`.
   */
  secretQuery?: readonly string[];
  request: Req;
  response: RouteResponse<E, Res>;
  /**
   * Codes only the service knows it may answer (a stale revision, a path conflict, a rate limit,
   * an unknown challenge): the rest follow from the declaration. OpenAPI lists both.
   */
  errors?: readonly ErrorCode[];
}

/** Declares a route; the identity function keeps every literal type for inference. */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

type StaticPart<S> = S extends TSchema ? Static<S> : never;

/** The validated value of one declared request part. */
export type RoutePart<C extends RouteContract, K extends keyof RouteRequest> = StaticPart<C['request'][K]>;

type DeclaredParts<C extends RouteContract> = {
  [K in 'params' | 'query' | 'headers' | 'body' as C['request'][K] extends TSchema ? K : never]: RoutePart<C, K>;
};

/** What a caller sends: only the parts the route declares (params, query, headers, body). */
export type RouteInput<C extends RouteContract> = DeclaredParts<C>;

/** The response's data schema as a type (`unknown` when the route declares none). */
export type RouteData<C extends RouteContract> = C['response']['schema'] extends TSchema
  ? Static<C['response']['schema']>
  : unknown;

/** The body a client receives: `data` of `{ data }`, the page of `{ data, pagination }`, or the raw body. */
export type RouteOutput<C extends RouteContract> = C['response']['envelope'] extends 'single'
  ? RouteData<C>
  : C['response']['envelope'] extends 'paginated'
    ? { data: RouteData<C>[]; pagination: Pagination }
    : C['response']['envelope'] extends 'cursor'
      ? { data: RouteData<C>[]; pagination: CursorPagination }
      : C['response']['envelope'] extends 'feed'
        ? { data: RouteData<C>[]; pagination: FeedPagination }
        : unknown;

/** `{documentId}` -> `:documentId`, the router's syntax. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** Fills a path's `{param}` placeholders, each URL-encoded. */
export function fillPath(path: string, params: Readonly<Record<string, string | number>>): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/**
 * A part as the server hands it to a handler: validated, with every `WithDefault` property filled
 * (the validator applies defaults), so present though the caller may omit it.
 */
export type Validated<S> = S extends { properties: infer P }
  ? Flatten<Static<S & TSchema> & { [K in keyof P as P[K] extends DefaultedMark ? K : never]-?: StaticPart<P[K]> }>
  : StaticPart<S>;

type ValidatedPart<
  C extends RouteContract,
  K extends 'params' | 'query' | 'headers' | 'body',
> = C['request'][K] extends TSchema ? Validated<C['request'][K]> : undefined;

/**
 * What the server hands an action's handler and its service method: each declared request part
 * validated by the route's schema (defaults filled, unknown query parameters refused), `undefined`
 * for a part the route does not declare.
 */
export interface ActionInput<C extends RouteContract> {
  params: ValidatedPart<C, 'params'>;
  query: ValidatedPart<C, 'query'>;
  headers: ValidatedPart<C, 'headers'>;
  body: ValidatedPart<C, 'body'>;
}

/**
 * A value the server's response serializer writes as the declared type: timestamps may be `Date`
 * (written as ISO 8601), arrays may be read-only, and objects may carry fields the schema leaves out.
 */
export type Serializable<T> = T extends string
  ? T | Date
  : T extends readonly (infer U)[]
    ? readonly Serializable<U>[]
    : T extends object
      ? { [K in keyof T]: Serializable<T[K]> }
      : T;

/**
 * What an action's service method answers, before the envelope: the `data` of a single envelope,
 * a page for a paginated or keyset one. The server's services declare their answers with it, so
 * the only wire types are the route contracts'.
 */
export type ActionResult<C extends RouteContract> = C['response']['envelope'] extends 'single'
  ? Serializable<RouteData<C>>
  : C['response']['envelope'] extends 'paginated'
    ? Page<Serializable<RouteData<C>>>
    : C['response']['envelope'] extends 'cursor'
      ? CursorPage<Serializable<RouteData<C>>>
      : C['response']['envelope'] extends 'feed'
        ? FeedPage<Serializable<RouteData<C>>>
        : unknown;

/**
 * A service method declared against its route: `(ctx, input) => answer`, the input as the server
 * validated it and the answer as the route declares it. `Ctx` is the server's request context.
 * @example publish: ActionMethod<typeof contentPublishRoute, EnvironmentContext>
 */
export type ActionMethod<C extends RouteContract, Ctx> = (ctx: Ctx, input: ActionInput<C>) => Promise<ActionResult<C>>;
