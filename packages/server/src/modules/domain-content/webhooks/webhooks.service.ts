import { randomUUID } from 'node:crypto';
import {
  type ActionInput,
  type ActionMethod,
  type ActionResult,
  invalidInput,
  notFound,
  type Serializable,
  type Webhook,
  type webhooksCreateRoute,
  type webhooksDeleteRoute,
  type webhooksListRoute,
  type webhooksUpdateRoute,
} from '@cms/core';
import type { EnvironmentContext, Target } from '../../../http/request-context.js';
import { type Db, withTransaction } from '../../../storage/db.js';
import { EVENT_TYPES } from '../../../storage/repositories/outbox.repository.js';
import { cancelPendingDeliveries } from '../../../storage/repositories/webhook-deliveries.repository.js';
import {
  insertWebhook,
  listWebhooks,
  markWebhookDeleted,
  updateWebhook,
  type WebhookRow,
  type WebhookScope,
} from '../../../storage/repositories/webhooks.repository.js';
import { assertWebhookUrlAllowed, type WebhookUrlPolicyOptions } from '../../../webhooks/webhook-url-policy.js';
import type { SecretBox } from './secret-box.js';

/** Dependencies of the webhooks service. */
export interface WebhooksServiceDeps {
  db: Db;
  secretBox: SecretBox;
  /** `allowPrivate` mirrors CMS_WEBHOOK_ALLOW_PRIVATE (decisions.md §1, §6). */
  urlPolicy: WebhookUrlPolicyOptions;
}

type List = typeof webhooksListRoute;
type Create = typeof webhooksCreateRoute;
type Update = typeof webhooksUpdateRoute;
type Delete = typeof webhooksDeleteRoute;

/** The routes this service answers, each method declared against its route. */
interface WebhookRoutes {
  list: ActionMethod<List, EnvironmentContext>;
  create: ActionMethod<Create, EnvironmentContext>;
  update: ActionMethod<Update, EnvironmentContext>;
  remove: ActionMethod<Delete, EnvironmentContext>;
}

/**
 * Webhook configuration: https-only, SSRF-checked urls, known events, sealed secrets. Each method
 * takes its route's validated input and answers its route's result.
 */
export class WebhooksService implements WebhookRoutes {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  async list(ctx: EnvironmentContext, _input: ActionInput<List>): Promise<ActionResult<List>> {
    const { db } = this.deps;
    const { target } = ctx;
    const rows = await listWebhooks(db, scopeOf(target));
    return rows.map((row) => toWebhookView(row, target));
  }

  async create(ctx: EnvironmentContext, { body: input }: ActionInput<Create>): Promise<ActionResult<Create>> {
    const { db, secretBox, urlPolicy } = this.deps;
    const { target } = ctx;
    const events = assertKnownEvents(input.events);
    await assertWebhookUrlAllowed(input.url, urlPolicy);
    const id = randomUUID();
    const webhook = {
      id,
      ...scopeOf(target),
      url: input.url,
      events,
      active: input.active ?? true,
      secretCiphertext: secretBox.seal(input.secret, id),
      createdBy: ctx.principal.id,
    };
    // In a transaction, so the audit entry commits with the webhook (docs/audit.md).
    const row = await withTransaction(db, (tx) => insertWebhook(tx, webhook));
    return toWebhookView(row, target);
  }

  /** Deactivating cancels pending deliveries: an inactive webhook gets nothing (docs/webhooks.md). */
  async update(ctx: EnvironmentContext, { params, body: input }: ActionInput<Update>): Promise<ActionResult<Update>> {
    const { db, secretBox, urlPolicy } = this.deps;
    const { id } = params;
    const { target } = ctx;
    const events = input.events === undefined ? undefined : assertKnownEvents(input.events);
    // Checked before the transaction: it resolves DNS, which must not hold row locks.
    if (input.url !== undefined) await assertWebhookUrlAllowed(input.url, urlPolicy);
    const scope = scopeOf(target);
    return withTransaction(db, async (tx) => {
      const row = await updateWebhook(tx, scope, id, {
        url: input.url,
        events,
        active: input.active,
        secretCiphertext: input.secret === undefined ? undefined : secretBox.seal(input.secret, id),
        updatedBy: ctx.principal.id,
      });
      if (!row) throw notFound('Webhook');
      if (!row.active) await cancelPendingDeliveries(tx, scope, id);
      return toWebhookView(row, target);
    });
  }

  /** Deletes the webhook and cancels its pending deliveries (interface.md "Webhook" transitions). */
  async remove(ctx: EnvironmentContext, { params }: ActionInput<Delete>): Promise<ActionResult<Delete>> {
    const { db } = this.deps;
    const { id } = params;
    const { target } = ctx;
    const scope = scopeOf(target);
    return withTransaction(db, async (tx) => {
      if (!(await markWebhookDeleted(tx, scope, id, ctx.principal.id))) throw notFound('Webhook');
      await cancelPendingDeliveries(tx, scope, id);
      return { deleted: true as const, id };
    });
  }
}

/** The webhooks service over its dependencies. */
export function createWebhooksService(deps: WebhooksServiceDeps): WebhooksService {
  return new WebhooksService(deps);
}

/** The repository scope of a target. */
export function scopeOf(target: Target): WebhookScope {
  return { projectId: target.projectId, environmentId: target.environmentId };
}

/** Checks event names against interface.md "Event types"; returns them without duplicates. */
function assertKnownEvents(events: readonly string[]): string[] {
  const known: readonly string[] = EVENT_TYPES;
  const fields: Record<string, string> = {};
  events.forEach((event, index) => {
    if (!known.includes(event))
      fields[`body.events.${index}`] = `unknown event "${event}": use one of ${known.join(', ')}`;
  });
  if (Object.keys(fields).length > 0) throw invalidInput(fields);
  return [...new Set(events)];
}

function toWebhookView(row: WebhookRow, target: Target): Serializable<Webhook> {
  return {
    id: row.id,
    project: target.projectSlug,
    environment: target.environmentName,
    url: row.url,
    events: row.events,
    active: row.active,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
