import {
  type ActionInput,
  CmsError,
  type Delivery,
  notFound,
  type Page,
  type Serializable,
  type webhooksDeliveriesListRoute,
} from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import { type Db, type Transaction, withTransaction } from '../../../storage/db.js';
import {
  type DeliveryAttemptRow,
  type DeliveryRow,
  findDelivery,
  listDeliveries,
  listDeliveryAttempts,
  restartDelivery,
  restartFailedDeliveriesSince,
} from '../../../storage/repositories/webhook-deliveries.repository.js';
import { findWebhook, type WebhookScope } from '../../../storage/repositories/webhooks.repository.js';
import { OUTBOX_CHANNEL } from '../outbox.js';
import { scopeOf } from './webhooks.service.js';

/** One entry of the delivery log (decisions.md §6). */
export type DeliveryView = Serializable<Delivery>;

/** A delivery with every attempt ever made for it, all rounds. */
export interface DeliveryDetailView extends DeliveryView {
  attemptLog: DeliveryAttemptRow[];
}

/** Query of the delivery log after schema validation (core's contract). */
type ListDeliveriesQuery = ActionInput<typeof webhooksDeliveriesListRoute>['query'];

/** The delivery log of a webhook and redelivery, one by one or all failed since a time. */
export function createWebhookDeliveriesService(deps: { db: Db }) {
  const { db } = deps;

  /** Scope of a live webhook of the request's environment; throws NOT_FOUND. */
  const webhookScope = async (ctx: EnvironmentContext, webhookId: string): Promise<WebhookScope> => {
    const scope = scopeOf(ctx.target);
    if (!(await findWebhook(db, scope, webhookId))) throw notFound('Webhook');
    return scope;
  };

  /**
   * Locks the webhook for the redelivery's transaction (no concurrent deactivation or delete can
   * strand a pending delivery) and refuses inactive ones, which get nothing.
   */
  const assertRedeliverable = async (tx: Transaction, scope: WebhookScope, webhookId: string): Promise<void> => {
    const webhook = await findWebhook(tx, scope, webhookId, { forShare: true });
    if (!webhook) throw notFound('Webhook');
    if (!webhook.active) {
      throw new CmsError('INVALID_INPUT', 'This webhook is inactive: set "active": true first, then redeliver.');
    }
  };

  return {
    async list(ctx: EnvironmentContext, webhookId: string, query: ListDeliveriesQuery): Promise<Page<DeliveryView>> {
      const scope = await webhookScope(ctx, webhookId);
      const { rows, total } = await listDeliveries(db, scope, webhookId, {
        status: query.status ?? null,
        limit: query.limit,
        offset: query.offset,
      });
      return { items: rows.map(toDeliveryView), total, limit: query.limit, offset: query.offset };
    },

    async get(ctx: EnvironmentContext, webhookId: string, deliveryId: string): Promise<DeliveryDetailView> {
      const scope = await webhookScope(ctx, webhookId);
      const row = await findDelivery(db, scope, webhookId, deliveryId);
      if (!row) throw notFound('Delivery');
      return { ...toDeliveryView(row), attemptLog: await listDeliveryAttempts(db, scope, deliveryId) };
    },

    /** Starts a delivery over with the same id; one still pending is left as it is. */
    async redeliver(ctx: EnvironmentContext, webhookId: string, deliveryId: string): Promise<DeliveryView> {
      const { target } = ctx;
      const scope = scopeOf(target);
      return withTransaction(db, async (tx) => {
        await assertRedeliverable(tx, scope, webhookId);
        const row = await restartDelivery(tx, scope, webhookId, deliveryId);
        if (!row) throw notFound('Delivery');
        await db.wake(tx, OUTBOX_CHANNEL, target.projectId);
        return toDeliveryView(row);
      });
    },

    /** Starts over every failed delivery created at or after `since`. */
    async redeliverFailed(
      ctx: EnvironmentContext,
      webhookId: string,
      input: { status: 'failed'; since: string },
    ): Promise<{ redelivered: number }> {
      const { target } = ctx;
      const scope = scopeOf(target);
      return withTransaction(db, async (tx) => {
        await assertRedeliverable(tx, scope, webhookId);
        const redelivered = await restartFailedDeliveriesSince(tx, scope, webhookId, new Date(input.since));
        if (redelivered > 0) await db.wake(tx, OUTBOX_CHANNEL, target.projectId);
        return { redelivered };
      });
    },
  };
}

/** The deliveries service's type, for action factories. */
export type WebhookDeliveriesService = ReturnType<typeof createWebhookDeliveriesService>;

function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    event: row.eventType,
    eventId: row.eventId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    durationMs: row.lastDurationMs,
    createdAt: row.createdAt,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.nextAttemptAt,
  };
}
