import type { RequestContext, Target } from '../../../http/request-context.js';
import type { EventActor } from '../outbox.js';

/**
 * The target of a request to an `environment` action. The access hooks resolve it before any
 * handler runs, so its absence is a bug, not a client error.
 */
export function requireTarget(ctx: RequestContext): Target {
  if (!ctx.target) throw new Error('An environment-scoped action ran without a resolved target');
  return ctx.target;
}

/** The acting user of an event (`user` in the delivery envelope). */
export function actorOf(ctx: RequestContext): EventActor {
  return { id: ctx.principal.id, email: ctx.principal.email ?? '' };
}
