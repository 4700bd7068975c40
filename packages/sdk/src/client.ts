/**
 * `createClient`: the typed client of the API.
 * @example
 * const cms = createClient({ baseUrl, apiKey, project: 'default', environment: 'production' });
 * const page = await cms.content.list({ type: 'post', limit: 20, sort: 'createdAt', order: 'desc' });
 */
import {
  actionsArea,
  apiKeysArea,
  environmentsArea,
  meArea,
  migrationsArea,
  projectsArea,
  schemaArea,
  searchArea,
  studioArea,
  usersArea,
  webhooksArea,
} from './areas.js';
import { auditArea } from './audit.js';
import { authArea } from './auth.js';
import { changesArea } from './changes.js';
import { contentArea } from './content.js';
import { mediaArea } from './media.js';
import { releasesArea } from './releases.js';
import type { RetryOptions } from './retry.js';
import { type Credentials, createTransport, type Transport, type TransportOptions } from './transport.js';
import type { ClientTypes } from './typed-content.js';

/** What `createClient` takes. */
export interface ClientOptions<Types extends ClientTypes = readonly []> {
  /** Where the API is, such as `https://cms.example.com`. */
  baseUrl: string;
  /** An API key (`cms_key_...`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /**
   * Use the browser's session cookie instead of a key (the Studio, same origin): requests are sent
   * with `credentials: 'include'` and mutations with the CSRF header read from the `cms_csrf`
   * cookie, or from `csrfToken()` when given.
   */
  session?: boolean | { csrfToken: () => string | null | undefined };
  project?: string;
  environment?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  timeoutMs?: number;
  retries?: number | RetryOptions;
  /** X-CMS-Schema-Hash of writes: a hash, or `'fetch'` to read the server's (see TransportOptions). */
  schemaHash?: string | 'fetch';
  /** Called before each retry (see TransportOptions): how the CLI shows "retry 1 in 500 ms". */
  onRetry?: TransportOptions['onRetry'];
  /**
   * The config's types, so `content.list({ type: 'post' })` types frontmatter by name. Or, without
   * this option, the `CmsTypes` that `cms types` generates: `createClient<CmsTypes>({ ... })`.
   */
  types?: Types;
}

function credentialsOf(options: ClientOptions<ClientTypes>): Credentials {
  if (options.apiKey) return { kind: 'apiKey', apiKey: options.apiKey };
  if (options.session) {
    return typeof options.session === 'object'
      ? { kind: 'session', csrfToken: options.session.csrfToken }
      : { kind: 'session' };
  }
  return { kind: 'none' };
}

function areas<Types extends ClientTypes>(transport: Transport) {
  return {
    content: contentArea<Types>(transport),
    schema: schemaArea(transport),
    media: mediaArea(transport),
    webhooks: webhooksArea(transport),
    releases: releasesArea(transport),
    changes: changesArea(transport),
    audit: auditArea(transport),
    environments: environmentsArea(transport),
    search: searchArea(transport),
    migrations: migrationsArea(transport),
    apiKeys: apiKeysArea(transport),
    users: usersArea(transport),
    me: meArea(transport),
    actions: actionsArea(transport),
    projects: projectsArea(transport),
    auth: authArea(transport),
    studio: studioArea(transport),
  };
}

/** A client: one property per area. */
export type CmsClient<Types extends ClientTypes = readonly []> = ReturnType<typeof areas<Types>> & {
  /** The same client for another project or environment. */
  withTarget(target: { project?: string; environment?: string }): CmsClient<Types>;
};

/** Creates a client. Nothing is sent until a method is called. */
export function createClient<const Types extends ClientTypes = readonly []>(
  options: ClientOptions<Types>,
): CmsClient<Types> {
  const { apiKey: _apiKey, session: _session, types: _types, ...rest } = options;
  const transport = createTransport({ ...rest, credentials: credentialsOf(options) });
  return {
    ...areas<Types>(transport),
    withTarget: (target) => createClient<Types>({ ...options, ...target }),
  };
}
