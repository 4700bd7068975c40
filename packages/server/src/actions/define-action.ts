import type {
  AuthRule,
  EnvelopeKind,
  HttpMethod,
  Page,
  RouteContract,
  RouteData,
  Scope,
  TargetRule,
  TSchema,
  Validated,
} from '@cms/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContextFor, RequestContext } from '../http/request-context.js';

export type { AuthRule, EnvelopeKind, TargetRule } from '@cms/core';

/** A JSON Schema object, as mounting, the catalog and OpenAPI read it. */
export type JsonSchema = Record<string, unknown>;

/** Escape hatch for the few handlers that set cookies, redirect or stream. */
export interface HttpAccess {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Studio hints of the action catalog (interface.md "Action catalog item"). */
export interface StudioHints {
  visibility?: 'visible' | 'hidden';
  surface?: string;
  label?: string;
  formHints?: Record<string, unknown>;
}

/** CLI hints of the action catalog. */
export interface CliHints {
  visibility?: 'visible' | 'hidden';
  alias?: string;
  inputMode?: 'json' | 'flags' | 'file' | 'none';
}

type Part<C extends RouteContract, K extends 'params' | 'query' | 'headers' | 'body'> = C['request'][K] extends TSchema
  ? Validated<C['request'][K]>
  : undefined;

/**
 * What a handler receives: each declared request part validated by the route's schema (defaults
 * filled, unknown query parameters refused), `undefined` for a part the route does not declare.
 */
export interface ActionInput<C extends RouteContract> {
  params: Part<C, 'params'>;
  query: Part<C, 'query'>;
  headers: Part<C, 'headers'>;
  body: Part<C, 'body'>;
}

/**
 * A value the response serializer writes as the declared type: timestamps may be `Date` (written
 * as ISO 8601), arrays may be read-only, and objects may carry fields the schema leaves out.
 */
export type Serializable<T> = T extends string
  ? T | Date
  : T extends readonly (infer U)[]
    ? readonly Serializable<U>[]
    : T extends object
      ? { [K in keyof T]: Serializable<T[K]> }
      : T;

/** What a handler returns: the `data` of a single envelope, a page for a paginated one. */
export type ActionResult<C extends RouteContract> = C['response']['envelope'] extends 'single'
  ? Serializable<RouteData<C>>
  : C['response']['envelope'] extends 'paginated'
    ? Page<Serializable<RouteData<C>>>
    : unknown;

/** What only the server knows about a route: who may call it, how it is answered, client hints. */
export interface ActionSpec<C extends RouteContract> {
  route: C;
  /** Every scope listed is required in the request's target. */
  permissions: readonly Scope[];
  /**
   * At least one of these is required as well (checked with `permissions`, before the body is
   * read): `content:write` or `content:write:draft` for draft writes (decisions.md §3).
   */
  anyPermissions?: readonly Scope[];
  /** Overrides the server's body limit (uploads). */
  bodyLimit?: number;
  /**
   * Fastify setup for this route alone, applied in an encapsulated scope that holds only it: how
   * a route gets its own content-type parsers (media upload parses multipart, nothing else does).
   */
  setupScope?: (scope: FastifyInstance) => Promise<void>;
  studio?: StudioHints;
  cli?: CliHints;
  /** Calls one service; the context is typed by the route's target rule (resolved before). */
  handler: (input: ActionInput<C>, ctx: ContextFor<C['target']>, http: HttpAccess) => Promise<ActionResult<C>>;
}

/** One mounted route: its contract flattened with the server's part; mounting, catalog and OpenAPI read it. */
export interface ActionDefinition {
  id: string;
  kind: 'command' | 'query';
  method: HttpMethod;
  /** Path with `{param}` placeholders, as in the interface document. */
  path: string;
  summary: string;
  permissions: readonly Scope[];
  anyPermissions?: readonly Scope[];
  target: TargetRule;
  auth?: AuthRule;
  csrf?: boolean;
  request?: {
    params?: JsonSchema;
    query?: JsonSchema;
    body?: JsonSchema;
    headers?: JsonSchema;
    multipart?: JsonSchema;
  };
  repeatableQuery?: readonly string[];
  response: { status: 200 | 201 | 302; envelope: EnvelopeKind; schema?: JsonSchema };
  bodyLimit?: number;
  setupScope?: (scope: FastifyInstance) => Promise<void>;
  studio?: StudioHints;
  cli?: CliHints;
  handler: (input: ActionInput<RouteContract>, ctx: RequestContext, http: HttpAccess) => Promise<unknown>;
}

/** Every action as lists of actions hold them. */
export type AnyAction = ActionDefinition;

/**
 * Declares an action from its route contract (`@cms/core` wire) and what only the server knows;
 * the handler's input, context and result types are inferred from the contract.
 */
export function defineAction<const C extends RouteContract>(spec: ActionSpec<C>): ActionDefinition {
  const { route, handler, ...server } = spec;
  return {
    ...(route as unknown as Omit<ActionDefinition, 'permissions' | 'handler'>),
    ...server,
    handler: handler as unknown as ActionDefinition['handler'],
  };
}
