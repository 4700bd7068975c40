import { randomUUID } from 'node:crypto';
import type {
  ContentWebhookEvent,
  MediaWebhookEvent,
  ReleaseWebhookEvent,
  Serializable,
  WebhookEvent,
  WebhookEventUser,
} from '@cms/core';
import type { Target } from '../../http/request-context.js';
import type { Db, Queryable } from '../../storage/db.js';
import { insertChanges } from '../../storage/repositories/changes.repository.js';
import { insertOutboxEvent, insertOutboxEvents } from '../../storage/repositories/outbox.repository.js';
import { changeOf } from './changes/change-kinds.js';

/** Channel that wakes the webhook worker after an event commits. */
export const OUTBOX_CHANNEL = 'cms_outbox';

/** The acting user of an event (`user` in the delivery envelope, core's `WebhookEventUser`). */
export type EventActor = WebhookEventUser;

/**
 * One event to record: its type, who caused it and what it is about, each subject typed by the
 * delivery body core declares for it (`wire/events.ts`); timestamps may be `Date`.
 */
export type OutboxEvent =
  | {
      type: ContentWebhookEvent['event'];
      actor: EventActor;
      document: Serializable<ContentWebhookEvent['document']>;
      /** The document's published version after the change: whether readers without draft scope see it. */
      publishedVersion: number | null;
    }
  | { type: MediaWebhookEvent['event']; actor: EventActor; media: Serializable<MediaWebhookEvent['media']> }
  | { type: ReleaseWebhookEvent['event']; actor: EventActor; release: Serializable<ReleaseWebhookEvent['release']> };

/**
 * Records events in the caller's transaction; the worker delivers them after commit. A `content.*`
 * event is also the change feed's entry (same id, docs/api.md "Change feed"), so the two never disagree.
 */
export interface Outbox {
  record(tx: Queryable, target: Target, event: OutboxEvent): Promise<void>;
  /** Records many events of one environment with one statement (a release), in order. */
  recordMany(tx: Queryable, target: Target, events: readonly OutboxEvent[]): Promise<void>;
}

/** The delivery body of an event (core's `WebhookEvent`), in the envelope's key order. */
function payloadOf(target: Target, event: OutboxEvent): Serializable<WebhookEvent> {
  const base = {
    timestamp: new Date().toISOString(),
    project: target.projectSlug,
    environment: target.environmentName,
  };
  if ('document' in event) return { event: event.type, ...base, document: event.document, user: event.actor };
  if ('media' in event) return { event: event.type, ...base, media: event.media, user: event.actor };
  return { event: event.type, ...base, release: event.release, user: event.actor };
}

/** Creates the outbox writer. The envelope is built here so every producer sends the same shape. */
export function createOutbox(db: Db): Outbox {
  return {
    async record(tx, target, event) {
      const id = randomUUID();
      const payload = payloadOf(target, event);
      await insertOutboxEvent(tx, {
        id,
        projectId: target.projectId,
        environmentId: target.environmentId,
        type: event.type,
        payload,
      });
      if ('document' in event) await insertChanges(tx, target, [changeOf(id, event)]);
      await db.wake(tx, OUTBOX_CHANNEL, target.projectId);
    },
    async recordMany(tx, target, events) {
      if (events.length === 0) return;
      const rows = events.map((event) => ({ id: randomUUID(), event }));
      await insertOutboxEvents(
        tx,
        target,
        rows.map(({ id, event }) => ({ id, type: event.type, payload: payloadOf(target, event) })),
      );
      await insertChanges(
        tx,
        target,
        rows.flatMap(({ id, event }) => ('document' in event ? [changeOf(id, event)] : [])),
      );
      await db.wake(tx, OUTBOX_CHANNEL, target.projectId);
    },
  };
}
