import { randomUUID } from 'node:crypto';
import type { Db } from '../../../storage/db.js';
import { claimUndispatchedEvents, markEventsDispatched } from '../../../storage/repositories/outbox.repository.js';
import {
  insertDeliveries,
  lockSubscribedWebhooks,
  type NewDelivery,
} from '../../../storage/repositories/webhook-delivery-queue.repository.js';
import { encodeChangeCursor } from '../changes/change-cursor.js';
import { numberAllPendingChanges } from '../changes/change-sequencer.js';
import { serializeEnvelope } from './delivery-envelope.js';

/** Outbox events turned into deliveries per transaction. */
export const FAN_OUT_BATCH_SIZE = 100;

/**
 * Claims a batch of undispatched outbox events, queues one delivery per event and matching
 * webhook, and marks the events dispatched, all in one transaction: a crash before the commit
 * leaves the events undispatched for the next pass, a crash after leaves the deliveries queued.
 * Committed changes are numbered in the change feed first (its sequencer), and a content event's body
 * carries its change's cursor. A webhook matches when it is active, of the event's project and environment, subscribed to its
 * type, and was already active when the event occurred (events that occur while a webhook is
 * inactive are never queued for it, even if it is reactivated before the fan-out runs).
 */
export async function fanOutEvents(
  db: Db,
  batchSize: number = FAN_OUT_BATCH_SIZE,
): Promise<{ events: number; deliveries: number }> {
  // Content events wait for their change's place in the change feed: number what has committed first.
  await numberAllPendingChanges(db);
  return db.transaction(async (tx) => {
    const events = await claimUndispatchedEvents(tx, batchSize);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const webhooks = await lockSubscribedWebhooks(tx, [...new Set(events.map((event) => event.environmentId))]);
    const deliveries: NewDelivery[] = [];
    for (const event of events) {
      let body: string | null = null;
      for (const webhook of webhooks) {
        const matches =
          webhook.projectId === event.projectId &&
          webhook.environmentId === event.environmentId &&
          webhook.events.includes(event.type) &&
          event.createdAt >= webhook.activeSince;
        if (!matches) continue;
        body ??= serializeEnvelope(
          event.position === null
            ? event.payload
            : { ...event.payload, cursor: encodeChangeCursor(event.environmentId, event.position) },
        );
        deliveries.push({
          id: randomUUID(),
          projectId: event.projectId,
          environmentId: event.environmentId,
          webhookId: webhook.id,
          eventId: event.id,
          eventType: event.type,
          body,
        });
      }
    }
    const queued = await insertDeliveries(tx, deliveries);
    await markEventsDispatched(
      tx,
      events.map((event) => event.id),
    );
    return { events: events.length, deliveries: queued };
  });
}
