import { EVENT_TYPES, type EventType } from '@cms/core';
import type { Queryable } from '../db.js';

/** Event types of interface.md "Events", declared with the wire shapes (`@cms/core`). */
export { EVENT_TYPES, type EventType };

/** An outbox row: the delivery envelope, ready to sign and send. */
export interface OutboxEventRow {
  id: string;
  seq: number;
  projectId: string;
  environmentId: string;
  type: EventType;
  payload: Record<string, unknown>;
  createdAt: Date;
  dispatchedAt: Date | null;
}

const COLUMNS = `id, seq, project_id as "projectId", environment_id as "environmentId", type, payload,
  created_at as "createdAt", dispatched_at as "dispatchedAt"`;

/** Inserts an event; call it inside the transaction of the change it records. */
export async function insertOutboxEvent(
  tx: Queryable,
  event: { id: string; projectId: string; environmentId: string; type: EventType; payload: Record<string, unknown> },
): Promise<void> {
  await tx.query(
    'insert into outbox_events (id, project_id, environment_id, type, payload) values ($1, $2, $3, $4, $5)',
    [event.id, event.projectId, event.environmentId, event.type, JSON.stringify(event.payload)],
  );
}

/** Inserts many events of one environment with one statement, in order; inside the change's transaction. */
export async function insertOutboxEvents(
  tx: Queryable,
  scope: { projectId: string; environmentId: string },
  events: readonly { id: string; type: EventType; payload: Record<string, unknown> }[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `insert into outbox_events (id, project_id, environment_id, type, payload)
     select (e->>'id')::uuid, $1, $2, e->>'type', e->'payload'
     from jsonb_array_elements($3::jsonb) with ordinality as x(e, ord) order by ord`,
    [scope.projectId, scope.environmentId, JSON.stringify(events)],
  );
}

/** An undispatched event with its place in the change feed (content events; null for the others). */
export interface ClaimedEventRow extends OutboxEventRow {
  position: number | null;
}

/**
 * Claims up to `limit` undispatched events, oldest first; rows locked by another process are
 * skipped, so several workers share the outbox without taking an event twice. A content event waits
 * until the sequencer has numbered its change (migration 0075), so its deliveries carry the cursor.
 */
export async function claimUndispatchedEvents(tx: Queryable, limit: number): Promise<ClaimedEventRow[]> {
  const result = await tx.query<ClaimedEventRow>(
    `select e.id, e.seq, e.project_id as "projectId", e.environment_id as "environmentId", e.type, e.payload,
       e.created_at as "createdAt", e.dispatched_at as "dispatchedAt", c.position
     from outbox_events e left join content_changes c on c.id = e.id
     where e.dispatched_at is null and (c.id is null or c.position is not null)
     order by e.seq limit $1 for update of e skip locked`,
    [limit],
  );
  return result.rows;
}

/** Marks events as dispatched (fanned out to their webhooks). */
export async function markEventsDispatched(tx: Queryable, ids: readonly string[]): Promise<void> {
  await tx.query('update outbox_events set dispatched_at = now() where id = any($1::uuid[])', [ids]);
}

/** Lists events of one project/environment, newest first (tests and audits). */
export async function listOutboxEvents(
  db: Queryable,
  scope: { projectId: string; environmentId: string },
  limit = 100,
): Promise<OutboxEventRow[]> {
  const result = await db.query<OutboxEventRow>(
    `select ${COLUMNS} from outbox_events where project_id = $1 and environment_id = $2 order by seq desc limit $3`,
    [scope.projectId, scope.environmentId, limit],
  );
  return result.rows;
}
