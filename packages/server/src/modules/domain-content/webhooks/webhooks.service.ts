import { randomUUID } from 'node:crypto';
import { invalidInput, notFound } from '@cms/core';
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

/** Wire shape of a webhook (interface.md "Webhook"); the secret is write-only and never in it. */
export interface WebhookView {
  id: string;
  project: string;
  environment: string;
  url: string;
  events: string[];
  active: boolean;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Body of `POST /webhooks` after schema validation. */
export interface CreateWebhookInput {
  url: string;
  events: string[];
  secret: string;
  active?: boolean;
}

/** Body of `PUT /webhooks/{id}`: every field optional; an omitted secret is kept. */
export type UpdateWebhookInput = Partial<CreateWebhookInput>;

/** Dependencies of the webhooks service. */
export interface WebhooksServiceDeps {
  db: Db;
  secretBox: SecretBox;
  /** `allowPrivate` mirrors CMS_WEBHOOK_ALLOW_PRIVATE (decisions.md §1, §6). */
  urlPolicy: WebhookUrlPolicyOptions;
}

/** Webhook configuration: https-only, SSRF-checked urls, known events, sealed secrets. */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { db, secretBox, urlPolicy } = deps;

  return {
    async list(ctx: EnvironmentContext): Promise<WebhookView[]> {
      const { target } = ctx;
      const rows = await listWebhooks(db, scopeOf(target));
      return rows.map((row) => toWebhookView(row, target));
    },

    async create(ctx: EnvironmentContext, input: CreateWebhookInput): Promise<WebhookView> {
      const { target } = ctx;
      const events = assertKnownEvents(input.events);
      await assertWebhookUrlAllowed(input.url, urlPolicy);
      const id = randomUUID();
      const row = await insertWebhook(db, {
        id,
        ...scopeOf(target),
        url: input.url,
        events,
        active: input.active ?? true,
        secretCiphertext: secretBox.seal(input.secret, id),
        createdBy: ctx.principal.id,
      });
      return toWebhookView(row, target);
    },

    /** Deactivating cancels pending deliveries: an inactive webhook gets nothing (docs/webhooks.md). */
    async update(ctx: EnvironmentContext, id: string, input: UpdateWebhookInput): Promise<WebhookView> {
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
    },

    /** Deletes the webhook and cancels its pending deliveries (interface.md "Webhook" transitions). */
    async remove(ctx: EnvironmentContext, id: string): Promise<{ deleted: true; id: string }> {
      const { target } = ctx;
      const scope = scopeOf(target);
      return withTransaction(db, async (tx) => {
        if (!(await markWebhookDeleted(tx, scope, id, ctx.principal.id))) throw notFound('Webhook');
        await cancelPendingDeliveries(tx, scope, id);
        return { deleted: true as const, id };
      });
    },
  };
}

/** The webhooks service's type, for action factories. */
export type WebhooksService = ReturnType<typeof createWebhooksService>;

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

function toWebhookView(row: WebhookRow, target: Target): WebhookView {
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
