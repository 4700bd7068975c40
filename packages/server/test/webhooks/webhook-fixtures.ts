import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentWebhookEvent } from '@cms/core';
import { expect } from 'vitest';
import type { Target } from '../../src/http/request-context.js';
import { createOutbox } from '../../src/modules/domain-content/outbox.js';
import type { Db } from '../../src/storage/db.js';
import type { TestResponse } from '../support/test-server.js';
import {
  createTestCertificates,
  type ReceivedRequest,
  startReceiver,
  type TestCertificates,
  type TestReceiver,
} from './https-receiver.js';

/** A webhook secret of valid length. */
export const WEBHOOK_SECRET = 'whsec-test-0123456789abcdef0123456789abcdef';

/** A trusted test CA on disk plus the settings that make a server deliver to 127.0.0.1 with it. */
export interface WebhookTestEnv {
  certificates: TestCertificates;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Writes a fresh CA to a temp file and returns the server settings that trust it. */
export async function createWebhookTestEnv(): Promise<WebhookTestEnv> {
  const certificates = await createTestCertificates();
  const dir = await mkdtemp(join(tmpdir(), 'cms-webhook-ca-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, certificates.caCert);
  return {
    certificates,
    env: { CMS_WEBHOOK_CA_FILE: caFile, CMS_WEBHOOK_ALLOW_PRIVATE: 'true' },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What a scripted receiver answers to one request: a status, or 'hang' (never answer). */
export type ScriptedAnswer = number | 'hang' | { status: number; delayMs: number };

/** A receiver that also notes when (performance.now()) each request arrived. */
export interface ScriptedReceiver extends TestReceiver {
  arrivals: number[];
}

/**
 * Starts a receiver answering the n-th request with `answers[n]`, and the last answer after that.
 */
export async function startScriptedReceiver(
  certificates: TestCertificates,
  answers: readonly ScriptedAnswer[],
): Promise<ScriptedReceiver> {
  const arrivals: number[] = [];
  const receiver = await startReceiver(certificates, (_request: ReceivedRequest, response: ServerResponse) => {
    arrivals.push(performance.now());
    const answer = answers[Math.min(arrivals.length - 1, answers.length - 1)] ?? 204;
    if (answer === 'hang') return;
    if (typeof answer === 'number') {
      response.writeHead(answer).end(answer >= 400 ? `error ${answer}` : 'ok');
      return;
    }
    setTimeout(() => response.writeHead(answer.status).end(), answer.delayMs);
  });
  return Object.assign(receiver, { arrivals });
}

/** An https url on a loopback port nobody listens on: connection refused. */
export async function refusedUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `https://127.0.0.1:${port}/hook`;
}

/** Something that can send API requests (a TestServer or a ServerOnDatabase). */
export interface ApiClient {
  request(method: string, path: string, options?: { body?: unknown }): Promise<TestResponse>;
}

/** Creates a webhook through the API and returns it. */
export async function createWebhook(
  api: ApiClient,
  body: { url: string; events?: string[]; secret?: string; active?: boolean },
): Promise<{ id: string; url: string; events: string[]; active: boolean }> {
  const response = await api.request('POST', '/api/v1/webhooks', {
    body: { events: ['content.created', 'content.published'], secret: WEBHOOK_SECRET, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.data;
}

/** Deletes every webhook of the default environment, so one test's webhooks get no later test's events. */
export async function deleteAllWebhooks(api: ApiClient): Promise<void> {
  const list = await api.request('GET', '/api/v1/webhooks');
  for (const webhook of list.body.data as Array<{ id: string }>) {
    await api.request('DELETE', `/api/v1/webhooks/${webhook.id}`);
  }
}

/** Looks up the target of a project/environment pair. */
export async function targetOf(db: Db, project = 'default', environment = 'production'): Promise<Target> {
  const result = await db.query<Target>(
    `select p.id as "projectId", p.slug as "projectSlug", e.id as "environmentId", e.name as "environmentName",
       e.extends_id as "extendsEnvironmentId", e.is_default as "isDefaultEnvironment"
     from projects p join environments e on e.project_id = p.id where p.slug = $1 and e.name = $2`,
    [project, environment],
  );
  const target = result.rows[0];
  if (!target) throw new Error(`no ${project}/${environment}`);
  return target;
}

/** A document object as a content event carries it (interface.md "Delivery envelope"). */
export const SAMPLE_DOCUMENT: ContentWebhookEvent['document'] = {
  documentId: '5b0f3c2e-8a52-4d8e-9d6b-0a1f2e3d4c5b',
  translationGroupId: '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  type: 'post',
  path: 'blog/hello',
  locale: 'en',
  format: 'md',
  version: 1,
};

/** Records an event in the outbox, in a transaction, as the content area does with a change. */
export async function recordEvent(
  db: Db,
  options: {
    type?: ContentWebhookEvent['event'];
    project?: string;
    environment?: string;
    document?: ContentWebhookEvent['document'];
  } = {},
): Promise<void> {
  const target = await targetOf(db, options.project, options.environment);
  await db.transaction((tx) =>
    createOutbox(db).record(tx, target, {
      type: options.type ?? 'content.created',
      actor: { id: 'user-1', email: 'editor@example.com' },
      document: options.document ?? SAMPLE_DOCUMENT,
      publishedVersion: null,
    }),
  );
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The delivery log of a webhook (first page). */
export async function listDeliveries(api: ApiClient, webhookId: string, query = '') {
  const response = await api.request('GET', `/api/v1/webhooks/${webhookId}/deliveries${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body as { data: DeliveryEntry[]; pagination: { total: number; hasMore: boolean } };
}

/** Waits until the webhook's only (or newest) delivery has the status, and returns it. */
export async function waitForDeliveryStatus(
  api: ApiClient,
  webhookId: string,
  status: string,
  timeoutMs = 10_000,
): Promise<DeliveryEntry> {
  return waitFor(
    `a ${status} delivery`,
    async () => (await listDeliveries(api, webhookId)).data.find((entry) => entry.status === status),
    timeoutMs,
  );
}

/** One entry of the delivery log, as the API returns it. */
export interface DeliveryEntry {
  id: string;
  event: string;
  eventId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  durationMs: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}
