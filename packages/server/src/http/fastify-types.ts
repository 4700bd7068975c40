import type { AnyAction } from '../actions/define-action.js';
import type { RequestContext } from './request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access hooks before any handler runs. */
    ctx: RequestContext;
  }
  interface FastifyContextConfig {
    /** The declaration this route was mounted from. */
    action?: AnyAction;
    /** Secret query parameters of a route mounted without an action (the Studio's pages). */
    secretQuery?: readonly string[];
  }
}
