import { readFile } from 'node:fs/promises';
import { ConfigError } from '../../config.js';
import type { ModuleSurface, ServerDeps } from '../module-types.js';
import type { DomainShared } from './domain-shared.js';
import { createDeliveryWorker } from './webhooks/delivery-worker.js';
import { createSecretBox } from './webhooks/secret-box.js';
import { webhookDeliveryActions } from './webhooks/webhook-deliveries.actions.js';
import { createWebhookDeliveriesService } from './webhooks/webhook-deliveries.service.js';
import { webhookActions } from './webhooks/webhooks.actions.js';
import { createWebhooksService } from './webhooks/webhooks.service.js';

/**
 * The webhooks area of `domain.content`: configuration and delivery-log routes, and the delivery
 * worker, which runs from `start()` (once the server listens) to `stop()` (graceful shutdown),
 * never on the request path. Events reach it through the outbox (`shared.outbox`, written by the
 * content and media areas in their transactions). See docs/webhooks.md.
 */
export async function setupWebhooksArea(deps: ServerDeps, _shared: DomainShared): Promise<ModuleSurface> {
  const { config, db } = deps;
  const secretBox = createSecretBox(config.secret);
  const ca = await readCaFile(config.webhookCaFile);
  // CMS_DEV (refused with NODE_ENV=production): loopback and self-signed receivers, for local tries.
  const allowPrivate = config.webhookAllowPrivate || config.dev;
  const worker = createDeliveryWorker({
    db,
    log: deps.log.child({ area: 'webhooks' }),
    secretBox,
    allowPrivate,
    ca,
    acceptAnyCertificate: config.dev,
  });
  return {
    actions: [
      ...webhookActions(createWebhooksService({ db, secretBox, urlPolicy: { allowPrivate } })),
      ...webhookDeliveryActions(createWebhookDeliveriesService({ db })),
    ],
    start: () => worker.start(),
    stop: () => worker.stop(),
  };
}

/** Reads CMS_WEBHOOK_CA_FILE once at start; a missing or unreadable file stops the server. */
async function readCaFile(path: string | null): Promise<string | undefined> {
  if (path === null) return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`CMS_WEBHOOK_CA_FILE cannot be read (${reason}): point it at a PEM file of CA certificates.`);
  }
}
