import type { Scope } from '@cms/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../http/request-context.js';

/** A JSON Schema object, as written in action declarations. */
export type JsonSchema = Record<string, unknown>;

/**
 * Which routing headers an action needs (interface.md "Target routing"):
 * `environment` needs both, `project` only X-CMS-Project, `optional` uses them when sent.
 */
export type TargetRule = 'environment' | 'project' | 'optional' | 'none';

/** Whether credentials are needed: `public` routes (login, health) take none. */
export type AuthRule = 'required' | 'optional' | 'public';

/** How the handler's result is wrapped: `{ data }`, a page, or sent by the handler itself. */
export type EnvelopeKind = 'single' | 'paginated' | 'raw';

/** Validated request parts handed to a handler. */
export interface ActionInput<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
}

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

/** One route, declared once: mounting, the catalog and OpenAPI all read this. */
export interface ActionDefinition<P = unknown, Q = unknown, B = unknown, R = unknown> {
  id: string;
  kind: 'command' | 'query';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with `{param}` placeholders, as in the interface document. */
  path: string;
  summary: string;
  /** Every scope listed is required in the request's target. */
  permissions: readonly Scope[];
  /**
   * At least one of these is required as well (checked with `permissions`, before the body is
   * read): `content:write` or `content:write:draft` for draft writes (decisions.md §3).
   */
  anyPermissions?: readonly Scope[];
  target: TargetRule;
  auth?: AuthRule;
  /** Session mutations need the CSRF header unless this is false (login, setup, accept invite). */
  csrf?: boolean;
  /**
   * Request schemas. Without `query`, an enveloped action takes no query parameters (any one is
   * INVALID_QUERY_PARAM); a `raw` one ignores them. A `body` whose schema allows `null` is optional.
   * `multipart` describes a `multipart/form-data` body for the catalog and OpenAPI only: the action's
   * `setupScope` parses it (see `singleFileFormSchema`).
   */
  request?: {
    params?: JsonSchema;
    query?: JsonSchema;
    body?: JsonSchema;
    headers?: JsonSchema;
    multipart?: JsonSchema;
  };
  /** Query parameters that may repeat (arrays); any other repeated parameter is INVALID_QUERY_PARAM. */
  repeatableQuery?: readonly string[];
  response: { status: 200 | 201 | 302; envelope: EnvelopeKind; schema?: JsonSchema };
  /** Overrides the server's body limit (uploads). */
  bodyLimit?: number;
  /**
   * Fastify setup for this route alone, applied in an encapsulated scope that holds only it: how
   * a route gets its own content-type parsers (media upload parses multipart, nothing else does).
   */
  setupScope?: (scope: FastifyInstance) => Promise<void>;
  studio?: StudioHints;
  cli?: CliHints;
  handler: (input: ActionInput<P, Q, B>, ctx: RequestContext, http: HttpAccess) => Promise<R>;
}

/** An action with its type parameters erased, as lists of actions hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds actions of many input types; each is checked where declared.
export type AnyAction = ActionDefinition<any, any, any, any>;

/** Declares an action; the identity function exists for type inference. */
export function defineAction<P = unknown, Q = unknown, B = unknown, R = unknown>(
  action: ActionDefinition<P, Q, B, R>,
): ActionDefinition<P, Q, B, R> {
  return action;
}

/** The `multipart/form-data` body of one required binary part named `part` (media upload: `file`). */
export function singleFileFormSchema(part: string): JsonSchema {
  return {
    type: 'object',
    required: [part],
    properties: { [part]: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' } },
  };
}
