import { randomUUID } from 'node:crypto';
import type { Target } from '../../http/request-context.js';
import type { Db, Queryable } from '../../storage/db.js';
import { type EventType, insertOutboxEvent } from '../../storage/repositories/outbox.repository.js';

/** Channel that wakes the webhook worker after an event commits. */
export const OUTBOX_CHANNEL = 'cms_outbox';

/** The acting user of an event (`user` in the delivery envelope). */
export interface EventActor {
  id: string;
  email: string;
}

/** Records events in the caller's transaction; the worker delivers them after commit. */
export interface Outbox {
  record(
    tx: Queryable,
    target: Target,
    event: { type: EventType; actor: EventActor; document?: Record<string, unknown>; media?: Record<string, unknown> },
  ): Promise<void>;
}

/** Creates the outbox writer. The envelope is built here so every producer sends the same shape. */
export function createOutbox(db: Db): Outbox {
  return {
    async record(tx, target, event) {
      const payload = {
        event: event.type,
        timestamp: new Date().toISOString(),
        project: target.projectSlug,
        environment: target.environmentName,
        ...(event.document ? { document: event.document } : {}),
        ...(event.media ? { media: event.media } : {}),
        user: event.actor,
      };
      await insertOutboxEvent(tx, {
        id: randomUUID(),
        projectId: target.projectId,
        environmentId: target.environmentId,
        type: event.type,
        payload,
      });
      await db.wake(tx, OUTBOX_CHANNEL, target.projectId);
    },
  };
}
