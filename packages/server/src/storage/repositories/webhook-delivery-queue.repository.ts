import type { Queryable } from '../db.js';

/**
 * SQL of the delivery worker: fan-out, claim, outcome. These run for every project at once (no
 * request is involved); several processes share them through row locks and leases.
 */

/** An active webhook that may receive events of its environment, locked against concurrent changes. */
export interface SubscribedWebhookRow {
  id: string;
  projectId: string;
  environmentId: string;
  events: string[];
  activeSince: Date;
}

/**
 * Reads the active webhooks of these environments and locks them (FOR SHARE) until the fan-out
 * commits: a concurrent delete or deactivation waits, then cancels the deliveries just queued,
 * instead of leaving them pending for a webhook that no longer takes any.
 */
export async function lockSubscribedWebhooks(
  tx: Queryable,
  environmentIds: readonly string[],
): Promise<SubscribedWebhookRow[]> {
  const result = await tx.query<SubscribedWebhookRow>(
    `select id, project_id as "projectId", environment_id as "environmentId", events, active_since as "activeSince"
     from webhooks where environment_id = any($1::uuid[]) and active and deleted_at is null
     order by id for share`,
    [environmentIds],
  );
  return result.rows;
}

/** One delivery to queue: an event for a webhook, with the body every attempt will send. */
export interface NewDelivery {
  id: string;
  projectId: string;
  environmentId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
}

/** Queues deliveries, due now; one that exists for the same event and webhook is kept. */
export async function insertDeliveries(tx: Queryable, deliveries: readonly NewDelivery[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  const column = <K extends keyof NewDelivery>(key: K) => deliveries.map((delivery) => delivery[key]);
  const result = await tx.query(
    `insert into webhook_deliveries (id, project_id, environment_id, webhook_id, event_id, event_type, body, next_attempt_at)
     select id, project_id, environment_id, webhook_id, event_id, event_type, body, now()
     from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[])
       as d (id, project_id, environment_id, webhook_id, event_id, event_type, body)
     on conflict on constraint webhook_deliveries_event_webhook_key do nothing`,
    [
      column('id'),
      column('projectId'),
      column('environmentId'),
      column('webhookId'),
      column('eventId'),
      column('eventType'),
      column('body'),
    ],
  );
  return result.rowCount;
}

/** A delivery leased to this process for one attempt, with what it needs to send it. */
export interface ClaimedDeliveryRow {
  id: string;
  projectId: string;
  environmentId: string;
  webhookId: string;
  body: string;
  url: string;
  secretCiphertext: string;
  round: number;
  attempts: number;
}

/**
 * Leases up to `limit` due deliveries of live, active webhooks: rows another process is claiming
 * are skipped (FOR UPDATE SKIP LOCKED), and a lease that ran out (its process died) is taken over.
 */
export async function claimDueDeliveries(
  db: Queryable,
  claim: { limit: number; leaseMs: number; leaseToken: string },
): Promise<ClaimedDeliveryRow[]> {
  const result = await db.query<ClaimedDeliveryRow>(
    `with due as materialized (
       select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
       where d.status = 'pending' and d.next_attempt_at <= now()
         and (d.locked_until is null or d.locked_until <= now())
         and w.active and w.deleted_at is null and w.secret_ciphertext is not null
       order by d.next_attempt_at
       limit $1
       for update of d skip locked
     )
     update webhook_deliveries d
     set locked_until = now() + $2::int * interval '1 millisecond', lease_token = $3, updated_at = now()
     from due, webhooks w
     where d.id = due.id and w.id = d.webhook_id
     returning d.id, d.project_id as "projectId", d.environment_id as "environmentId", d.webhook_id as "webhookId",
       d.body, w.url, w.secret_ciphertext as "secretCiphertext", d.round, d.attempts`,
    [claim.limit, claim.leaseMs, claim.leaseToken],
  );
  return result.rows;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
}

/**
 * Records an attempt's outcome if this process still holds the lease: success, a retry after
 * `retryDelaysMs[n - 1]` following the n-th failure, or `failed` once the delays are used up. A
 * delivery cancelled meanwhile counts the attempt but stays cancelled. Returns null when the lease
 * was lost (taken over after expiry, or the delivery was started over), and then records nothing.
 */
export async function recordAttemptOutcome(
  tx: Queryable,
  lease: { deliveryId: string; leaseToken: string },
  outcome: AttemptOutcome,
  retryDelaysMs: readonly number[],
): Promise<{ round: number; attempt: number; status: string } | null> {
  const result = await tx.query<{
    round: number;
    attempt: number;
    status: string;
    projectId: string;
    environmentId: string;
  }>(
    `update webhook_deliveries set
       attempts = attempts + 1,
       last_status_code = $3, last_error = $4, last_duration_ms = $5, last_attempt_at = now(),
       status = case when status <> 'pending' then status when $6::boolean then 'succeeded'
         when attempts + 1 > cardinality($7::int[]) then 'failed' else 'pending' end,
       next_attempt_at = case when status = 'pending' and not $6::boolean and attempts + 1 <= cardinality($7::int[])
         then now() + ($7::int[])[attempts + 1] * interval '1 millisecond' else null end,
       locked_until = null, lease_token = null, updated_at = now()
     where id = $1 and lease_token = $2
     returning round, attempts as attempt, status, project_id as "projectId", environment_id as "environmentId"`,
    [
      lease.deliveryId,
      lease.leaseToken,
      outcome.statusCode,
      outcome.error,
      outcome.durationMs,
      outcome.ok,
      retryDelaysMs,
    ],
  );
  const row = result.rows[0];
  if (!row) return null;
  await tx.query(
    `insert into webhook_delivery_attempts (delivery_id, project_id, environment_id, round, attempt, succeeded,
       status_code, duration_ms, error, response_snippet, attempted_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::int, $9, $10, now() - $8::int * interval '1 millisecond')`,
    [
      lease.deliveryId,
      row.projectId,
      row.environmentId,
      row.round,
      row.attempt,
      outcome.ok,
      outcome.statusCode,
      outcome.durationMs,
      outcome.error,
      outcome.responseSnippet,
    ],
  );
  return { round: row.round, attempt: row.attempt, status: row.status };
}

/**
 * Milliseconds until the next pending delivery of an active webhook falls due (0 when one is due,
 * counting leases that will run out), or null when none is pending. Measured on the database clock,
 * the same clock the claim compares with.
 */
export async function findMsUntilNextDue(db: Queryable): Promise<number | null> {
  // Not `greatest(0, ...)` in SQL: greatest ignores a null, so an empty queue read 0 ("due now") and an
  // idle server re-checked every MIN_RECHECK_MS (docs/benchmarks.md "Idle CPU").
  const result = await db.query<{ ms: number | null }>(
    `select (extract(epoch from (min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at)))
       - now())) * 1000)::float8 as ms
     from webhook_deliveries d join webhooks w on w.id = d.webhook_id
     where d.status = 'pending' and w.active and w.deleted_at is null`,
  );
  const ms = result.rows[0]?.ms ?? null;
  return ms === null ? null : Math.max(0, ms);
}
