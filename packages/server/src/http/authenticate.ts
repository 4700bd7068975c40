import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import { ANONYMOUS, type Principal } from './request-context.js';

/**
 * One way of proving identity (API key, session cookie, preview token). Returns null when the
 * request carries no credentials of its kind, throws UNAUTHORIZED when it carries bad ones.
 */
export type AuthStrategy = (request: FastifyRequest) => Promise<Principal | null>;

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
