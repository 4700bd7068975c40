import { signWebhook } from '@cms/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../storage/db.js';
import {
  type AttemptOutcome,
  type ClaimedDeliveryRow,
  recordAttemptOutcome,
} from '../../../storage/repositories/webhook-delivery-queue.repository.js';
import { sendWebhookRequest } from '../../../webhooks/https-sender.js';
import { type SecretBox, SecretBoxError } from './secret-box.js';

/** Header carrying the delivery id, stable across attempts and redeliveries (decisions.md §6). */
export const DELIVERY_ID_HEADER = 'X-CMS-Delivery';

/** Everything one attempt needs besides the claimed delivery. */
export interface AttemptContext {
  db: Db;
  log: FastifyBaseLogger;
  secretBox: SecretBox;
  allowPrivate: boolean;
  /** Extra trusted CA certificates (CMS_WEBHOOK_CA_FILE), read once at start. */
  ca: string | undefined;
  /** CMS_DEV: self-signed receivers are accepted. */
  acceptAnyCertificate: boolean;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
}

/**
 * Makes one attempt of a leased delivery and records it; failures of the receiver or of the
 * recording are outcomes, not exceptions. The stored body is sent and signed as is, so the bytes a
 * receiver verifies are the bytes of every other attempt too.
 */
export async function attemptDelivery(
  context: AttemptContext,
  delivery: ClaimedDeliveryRow,
  leaseToken: string,
): Promise<void> {
  const outcome = await send(context, delivery);
  try {
    const recorded = await context.db.transaction((tx) =>
      recordAttemptOutcome(tx, { deliveryId: delivery.id, leaseToken }, outcome, context.retryDelaysMs),
    );
    if (!recorded) {
      context.log.warn({ deliveryId: delivery.id }, 'webhook attempt finished after its lease was lost; not recorded');
    } else if (!outcome.ok) {
      context.log.info(
        {
          deliveryId: delivery.id,
          webhookId: delivery.webhookId,
          ...recorded,
          statusCode: outcome.statusCode,
          error: outcome.error,
        },
        'webhook delivery attempt failed',
      );
    }
  } catch (error: unknown) {
    // The lease runs out and another pass retries it: at-least-once, never lost.
    context.log.error({ err: error, deliveryId: delivery.id }, 'could not record a webhook delivery attempt');
  }
}

async function send(context: AttemptContext, delivery: ClaimedDeliveryRow): Promise<AttemptOutcome> {
  let secret: string;
  try {
    secret = context.secretBox.open(delivery.secretCiphertext, delivery.webhookId);
  } catch (error: unknown) {
    if (!(error instanceof SecretBoxError)) throw error;
    return { ok: false, statusCode: null, durationMs: 0, error: error.message, responseSnippet: null };
  }
  const headers = {
    ...signWebhook({ secret, body: delivery.body, deliveryId: delivery.id }),
    [DELIVERY_ID_HEADER]: delivery.id,
  };
  const result = await sendWebhookRequest({
    url: delivery.url,
    body: delivery.body,
    headers,
    timeoutMs: context.timeoutMs,
    ca: context.ca,
    acceptAnyCertificate: context.acceptAnyCertificate,
    allowPrivate: context.allowPrivate,
  });
  return {
    ok: result.ok,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.error ?? (result.ok ? null : `receiver answered ${result.statusCode ?? 'without a status'}`),
    responseSnippet: result.responseBodySnippet ?? null,
  };
}
