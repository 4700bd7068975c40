/**
 * INTERIM: routes and wire shapes of the areas whose contracts are not declared in `@cms/core`
 * yet (core's `routeTable` holds content, versions, search and schema so far). Typed by hand from the
 * server's current `*.schemas.ts`; each entry is replaced by core's declaration (`routeTable`,
 * `RouteInput`, `RouteOutput`) as its area lands there, and this file is then deleted.
 */
import type { HttpMethod, Scope } from '@cms/core';

export const interimRouteTable = {
  'content.migrate': ['POST', '/api/v1/content/migrations'],
  'media.list': ['GET', '/api/v1/media'],
  'media.upload': ['POST', '/api/v1/media/upload'],
  'media.get': ['GET', '/api/v1/media/{id}'],
  'media.delete': ['DELETE', '/api/v1/media/{id}'],
  'webhooks.list': ['GET', '/api/v1/webhooks'],
  'webhooks.create': ['POST', '/api/v1/webhooks'],
  'webhooks.update': ['PUT', '/api/v1/webhooks/{id}'],
  'webhooks.delete': ['DELETE', '/api/v1/webhooks/{id}'],
  'webhooks.deliveries.list': ['GET', '/api/v1/webhooks/{id}/deliveries'],
  'webhooks.deliveries.get': ['GET', '/api/v1/webhooks/{id}/deliveries/{deliveryId}'],
  'webhooks.deliveries.redeliver': ['POST', '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver'],
  'webhooks.deliveries.redeliverFailed': ['POST', '/api/v1/webhooks/{id}/deliveries/redeliver'],
  'environments.list': ['GET', '/api/v1/environments'],
  'environments.create': ['POST', '/api/v1/environments'],
  'environments.delete': ['DELETE', '/api/v1/environments/{name}'],
  'environments.promote': ['POST', '/api/v1/environments/{name}/promote'],
  'api-keys.list': ['GET', '/api/v1/api-keys'],
  'api-keys.create': ['POST', '/api/v1/api-keys'],
  'api-keys.revoke': ['DELETE', '/api/v1/api-keys/{id}'],
  'api-keys.revokeCurrent': ['DELETE', '/api/v1/api-keys/current'],
  'users.list': ['GET', '/api/v1/users'],
  'users.get': ['GET', '/api/v1/users/{id}'],
  'users.create': ['POST', '/api/v1/users'],
  'users.update': ['PATCH', '/api/v1/users/{id}'],
  'users.delete': ['DELETE', '/api/v1/users/{id}'],
  'users.grants.get': ['GET', '/api/v1/users/{id}/grants'],
  'users.grants.replace': ['PUT', '/api/v1/users/{id}/grants'],
  'invites.create': ['POST', '/api/v1/invites'],
  'invites.accept': ['POST', '/api/v1/invites/accept'],
  'me.get': ['GET', '/api/v1/me'],
  'actions.list': ['GET', '/api/v1/actions'],
  'actions.get': ['GET', '/api/v1/actions/{id}'],
  'auth.login': ['POST', '/api/v1/auth/login'],
  'auth.logout': ['POST', '/api/v1/auth/logout'],
  'auth.sessions.list': ['GET', '/api/v1/auth/sessions'],
  'auth.sessions.end': ['DELETE', '/api/v1/auth/sessions/{id}'],
  'auth.providers': ['GET', '/api/v1/auth/providers'],
  'auth.sso.start': ['POST', '/api/v1/auth/sso/{provider}'],
  'auth.cli.start': ['POST', '/api/v1/auth/cli/start'],
  'auth.cli.challenge': ['GET', '/api/v1/auth/cli/challenges/{id}'],
  'auth.cli.authorize': ['POST', '/api/v1/auth/cli/authorize'],
  'auth.cli.exchange': ['POST', '/api/v1/auth/cli/exchange'],
  'setup.complete': ['POST', '/api/v1/setup'],
  'projects.list': ['GET', '/api/v1/projects'],
  'projects.create': ['POST', '/api/v1/projects'],
  'projects.settings.get': ['GET', '/api/v1/settings'],
  'projects.settings.put': ['PUT', '/api/v1/settings'],
  'studio.bootstrap': ['GET', '/api/v1/studio/bootstrap'],
} as const satisfies Record<string, readonly [HttpMethod, string]>;

type Timestamp = string;

/** A media asset (interface.md "Media asset"). */
export interface MediaAsset {
  id: string;
  project: string;
  filename: string;
  mimeType: string;
  sizeBytes: number;
  url: string;
  uploadedBy: string;
  uploadedAt: Timestamp;
  [key: string]: unknown;
}
export interface MediaListQuery {
  q?: string;
  category?: 'image' | 'video' | 'audio' | 'document' | 'archive' | 'other';
  uploadedBy?: string;
  uploadedFrom?: string;
  uploadedTo?: string;
  sort?: 'uploadedAt' | 'filename' | 'sizeBytes';
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** Webhook events (docs/webhooks.md). */
export type WebhookEventType =
  | 'content.created'
  | 'content.updated'
  | 'content.published'
  | 'content.unpublished'
  | 'content.deleted'
  | 'content.restored'
  | 'media.uploaded';
export interface Webhook {
  id: string;
  project: string;
  environment: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  createdBy: string;
  updatedBy: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
export interface WebhookCreateBody {
  url: string;
  events: WebhookEventType[];
  secret: string;
  active?: boolean;
}
export type WebhookUpdateBody = Partial<WebhookCreateBody>;
export interface WebhookDelivery {
  id: string;
  event: WebhookEventType;
  eventId: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  durationMs: number | null;
  lastAttemptAt: Timestamp | null;
  nextAttemptAt: Timestamp | null;
  createdAt: Timestamp;
  attemptLog?: Record<string, unknown>[];
}

/** An environment (interface.md "Environment"). */
export interface Environment {
  name: string;
  extends: string | null;
  isDefault: boolean;
  createdAt: Timestamp;
}

export interface ContextEntry {
  project: string;
  environment: string;
}
export interface ApiKey {
  id: string;
  label: string;
  scopes: Scope[];
  contextAllowlist: ContextEntry[];
  [key: string]: unknown;
}
export interface ApiKeyCreateBody {
  label: string;
  scopes: Scope[];
  contextAllowlist: ContextEntry[];
  expiresAt?: Timestamp | null;
  [key: string]: unknown;
}

export interface User {
  id: string;
  email: string;
  role: string;
  disabled: boolean;
  hasPassword: boolean;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
export interface Grant {
  project: string;
  environment: string;
  role: string;
}
export interface Invite {
  id: string;
  email: string;
  role: string;
  project: string;
  inviteUrl: string;
  expiresAt: Timestamp;
}

/** `GET /api/v1/me` (interface.md "Principal"). */
export interface Principal {
  principalType: 'apiKey' | 'user';
  principalId: string;
  label?: string;
  email?: string;
  role?: string;
  capabilities: Record<string, boolean>;
  [key: string]: unknown;
}

/** An action catalog item (interface.md "Action catalog item"). */
export interface ActionCatalogItem {
  id: string;
  kind: 'command' | 'query';
  method: HttpMethod;
  path: string;
  permissions: Scope[];
  studio?: Record<string, unknown>;
  cli?: Record<string, unknown>;
  requestSchema?: Record<string, unknown>;
  responseSchema?: Record<string, unknown>;
}

export interface Session {
  id: string;
  userId: string;
  email: string;
  issuedAt: Timestamp;
  expiresAt: Timestamp;
  lastSeenAt?: Timestamp;
  userAgent?: string | null;
  ipAddress?: string | null;
  current?: boolean;
}
export interface AuthProvider {
  slug: string;
  kind: 'oidc' | 'saml';
  label: string;
}
export interface CliChallenge {
  challengeId: string;
  project: string;
  environment: string;
  status: 'pending' | 'authorized' | 'exchanged';
  callbackUrl: string | null;
  expiresAt: Timestamp;
}

/** Who made the change an event reports; `email` is empty for API keys. */
export interface WebhookEventUser {
  id: string;
  email: string;
}

interface WebhookEventBase {
  timestamp: Timestamp;
  project: string;
  environment: string;
  user: WebhookEventUser;
}

/** A `content.*` delivery body (docs/webhooks.md "Events and envelope"). */
export interface ContentWebhookEvent extends WebhookEventBase {
  event: Exclude<WebhookEventType, 'media.uploaded'>;
  document: {
    documentId: string;
    translationGroupId: string;
    type: string;
    path: string;
    locale: string;
    format: 'md' | 'mdx';
    version: number;
  };
}

/** A `media.uploaded` delivery body. */
export interface MediaWebhookEvent extends WebhookEventBase {
  event: 'media.uploaded';
  media: { id: string; filename: string; mimeType: string; sizeBytes: number; url: string };
}

/** Any delivery body; narrow on `event`. */
export type WebhookEvent = ContentWebhookEvent | MediaWebhookEvent;

/** A project. */
export interface Project {
  slug: string;
  name: string;
  createdAt: Timestamp;
}

/** Settings of a project (`GET`/`PUT /api/v1/settings`). */
export interface ProjectSettings {
  /** Images larger than this are refused with PAYLOAD_TOO_LARGE; null: no extra limit. */
  mediaImageMaxBytes: number | null;
}
