import type { IncomingHttpHeaders } from 'node:http';
import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import { ANONYMOUS, type Principal } from './request-context.js';

/**
 * What an administrator without the second factor `CMS_REQUIRE_MFA=admins` requires may still do:
 * say who they are, enrol, and sign out. Everything else answers MFA_ENROLMENT_REQUIRED.
 */
export const MFA_ENROLMENT_ACTIONS: ReadonlySet<string> = new Set([
  'me.get',
  'me.mfa.get',
  'me.mfa.enrol',
  'me.mfa.confirm',
  'auth.logout',
  'auth.sessions.list',
  'auth.sessions.end',
]);

/**
 * One way of proving identity (API key, session cookie, preview token). Returns null when the
 * request carries no credentials of its kind, throws UNAUTHORIZED when it carries bad ones.
 *
 * `known` answers the same from memory alone, for reads answered before routing (early-reads.ts):
 * null when the headers carry no credentials of its kind, the principal when they carry credentials
 * it knows to be valid now, undefined when it cannot tell without I/O (or would refuse them). A
 * strategy without `known` can never tell.
 */
export type AuthStrategy = ((request: FastifyRequest) => Promise<Principal | null>) & {
  known?: (headers: IncomingHttpHeaders) => Principal | null | undefined;
};

/**
 * The principal the strategies, tried in order, would authenticate these headers as, when each one
 * consulted can tell from memory; undefined otherwise (the request takes the access steps).
 */
export function knownPrincipal(
  strategies: readonly AuthStrategy[],
  headers: IncomingHttpHeaders,
): Principal | undefined {
  for (const strategy of strategies) {
    const found = strategy.known?.(headers);
    if (found === undefined) return undefined;
    if (found) return found;
  }
  return undefined;
}

/** Builds the authentication hook from strategies tried in order. */
export function createAuthenticate(strategies: readonly AuthStrategy[]) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const action = request.routeOptions.config.action;
    let principal: Principal = ANONYMOUS;
    if (action?.auth !== 'public') {
      for (const strategy of strategies) {
        const found = await strategy(request);
        if (found) {
          principal = found;
          break;
        }
      }
    }
    request.ctx.principal = principal;
    if (principal === ANONYMOUS && action && (action.auth ?? 'required') === 'required') {
      throw new CmsError('UNAUTHORIZED');
    }
  };
}
