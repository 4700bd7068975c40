/**
 * The areas besides content, media and auth: schema, webhooks, environments, search, migrations,
 * API keys, users, me, the action catalog, projects and the Studio's bootstrap. One method per route, each returning the
 * envelope's `data` (paginated routes `{ data, pagination }`).
 */
import type { contentSearchRoute, RouteInput, RouteOutput, SchemaSyncBody } from '@cms/core';
import { iteratePages } from './pagination.js';
import { callRoute, type In } from './route-call.js';
import type { CallOptions, Transport } from './transport.js';
import type { Grant, WebhookCreateBody, WebhookDelivery, WebhookUpdateBody } from './types.js';

type Paging = { limit?: number; offset?: number };

export function schemaArea(t: Transport) {
  return {
    /** Every type of the environment's effective schema, and its hash. */
    get: (options?: CallOptions) => callRoute(t, 'schema.list', {}, options),
    getType: (type: string, options?: CallOptions) => callRoute(t, 'schema.get', { params: { type } }, options),
    /** Pushes a schema: core's `schemaSyncBody(config, environment)` builds the body. */
    sync: (body: SchemaSyncBody, options?: CallOptions) => callRoute(t, 'schema.sync', { json: body }, options),
  };
}

export function webhooksArea(t: Transport) {
  return {
    list: (options?: CallOptions) => callRoute(t, 'webhooks.list', {}, options),
    create: (body: WebhookCreateBody, options?: CallOptions) =>
      callRoute(t, 'webhooks.create', { json: body }, options),
    update: (id: string, body: WebhookUpdateBody, options?: CallOptions) =>
      callRoute(t, 'webhooks.update', { params: { id }, json: body }, options),
    delete: (id: string, options?: CallOptions) => callRoute(t, 'webhooks.delete', { params: { id } }, options),
    /** The delivery log of a webhook, newest first. */
    deliveries: (id: string, query: Paging & { status?: WebhookDelivery['status'] } = {}, options?: CallOptions) =>
      callRoute(t, 'webhooks.deliveries.list', { params: { id }, query, envelope: 'paginated' }, options),
    delivery: (id: string, deliveryId: string, options?: CallOptions) =>
      callRoute(t, 'webhooks.deliveries.get', { params: { id, deliveryId } }, options),
    /** Sends one delivery again (same id and body). */
    redeliver: (id: string, deliveryId: string, options?: CallOptions) =>
      callRoute(t, 'webhooks.deliveries.redeliver', { params: { id, deliveryId } }, options),
    /** Sends every failed delivery created at or after `since` again. */
    redeliverFailed: (id: string, since: string, options?: CallOptions) =>
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
    list: (options?: CallOptions) => callRoute(t, 'environments.list', {}, options),
    /** Creates an environment, empty, extending another (`extends`) or copied from one (`cloneFrom`). */
    create: (body: In<'environments.create', 'body'>, options?: CallOptions) =>
      callRoute(t, 'environments.create', { json: body }, options),
    delete: (name: string, options?: CallOptions) => callRoute(t, 'environments.delete', { params: { name } }, options),
    /** Copies content from `name` to `target`; `dryRun` only plans. */
    promote: (name: string, body: In<'environments.promote', 'body'>, options?: CallOptions) =>
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
    run: (body: In<'content.migrate', 'body'>, options?: CallOptions) =>
      callRoute(t, 'content.migrate', { json: body }, options),
  };
}

export function apiKeysArea(t: Transport) {
  return {
    /** The keys the caller could have created (never their secrets). */
    list: (options?: CallOptions) => callRoute(t, 'api-keys.list', {}, options),
    /** Creates a key; the answer's `apiKey` is shown this once. */
    create: (body: In<'api-keys.create', 'body'>, options?: CallOptions) =>
      callRoute(t, 'api-keys.create', { json: body }, options),
    revoke: (id: string, options?: CallOptions) => callRoute(t, 'api-keys.revoke', { params: { id } }, options),
    /** Revokes the key this client sends (signing it out); any valid key may. A session is refused. */
    revokeCurrent: (options?: CallOptions) => callRoute(t, 'api-keys.revokeCurrent', {}, options),
  };
}

export function usersArea(t: Transport) {
  const list = (query: In<'users.list', 'query'> = {}, options?: CallOptions) =>
    callRoute(t, 'users.list', { query, envelope: 'paginated' }, options);
  return {
    list,
    iterate: (query: Paging = {}, options?: CallOptions) =>
      iteratePages((offset) => list({ ...query, offset }, options), query.offset ?? 0),
    get: (id: string, options?: CallOptions) => callRoute(t, 'users.get', { params: { id } }, options),
    create: (body: In<'users.create', 'body'>, options?: CallOptions) =>
      callRoute(t, 'users.create', { json: body }, options),
    update: (id: string, body: In<'users.update', 'body'>, options?: CallOptions) =>
      callRoute(t, 'users.update', { params: { id }, json: body }, options),
    delete: (id: string, options?: CallOptions) => callRoute(t, 'users.delete', { params: { id } }, options),
    grants: (id: string, options?: CallOptions) => callRoute(t, 'users.grants.get', { params: { id } }, options),
    replaceGrants: (id: string, grants: Grant[], options?: CallOptions) =>
      callRoute(t, 'users.grants.replace', { params: { id }, json: grants }, options),
    /** Invites someone by email; the answer carries the invite URL. */
    invite: (body: In<'invites.create', 'body'>, options?: CallOptions) =>
      callRoute(t, 'invites.create', { json: body }, options),
    /** Pending invites (neither accepted nor expired) the caller could have sent, newest first; never their links. */
    pendingInvites: (options?: CallOptions) => callRoute(t, 'invites.list', {}, options),
    /** Withdraws a pending invite: its link stops working. */
    withdrawInvite: (id: string, options?: CallOptions) =>
      callRoute(t, 'invites.withdraw', { params: { id } }, options),
  };
}

export function meArea(t: Transport) {
  return {
    /** Who the credentials belong to, and what they may do. */
    get: (options?: CallOptions) => callRoute(t, 'me.get', {}, options),
    /**
     * Changes the signed-in person's own password (a session client; an API key is FORBIDDEN): the
     * current one proves it, and their other sessions end. Answers how many ended.
     */
    changePassword: (body: In<'me.password.change', 'body'>, options?: CallOptions) =>
      callRoute(t, 'me.password.change', { json: body }, options),
  };
}

export function actionsArea(t: Transport) {
  return {
    /** The action catalog, filtered to what the caller may call. */
    list: (options?: CallOptions) => callRoute(t, 'actions.list', {}, options),
    get: (id: string, options?: CallOptions) => callRoute(t, 'actions.get', { params: { id } }, options),
  };
}

export function projectsArea(t: Transport) {
  return {
    list: (options?: CallOptions) => callRoute(t, 'projects.list', {}, options),
    create: (body: In<'projects.create', 'body'>, options?: CallOptions) =>
      callRoute(t, 'projects.create', { json: body }, options),
    /** Settings of the client's project. */
    settings: (options?: CallOptions) => callRoute(t, 'projects.settings.get', {}, options),
    /** Replaces every setting (null: not set). */
    updateSettings: (body: In<'projects.settings.put', 'body'>, options?: CallOptions) =>
      callRoute(t, 'projects.settings.put', { json: body }, options),
    /** Changes only the settings named (null: not set); the others keep their values. */
    patchSettings: (body: In<'projects.settings.patch', 'body'>, options?: CallOptions) =>
      callRoute(t, 'projects.settings.patch', { json: body }, options),
  };
}

export function studioArea(t: Transport) {
  return {
    /** What the Studio needs at start: the principal, projects, environments of the target project, modules. */
    bootstrap: (options?: CallOptions) => callRoute(t, 'studio.bootstrap', {}, options),
  };
}
