/**
 * Reads answered before routing (docs/performance.md "Answered before routing"): a GET whose answer a
 * module holds in memory (the published read cache) is written straight from the HTTP server's request
 * event, without Fastify's request objects, hook chain and router, when every access step can be
 * decided from memory as the full chain would decide it: the routing headers, a credential a strategy
 * knows to be valid (`AuthStrategy.known`: an API key in its cache), the project and environment in
 * the target cache, and the scopes of the action whose answer it is. Whatever cannot be decided that
 * way (a session cookie, a key not cached, revoked or expired, a refusal of any kind, a shutdown under
 * way: create-app.ts) takes the full chain, which answers it and its errors as always. The answer carries the same
 * headers as the route's own (request id, security policy) and logs the same request line.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { AnyAction } from '../actions/define-action.js';
import type { TargetResolver } from '../tenancy/target-resolver.js';
import { type AuthStrategy, knownPrincipal } from './authenticate.js';
import { permissionFailure } from './authorize.js';
import type { Principal, Target } from './request-context.js';
import { generateRequestId } from './request-id.js';
import { resolveKnownTarget } from './resolve-target.js';
import { jsonAnswerHeaders } from './security-headers.js';
import { readTargetHeaders } from './target-guard.js';

/** A GET that passed the access steps of an environment route, as far as memory can tell. */
export interface EarlyReadRequest {
  /** The URL as sent (path and query string). */
  url: string;
  headers: IncomingHttpHeaders;
  principal: Principal;
  target: Target;
}

/** An answer a module holds for such a request. */
export interface EarlyReadAnswer {
  /** The permissions of the action whose answer this is: the caller must hold them in the target. */
  access: Pick<AnyAction, 'permissions' | 'anyPermissions'>;
  statusCode: number;
  /**
   * Every header of the answer (`content-length` included when there is a body) as a list of names and
   * values in turn, as `writeHead` takes it; the security policy and the request id are added here.
   */
  headers: readonly string[];
  body: Buffer | null;
  /** The URL as the request log line shows it (log-url.ts: redacted as its route declares). */
  logUrl: string;
}

/** A module's reader: the answer it holds for this request, or null. Synchronous: memory only. */
export type EarlyRead = (request: EarlyReadRequest) => EarlyReadAnswer | null;

/** Answers a request before routing and returns true, or returns false and leaves it alone. */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/** Answers nothing: the server before its modules are set up. */
export const NO_EARLY_ANSWER: EarlyAnswer = () => false;

/** Builds the early answer of the modules' readers. */
export function createEarlyReads(deps: {
  reads: readonly EarlyRead[];
  strategies: readonly AuthStrategy[];
  targets: TargetResolver;
  log: FastifyBaseLogger;
  publicUrl: string;
}): EarlyAnswer {
  const { reads, strategies, targets, log } = deps;
  if (reads.length === 0) return NO_EARLY_ANSWER;
  const policy = Object.entries(jsonAnswerHeaders({ publicUrl: deps.publicUrl })).flat();
  return (request, response) => {
    if (request.method !== 'GET') return false;
    const started = performance.now();
    const { headers } = request;
    const { project, environment } = readTargetHeaders(request);
    if (!project || !environment) return false;
    const principal = knownPrincipal(strategies, headers);
    if (!principal) return false;
    const target = resolveKnownTarget(targets, principal, project, environment);
    if (!target) return false;
    const url = request.url ?? '';
    for (const read of reads) {
      const answer = read({ url, headers, principal, target });
      if (!answer) continue;
      const scopes = principal.scopesIn({ projectSlug: target.projectSlug, environmentName: target.environmentName });
      if (permissionFailure(answer.access, scopes)) return false;
      const requestId = generateRequestId(request);
      response.writeHead(answer.statusCode, answer.headers.concat(policy, 'x-request-id', requestId));
      response.end(answer.body ?? undefined);
      log.info(
        {
          requestId,
          method: 'GET',
          url: answer.logUrl,
          statusCode: answer.statusCode,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          principal: principal.type,
          early: true,
        },
        'request',
      );
      return true;
    }
    return false;
  };
}
