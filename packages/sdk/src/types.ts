/**
 * The wire types the SDK exports, each an alias of a core declaration (`Static` of a TypeBox schema
 * or a route's input), so the SDK, the server and every other client share one shape per thing.
 */
import type {
  CatalogItem,
  ApiKey as CoreApiKey,
  AuditEntry as CoreAuditEntry,
  AuditVerification as CoreAuditVerification,
  CliChallenge as CoreCliChallenge,
  ContentWebhookEvent as CoreContentWebhookEvent,
  ContextEntry as CoreContextEntry,
  Environment as CoreEnvironment,
  Grant as CoreGrant,
  Invite as CoreInvite,
  MediaAsset as CoreMediaAsset,
  MediaWebhookEvent as CoreMediaWebhookEvent,
  Project as CoreProject,
  ProjectSettings as CoreProjectSettings,
  Session as CoreSession,
  User as CoreUser,
  Webhook as CoreWebhook,
  WebhookEvent as CoreWebhookEvent,
  WebhookEventUser as CoreWebhookEventUser,
  CreateApiKeyBody,
  Delivery,
  DeliveryDetail,
  EventType,
  Me,
  SsoProvider,
} from '@cms/core';
import type { In } from './route-call.js';

/** A media asset (interface.md "Media asset"). */
export type MediaAsset = CoreMediaAsset;
/** Filters, sorting and page of `media.list`. */
export type MediaListQuery = In<'media.list', 'query'>;
/** Body of `media.update`: `alt` and/or `focalPoint`. */
export type MediaUpdateBody = In<'media.update', 'body'>;

/** Webhook event names (docs/webhooks.md). */
export type WebhookEventType = EventType;
export type Webhook = CoreWebhook;
export type WebhookCreateBody = In<'webhooks.create', 'body'>;
export type WebhookUpdateBody = In<'webhooks.update', 'body'>;
/** An entry of the delivery log; `webhooks.delivery()` adds every attempt (`attemptLog`). */
export type WebhookDelivery = Delivery & Partial<Pick<DeliveryDetail, 'attemptLog'>>;
/** A delivery with every attempt made. */
export type WebhookDeliveryDetail = DeliveryDetail;

/** An environment (interface.md "Environment"). */
export type Environment = CoreEnvironment;

/** One project/environment pair of a key's allowlist; `*` matches any. */
export type ContextEntry = CoreContextEntry;
/** An API key as listed: never its secret. */
export type ApiKey = CoreApiKey;
export type ApiKeyCreateBody = CreateApiKeyBody;

export type User = CoreUser;
export type Grant = CoreGrant;
export type Invite = CoreInvite;

/** `GET /api/v1/me` (interface.md "Principal"). */
export type Principal = Me;

/** An action catalog item (interface.md "Action catalog item"). */
export type ActionCatalogItem = CatalogItem;

export type Session = CoreSession;
export type AuthProvider = SsoProvider;
export type CliChallenge = CoreCliChallenge;

/** Who made the change an event reports; `email` is empty for API keys. */
export type WebhookEventUser = CoreWebhookEventUser;
/** A `content.*` delivery body (docs/webhooks.md "Events and envelope"). */
export type ContentWebhookEvent = CoreContentWebhookEvent;
/** A `media.uploaded` delivery body. */
export type MediaWebhookEvent = CoreMediaWebhookEvent;
/** Any delivery body; narrow on `event`. */
export type WebhookEvent = CoreWebhookEvent;

export type Project = CoreProject;
/** Settings of a project (`GET`/`PUT /api/v1/settings`). */
export type ProjectSettings = CoreProjectSettings;

/** An entry of the audit log (docs/audit.md). */
export type AuditEntry = CoreAuditEntry;
/** The answer of `audit.verify`. */
export type AuditVerification = CoreAuditVerification;
