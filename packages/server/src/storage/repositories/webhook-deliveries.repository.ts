import type { Queryable } from '../db.js';
import type { WebhookScope } from './webhooks.repository.js';

/** Where a delivery stands (docs/webhooks.md "Delivery log"). */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

/** A delivery as the log shows it. */
export interface DeliveryRow {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  round: number;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, webhook_id as "webhookId", event_id as "eventId", event_type as "eventType", status, round,
  attempts, last_status_code as "lastStatusCode", last_error as "lastError", last_duration_ms as "lastDurationMs",
  last_attempt_at as "lastAttemptAt", next_attempt_at as "nextAttemptAt", created_at as "createdAt"`;

/** Lists a webhook's deliveries, newest first, optionally of one status; with the total count. */
export async function listDeliveries(
  db: Queryable,
  scope: WebhookScope,
  webhookId: string,
  page: { status: DeliveryStatus | null; limit: number; offset: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = `where webhook_id = $1 and project_id = $2 and environment_id = $3 and ($4::text is null or status = $4)`;
  const params = [webhookId, scope.projectId, scope.environmentId, page.status];
  const count = await db.query<{ total: number }>(
    `select count(*)::int as total from webhook_deliveries ${where}`,
    params,
  );
  const result = await db.query<DeliveryRow>(
    `select ${COLUMNS} from webhook_deliveries ${where} order by created_at desc, id desc limit $5 offset $6`,
    [...params, page.limit, page.offset],
  );
  return { rows: result.rows, total: count.rows[0]?.total ?? 0 };
}

/** Finds one delivery of a webhook, or null. */
export async function findDelivery(
  db: Queryable,
  scope: WebhookScope,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRow | null> {
  const result = await db.query<DeliveryRow>(
    `select ${COLUMNS} from webhook_deliveries
     where id = $1 and webhook_id = $2 and project_id = $3 and environment_id = $4`,
    [deliveryId, webhookId, scope.projectId, scope.environmentId],
  );
  return result.rows[0] ?? null;
}

/**
 * Cancels a webhook's pending deliveries (delete, deactivation). The lease stays, so an attempt
 * in flight is still recorded when it ends, but its outcome cannot make the delivery pending again.
 */
export async function cancelPendingDeliveries(db: Queryable, scope: WebhookScope, webhookId: string): Promise<number> {
  const result = await db.query(
    `update webhook_deliveries set status = 'cancelled', next_attempt_at = null, updated_at = now()
     where webhook_id = $1 and project_id = $2 and environment_id = $3 and status = 'pending'`,
    [webhookId, scope.projectId, scope.environmentId],
  );
  return result.rowCount;
}

// A new round: attempts start over, due now, any old lease forgotten (its result is then dropped).
const RESTART = `status = 'pending', round = round + 1, attempts = 0, next_attempt_at = now(), locked_until = null,
  lease_token = null, last_status_code = null, last_error = null, last_duration_ms = null, last_attempt_at = null,
  updated_at = now()`;

/**
 * Starts a delivery over (same id) unless it is still pending; returns the delivery as it now
 * stands, or null when the webhook has no such delivery.
 */
export async function restartDelivery(
  db: Queryable,
  scope: WebhookScope,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryRow | null> {
  const scoped = 'id = $1 and webhook_id = $2 and project_id = $3 and environment_id = $4';
  const params = [deliveryId, webhookId, scope.projectId, scope.environmentId];
  const result = await db.query<DeliveryRow>(
    `update webhook_deliveries set ${RESTART} where ${scoped} and status <> 'pending' returning ${COLUMNS}`,
    params,
  );
  return result.rows[0] ?? findDelivery(db, scope, webhookId, deliveryId);
}

/** Starts over every failed delivery of a webhook created at or after `since`; returns how many. */
export async function restartFailedDeliveriesSince(
  db: Queryable,
  scope: WebhookScope,
  webhookId: string,
  since: Date,
): Promise<number> {
  const result = await db.query(
    `update webhook_deliveries set ${RESTART}
     where webhook_id = $1 and project_id = $2 and environment_id = $3 and status = 'failed' and created_at >= $4`,
    [webhookId, scope.projectId, scope.environmentId, since],
  );
  return result.rowCount;
}

/** One recorded attempt of a delivery. */
export interface DeliveryAttemptRow {
  round: number;
  attempt: number;
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
  attemptedAt: Date;
}

/** Lists every attempt of a delivery, in the order they were made (all rounds). */
export async function listDeliveryAttempts(
  db: Queryable,
  scope: WebhookScope,
  deliveryId: string,
): Promise<DeliveryAttemptRow[]> {
  const result = await db.query<DeliveryAttemptRow>(
    `select round, attempt, succeeded, status_code as "statusCode", duration_ms as "durationMs", error,
       response_snippet as "responseSnippet", attempted_at as "attemptedAt"
     from webhook_delivery_attempts where delivery_id = $1 and project_id = $2 and environment_id = $3 order by id`,
    [deliveryId, scope.projectId, scope.environmentId],
  );
  return result.rows;
}
