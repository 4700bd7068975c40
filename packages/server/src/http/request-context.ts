import type { Scope, TargetRule } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';

/** The project and environment a scoped request targets, resolved from the routing headers. */
export interface Target {
  projectId: string;
  projectSlug: string;
  environmentId: string;
  environmentName: string;
  /** The environment this one extends (schema overlays), or null. */
  extendsEnvironmentId: string | null;
  isDefaultEnvironment: boolean;
}

/** The project alone, for routes that need only `X-CMS-Project`. */
export type ProjectTarget = Pick<Target, 'projectId' | 'projectSlug'>;

/** Who is calling: an API key, a signed-in user, a preview token holder, or nobody. */
export interface Principal {
  readonly type: 'apiKey' | 'user' | 'preview' | 'anonymous';
  readonly id: string;
  readonly label?: string;
  readonly email?: string;
  readonly role?: string;
  /** Authenticated by a session cookie: mutations need the CSRF header. */
  readonly viaSession: boolean;
  /** The session's CSRF token, which `X-CMS-CSRF-Token` must equal (sessions only). */
  readonly csrfToken?: string;
  /** May the principal see this project (and environment, when named) at all? */
  canAccess(projectSlug: string, environmentName: string | null): boolean;
  /** Scopes held in a project/environment, or outside any project when `target` is null. */
  scopesIn(target: { projectSlug: string; environmentName: string | null } | null): ReadonlySet<Scope>;
}

/** Everything a service needs to know about the request: who, where, and its id for logs. */
export interface RequestContext {
  /**
   * The server's own id of the request, unique: `request.id` (the log's `requestId`, the response's
   * `X-Request-Id`) unless the caller sent its own id, which then stays theirs (`clientRequestId`) and
   * this is a new UUID (logged as `serverRequestId`). Audit entries record this one.
   */
  requestId: string;
  /** The caller's `X-Request-Id` when the server kept it as `request.id`, else null. */
  clientRequestId?: string | null;
  principal: Principal;
  project: ProjectTarget | null;
  target: Target | null;
  log: FastifyBaseLogger;
}

const NO_SCOPES: ReadonlySet<Scope> = new Set();

/** The principal of a request without credentials. */
export const ANONYMOUS: Principal = {
  type: 'anonymous',
  id: 'anonymous',
  viaSession: false,
  canAccess: () => false,
  scopesIn: () => NO_SCOPES,
};

/** Where the request stands, as `Principal.scopesIn` takes it: its project and environment, or nowhere. */
export function scopeTargetOf(ctx: RequestContext): { projectSlug: string; environmentName: string | null } | null {
  return ctx.project
    ? { projectSlug: ctx.project.projectSlug, environmentName: ctx.target?.environmentName ?? null }
    : null;
}

/**
 * The context of a `project` route: `resolve-target.ts` fills `project` before the handler runs
 * (`target-guard.ts` refuses a request without `X-CMS-Project`), so services taking it never check.
 */
export interface ProjectContext extends RequestContext {
  project: ProjectTarget;
}

/**
 * The context of an `environment` route: project and environment are resolved before the handler
 * runs, so a service taking it reads `ctx.target` without a check (the compiler holds callers to it).
 */
export interface EnvironmentContext extends ProjectContext {
  target: Target;
}

/** The context a handler receives, by its route's target rule. */
export type ContextFor<T extends TargetRule> = T extends 'environment'
  ? EnvironmentContext
  : T extends 'project'
    ? ProjectContext
    : RequestContext;
