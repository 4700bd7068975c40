import type {
  ActionInput,
  ActionResult,
  AuthRule,
  EnvelopeKind,
  ErrorCode,
  HttpMethod,
  RouteContract,
  Scope,
  TargetRule,
} from '@cms/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContextFor, RequestContext } from '../http/request-context.js';

export type { ActionInput, ActionResult, AuthRule, EnvelopeKind, Serializable, TargetRule } from '@cms/core';

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
  /**
   * `false`: a command that changes nothing a person would call a change (an editor's presence mark,
   * renewed while a document is open), so it writes no audit entry (docs/audit.md "Not written").
   */
  audited?: false;
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
  secretQuery?: readonly string[];
  response: {
    status: 200 | 201 | 302;
    envelope: EnvelopeKind;
    schema?: JsonSchema;
    contentType?: string;
    conditional?: boolean;
    ranges?: boolean;
  };
  /** Codes only the service knows it may answer (the route contract's `errors`). */
  errors?: readonly ErrorCode[];
  bodyLimit?: number;
  setupScope?: (scope: FastifyInstance) => Promise<void>;
  audited?: false;
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
