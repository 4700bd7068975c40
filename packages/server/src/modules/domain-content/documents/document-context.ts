import type { RequestContext } from '../../../http/request-context.js';
import type { EventActor } from '../outbox.js';

/** The acting user of an event (`user` in the delivery envelope). */
export function actorOf(ctx: RequestContext): EventActor {
  return { id: ctx.principal.id, email: ctx.principal.email ?? '' };
}
