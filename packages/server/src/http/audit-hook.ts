import type { AuditActor, AuditTarget } from '@cms/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnyAction } from '../actions/define-action.js';
import { inputChanges } from '../audit/audit-changes.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { EMPTY_TARGET } from '../audit/audit-recorder.js';
import { type AuditScope, outcomeOfStatus } from '../audit/audit-scope.js';
import type { Principal } from './request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The audit entry of a mutating action (docs/audit.md), opened when its handler starts. */
    auditScope?: AuditScope;
  }
}

/**
 * Does this action write an audit entry? Every command of the catalog does (docs/audit.md "Coverage"),
 * except those declared `audited: false` (presence marks, which change nothing).
 */
export function isAudited(action: AnyAction): boolean {
  return action.kind === 'command' && action.audited !== false;
}

/**
 * Sign-in actions (`auth.*`, the device flow's `auth.cli.*` among them): their refusals are entries even
 * without a caller (failed logins).
 */
function isSignInAction(id: string): boolean {
  return id.startsWith('auth.') || id === 'setup.complete' || id === 'invites.accept';
}

/** The actor a principal is recorded as: ids and labels only, never a secret. */
export function actorOf(principal: Principal): AuditActor {
  const label = principal.email ?? principal.label ?? null;
  return { type: principal.type, id: principal.id, label };
}

/** The scope of a request's action, from what the access steps resolved and the path's parameters. */
export function auditScopeOf(request: FastifyRequest, action: AnyAction): AuditScope {
  request.auditScope ??= {
    action: action.id,
    actor: actorOf(request.ctx.principal),
    projectId: request.ctx.project?.projectId ?? null,
    target: targetOf(request),
    requestId: request.ctx.requestId,
    clientRequestId: request.ctx.clientRequestId,
    ip: request.ip ?? null,
    changes: inputChanges(request.body),
    outcome: 'success',
    written: false,
    closed: false,
  };
  return request.auditScope;
}

function targetOf(request: FastifyRequest): AuditTarget {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    ...EMPTY_TARGET,
    project: request.ctx.project?.projectSlug ?? null,
    environment: request.ctx.target?.environmentName ?? null,
    documentId: text(params.documentId),
    locale: text(query.locale),
    id: text(params.id),
  };
}

/**
 * Writes the entry of a command that committed none in its own transaction: refused before or by
 * its handler (`denied`, `failure`), or done without a transaction (a single statement). Runs before
 * the response is sent, so a client that reads the log after an answer finds the entry. A refusal
 * without a caller is skipped, except for sign-in actions (a failed login is an entry).
 */
export function registerAuditHook(app: FastifyInstance, deps: { recorder: AuditRecorder }): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const action = request.routeOptions.config?.action;
    if (!action || !isAudited(action) || !request.ctx) return payload;
    const scope = auditScopeOf(request, action);
    scope.closed = true;
    if (scope.written) return payload;
    const outcome = outcomeOfStatus(reply.statusCode);
    if (outcome !== 'success' && request.ctx.principal.type === 'anonymous' && !isSignInAction(action.id)) {
      return payload;
    }
    // A throttled sign-in whose backoff window already has its entry (login-throttle.ts).
    if (outcome !== 'success' && scope.aggregated) return payload;
    const written = (async () => {
      await deps.recorder.writeAlone({
        action: scope.action,
        actor: scope.actor,
        outcome: outcome === 'success' ? scope.outcome : outcome,
        projectId: scope.projectId,
        target: scope.target,
        requestId: scope.requestId,
        clientRequestId: scope.clientRequestId,
        ip: scope.ip,
        changes: outcome === 'success' ? scope.changes : { ...scope.changes, status: reply.statusCode },
      });
      scope.written = true;
    })().catch((error: unknown) => {
      request.log.error({ err: error, action: action.id }, 'the audit entry could not be written');
    });
    // An upload refused over its limit while its body is still arriving answers at once: the body
    // is drained only so far, and waiting on the entry would let the client reach that cut first.
    if (reply.statusCode === 413 && !request.raw.complete) return payload;
    await written;
    return payload;
  });
}
