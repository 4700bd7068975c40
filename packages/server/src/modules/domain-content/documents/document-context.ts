import { type RequestContext, requireTarget } from '../../../http/request-context.js';
import type { EventActor } from '../outbox.js';

/** The target of an `environment` route (one home: http/request-context.ts). */
export { requireTarget };

/** The acting user of an event (`user` in the delivery envelope). */
export function actorOf(ctx: RequestContext): EventActor {
  return { id: ctx.principal.id, email: ctx.principal.email ?? '' };
}
