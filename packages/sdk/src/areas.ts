/**
 * The areas besides content, media and auth: schema, webhooks, environments, search, migrations,
 * API keys, users, me, the action catalog, projects and the Studio's bootstrap. One method per route, each returning the
 * envelope's `data` (paginated routes `{ data, pagination }`).
 */
import type {
  contentSearchRoute,
  PendingInvite,
  RouteInput,
  RouteOutput,
  SchemaSyncBody,
  StudioBootstrap,
  schemaGetRoute,
  schemaListRoute,
  schemaSyncRoute,
} from '@cms/core';
import type {
  ActionCatalogItem,
  ApiKey,
  ApiKeyCreateBody,
  Environment,
  Grant,
  Invite,
  Principal,
  Project,
  ProjectSettings,
  User,
  Webhook,
  WebhookCreateBody,
  WebhookDelivery,
  WebhookUpdateBody,
} from './interim-routes.js';
import { iteratePages, type Page } from './pagination.js';
import { callRoute } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';

type Paging = { limit?: number; offset?: number };

export function schemaArea(t: Transport) {
  return {
    /** Every type of the environment's effective schema, and its hash. */
    get: (options?: CallOptions): Promise<RouteOutput<typeof schemaListRoute>> =>
      callRoute(t, 'schema.list', {}, options),
    getType: (type: string, options?: CallOptions): Promise<RouteOutput<typeof schemaGetRoute>> =>
      callRoute(t, 'schema.get', { params: { type } }, options),
    /** Pushes a schema: core's `schemaSyncBody(config, environment)` builds the body. */
    sync: (body: SchemaSyncBody, options?: CallOptions): Promise<RouteOutput<typeof schemaSyncRoute>> =>
      callRoute(t, 'schema.sync', { json: body }, options),
  };
}

export function webhooksArea(t: Transport) {
  return {
    list: (options?: CallOptions): Promise<Webhook[]> => callRoute(t, 'webhooks.list', {}, options),
    create: (body: WebhookCreateBody, options?: CallOptions): Promise<Webhook> =>
      callRoute(t, 'webhooks.create', { json: body }, options),
    update: (id: string, body: WebhookUpdateBody, options?: CallOptions): Promise<Webhook> =>
      callRoute(t, 'webhooks.update', { params: { id }, json: body }, options),
    delete: (id: string, options?: CallOptions): Promise<{ deleted: true; id: string }> =>
      callRoute(t, 'webhooks.delete', { params: { id } }, options),
    /** The delivery log of a webhook, newest first. */
    deliveries: (
      id: string,
      query: Paging & { status?: WebhookDelivery['status'] } = {},
      options?: CallOptions,
    ): Promise<Page<WebhookDelivery>> =>
      callRoute(t, 'webhooks.deliveries.list', { params: { id }, query, envelope: 'paginated' }, options),
    delivery: (id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> =>
      callRoute(t, 'webhooks.deliveries.get', { params: { id, deliveryId } }, options),
    /** Sends one delivery again (same id and body). */
    redeliver: (id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> =>
      callRoute(t, 'webhooks.deliveries.redeliver', { params: { id, deliveryId } }, options),
    /** Sends every failed delivery created at or after `since` again. */
    redeliverFailed: (id: string, since: string, options?: CallOptions): Promise<{ redelivered: number }> =>
      callRoute(
        t,
        'webhooks.deliveries.redeliverFailed',
        { params: { id }, json: { status: 'failed', since } },
        options,
      ),
  };
}

export function environmentsArea(t: Transport) {
  return {
    list: (options?: CallOptions): Promise<Environment[]> => callRoute(t, 'environments.list', {}, options),
    create: (
      body: { name: string; extends?: string | null; [key: string]: unknown },
      options?: CallOptions,
    ): Promise<Environment> => callRoute(t, 'environments.create', { json: body }, options),
    delete: (name: string, options?: CallOptions): Promise<{ deleted: boolean; name: string }> =>
      callRoute(t, 'environments.delete', { params: { name } }, options),
    /** Copies content from `name` to `target`; `dryRun` only plans. */
    promote: (
      name: string,
      body: { target: string; dryRun?: boolean; documentIds?: string[] },
      options?: CallOptions,
    ): Promise<{ plan: Record<string, unknown>[]; [key: string]: unknown }> =>
      callRoute(t, 'environments.promote', { params: { name }, json: body }, options),
  };
}

export type SearchQuery = RouteInput<typeof contentSearchRoute>['query'];

export function searchArea(t: Transport) {
  const query = (input: SearchQuery, options?: CallOptions): Promise<RouteOutput<typeof contentSearchRoute>> =>
    callRoute(t, 'content.search', { query: input, envelope: 'paginated' }, options);
  return {
    query,
    iterate: (input: SearchQuery, options?: CallOptions) =>
      iteratePages((offset) => query({ ...input, offset }, options), input.offset ?? 0),
  };
}

export function migrationsArea(t: Transport) {
  return {
    /** Runs a content migration (frontmatter operations over a type's documents). */
    run: (body: Record<string, unknown>, options?: CallOptions): Promise<Record<string, unknown>> =>
      callRoute(t, 'content.migrate', { json: body }, options),
  };
}

export function apiKeysArea(t: Transport) {
  return {
    list: (query: { project?: string; environment?: string } = {}, options?: CallOptions): Promise<ApiKey[]> =>
      callRoute(t, 'api-keys.list', { query }, options),
    /** Creates a key; the answer's `apiKey` is shown this once. */
    create: (body: ApiKeyCreateBody, options?: CallOptions): Promise<ApiKey & { apiKey: string }> =>
      callRoute(t, 'api-keys.create', { json: body }, options),
    revoke: (id: string, options?: CallOptions): Promise<{ revoked: boolean; id: string }> =>
      callRoute(t, 'api-keys.revoke', { params: { id } }, options),
    /** Revokes the key this client sends (signing it out); any valid key may. A session is refused. */
    revokeCurrent: (options?: CallOptions): Promise<{ revoked: boolean; id: string }> =>
      callRoute(t, 'api-keys.revokeCurrent', {}, options),
  };
}

export function usersArea(t: Transport) {
  const list = (query: Paging & Record<string, unknown> = {}, options?: CallOptions): Promise<Page<User>> =>
    callRoute(t, 'users.list', { query, envelope: 'paginated' }, options);
  return {
    list,
    iterate: (query: Paging = {}, options?: CallOptions) =>
      iteratePages((offset) => list({ ...query, offset }, options), query.offset ?? 0),
    get: (id: string, options?: CallOptions): Promise<User> => callRoute(t, 'users.get', { params: { id } }, options),
    create: (body: { email: string; role: string; password?: string }, options?: CallOptions): Promise<User> =>
      callRoute(t, 'users.create', { json: body }, options),
    update: (
      id: string,
      body: { role?: string; disabled?: boolean; password?: string },
      options?: CallOptions,
    ): Promise<User> => callRoute(t, 'users.update', { params: { id }, json: body }, options),
    delete: (id: string, options?: CallOptions): Promise<User> =>
      callRoute(t, 'users.delete', { params: { id } }, options),
    grants: (id: string, options?: CallOptions): Promise<Grant[]> =>
      callRoute(t, 'users.grants.get', { params: { id } }, options),
    replaceGrants: (id: string, grants: Grant[], options?: CallOptions): Promise<Grant[]> =>
      callRoute(t, 'users.grants.replace', { params: { id }, json: grants }, options),
    /** Invites someone by email; the answer carries the invite URL. */
    invite: (body: { email: string; role: string; [key: string]: unknown }, options?: CallOptions): Promise<Invite> =>
      callRoute(t, 'invites.create', { json: body }, options),
    /** Pending invites (neither accepted nor expired) the caller could have sent, newest first; never their links. */
    pendingInvites: (options?: CallOptions): Promise<PendingInvite[]> => callRoute(t, 'invites.list', {}, options),
    /** Withdraws a pending invite: its link stops working. */
    withdrawInvite: (id: string, options?: CallOptions): Promise<{ withdrawn: boolean; id: string }> =>
      callRoute(t, 'invites.withdraw', { params: { id } }, options),
  };
}

export function meArea(t: Transport) {
  return {
    /** Who the credentials belong to, and what they may do. */
    get: (options?: CallOptions): Promise<Principal> => callRoute(t, 'me.get', {}, options),
  };
}

export function actionsArea(t: Transport) {
  return {
    /** The action catalog, filtered to what the caller may call. */
    list: (options?: CallOptions): Promise<ActionCatalogItem[]> => callRoute(t, 'actions.list', {}, options),
    get: (id: string, options?: CallOptions): Promise<ActionCatalogItem> =>
      callRoute(t, 'actions.get', { params: { id } }, options),
  };
}

export function projectsArea(t: Transport) {
  return {
    list: (options?: CallOptions): Promise<Project[]> => callRoute(t, 'projects.list', {}, options),
    create: (body: { slug: string; name: string }, options?: CallOptions): Promise<Project> =>
      callRoute(t, 'projects.create', { json: body }, options),
    /** Settings of the client's project. */
    settings: (options?: CallOptions): Promise<ProjectSettings> => callRoute(t, 'projects.settings.get', {}, options),
    /** Replaces every setting (null: not set). */
    updateSettings: (body: ProjectSettings, options?: CallOptions): Promise<ProjectSettings> =>
      callRoute(t, 'projects.settings.put', { json: body }, options),
  };
}

export function studioArea(t: Transport) {
  return {
    /** What the Studio needs at start: the principal, projects, environments of the target project, modules. */
    bootstrap: (options?: CallOptions): Promise<StudioBootstrap> => callRoute(t, 'studio.bootstrap', {}, options),
  };
}
