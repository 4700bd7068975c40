/**
 * Every API call the Studio makes, by area, each through the SDK's session client (`sdk.ts`).
 * Pages import from here only.
 */

import type { Role } from '@cms/core';
import type { MediaListQuery } from '@cms/sdk';
import type { SchemaType } from '../editor/core-schema.js';
import { at, cms, type Target, viaSdk } from './sdk.js';
import type {
  AuthProvider,
  Bootstrap,
  ContentDocument,
  Environment,
  OverviewCount,
  Principal,
  SearchHit,
  Session,
  VariantEntry,
  VersionEntry,
  VersionSnapshot,
} from './types.js';

export type { MediaAsset, MediaListQuery, Page } from '@cms/sdk';
export { ApiError, setUnauthorizedHandler } from './errors.js';
export type { Target } from './sdk.js';
export * from './types.js';

export const auth = {
  providers: () => viaSdk<AuthProvider[]>(() => cms.auth.providers(), { public: true }),
  login: (email: string, password: string) =>
    viaSdk<{ session: Session }>(() => cms.auth.login({ email, password }), { public: true }),
  logout: () => viaSdk<{ success: boolean }>(() => cms.auth.logout(), { public: true }),
  setup: (token: string, email: string, password: string) =>
    viaSdk<{ session: Session }>(() => cms.auth.setup({ token, email, password }), { public: true }),
  acceptInvite: (token: string, password: string) =>
    viaSdk<{ session: Session }>(() => cms.auth.acceptInvite({ token, password }), { public: true }),
  /** Starts single sign-on with a provider; the browser then goes to `redirectUrl`. */
  startSso: (provider: string) => viaSdk<{ redirectUrl: string }>(() => cms.auth.sso.start(provider), { public: true }),
  cliChallenge: (challengeId: string) => viaSdk<CliChallenge>(() => cms.auth.cli.challenge(challengeId)),
  cliAuthorize: (challengeId: string) =>
    viaSdk<{ success: boolean; code: string; callbackUrl?: string | null }>(() => cms.auth.cli.authorize(challengeId)),
};

export interface CliChallenge {
  challengeId?: string;
  project: string;
  environment: string;
  expiresAt: string;
  status?: string;
  callbackUrl?: string | null;
}

export const studio = {
  bootstrap: (project?: string | null) => viaSdk<Bootstrap>(() => at(project ? { project } : null).studio.bootstrap()),
  me: (target: Target) => viaSdk<Principal>(() => at(target).me.get()),
  environments: (project: string) => viaSdk<Environment[]>(() => at({ project }).environments.list()),
};

export const schema = {
  get: (target: Target) => viaSdk<{ types: SchemaType[]; schemaHash: string }>(() => at(target).schema.get()),
};

export interface ListQuery {
  type: string;
  locale?: string;
  published?: boolean;
  hasUnpublishedChanges?: boolean;
  isDeleted?: boolean;
  limit?: number;
  offset?: number;
  sort?: 'createdAt' | 'updatedAt' | 'path';
  order?: 'asc' | 'desc';
}

export interface DocumentInput {
  type: string;
  path: string;
  locale?: string;
  format?: 'md' | 'mdx';
  frontmatter: Record<string, unknown>;
  body?: string;
  translationGroupId?: string;
}

const withHash = (schemaHash: string) => ({ headers: { 'x-cms-schema-hash': schemaHash } });
type Page<T> = import('@cms/sdk').Page<T>;

export const content = {
  overview: (target: Target) => viaSdk<{ counts: OverviewCount[] }>(() => at(target).content.overview()),
  list: (target: Target, query: ListQuery) =>
    viaSdk<Page<ContentDocument>>(() => at(target).content.list({ ...query, draft: true })),
  recent: (target: Target, type: string, limit: number) =>
    viaSdk<Page<ContentDocument>>(() =>
      at(target).content.list({ type, draft: true, sort: 'updatedAt', order: 'desc', limit }),
    ),
  search: (target: Target, q: string, options: { type?: string; limit?: number; offset?: number } = {}) =>
    viaSdk<Page<SearchHit>>(() => at(target).search.query({ q, draft: true, ...options })),
  get: (target: Target, id: string, options: { resolve?: string[] } = {}) =>
    viaSdk<ContentDocument>(() =>
      at(target).content.get(id, { draft: true, ...(options.resolve?.length ? { resolve: options.resolve } : {}) }),
    ),
  create: (target: Target, schemaHash: string, input: DocumentInput) =>
    viaSdk<ContentDocument>(() => at(target).content.create(input, withHash(schemaHash))),
  update: (
    target: Target,
    schemaHash: string,
    id: string,
    input: { frontmatter: Record<string, unknown>; body: string; draftRevision: number },
  ) => viaSdk<ContentDocument>(() => at(target).content.update(id, input, withHash(schemaHash))),
  publish: (target: Target, id: string, changeSummary?: string) =>
    viaSdk<{ version: number; publishedVersion: number }>(() =>
      at(target).content.publish(id, changeSummary ? { changeSummary } : {}),
    ),
  unpublish: (target: Target, id: string) => viaSdk<unknown>(() => at(target).content.unpublish(id)),
  remove: (target: Target, id: string) => viaSdk<unknown>(() => at(target).content.delete(id)),
  restoreDeleted: (target: Target, id: string) => viaSdk<unknown>(() => at(target).content.restore(id)),
  duplicate: (target: Target, id: string) => viaSdk<ContentDocument>(() => at(target).content.duplicate(id)),
  versions: (target: Target, id: string, offset = 0) =>
    viaSdk<Page<VersionEntry>>(() => at(target).content.versions(id, { limit: 100, offset })),
  version: (target: Target, id: string, version: number) =>
    viaSdk<VersionSnapshot>(() => at(target).content.getVersion(id, version)),
  restoreVersion: (target: Target, id: string, version: number) =>
    viaSdk<{ draftRevision: number; restoredFromVersion: number }>(() =>
      at(target).content.restoreVersion(id, version),
    ),
  variants: (target: Target, id: string) => viaSdk<VariantEntry[]>(() => at(target).content.variants(id)),
  previewToken: (target: Target, id: string, previewUrl?: string) =>
    viaSdk<{ token: string; expiresAt: string }>(() =>
      at(target).content.previewToken(id, previewUrl ? { previewUrl } : {}),
    ),
};

export const media = {
  /** One page of the project's media library. */
  list: (target: Target, query: MediaListQuery) =>
    viaSdk<Page<import('@cms/sdk').MediaAsset>>(() => at(target).media.list(query)),
};

// ---- Administration: API keys, people, environments (pages/api-keys, pages/people, pages/environments) ----

/** A key as listed (never its secret); `kind` is `live` (automation), `cli` (device flow) or `preview`. */
export interface ApiKeyEntry {
  id: string;
  kind: 'live' | 'cli' | 'preview' | string;
  label: string;
  prefix: string;
  scopes: string[];
  contextAllowlist: { project: string; environment: string }[];
  expiresAt: string | null;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface ApiKeyInput {
  label: string;
  scopes: string[];
  contextAllowlist: { project: string; environment: string }[];
  expiresAt?: string | null;
}

export const apiKeys = {
  list: () => viaSdk<ApiKeyEntry[]>(() => cms.apiKeys.list()),
  /** The answer's `apiKey` is the only time the full key is shown. */
  create: (input: ApiKeyInput) =>
    viaSdk<ApiKeyEntry & { apiKey: string }>(() => cms.apiKeys.create(input as import('@cms/sdk').ApiKeyCreateBody)),
  revoke: (id: string) => viaSdk<{ revoked: boolean; id: string }>(() => cms.apiKeys.revoke(id)),
};

export interface UserEntry {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
}
export interface GrantEntry {
  project: string;
  environment: string;
  role: Role;
}
export interface InviteEntry {
  id: string;
  email: string;
  role: string;
  project: string | null;
  inviteUrl: string;
  expiresAt: string;
}
/** A pending invite as listed: no link (its token is shown only when the invite is created). */
export interface PendingInviteEntry {
  id: string;
  email: string;
  role: string;
  project: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
}
export interface SessionEntry extends Session {
  lastSeenAt?: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  current?: boolean;
}

export const people = {
  list: (offset: number, limit: number) => viaSdk<Page<UserEntry>>(() => cms.users.list({ offset, limit })),
  create: (input: { email: string; role: Role; password?: string }) => viaSdk<UserEntry>(() => cms.users.create(input)),
  update: (id: string, input: { role?: Role; disabled?: boolean }) =>
    viaSdk<UserEntry>(() => cms.users.update(id, input)),
  grants: (id: string) => viaSdk<GrantEntry[]>(() => cms.users.grants(id)),
  replaceGrants: (id: string, grants: GrantEntry[]) => viaSdk<GrantEntry[]>(() => cms.users.replaceGrants(id, grants)),
  invite: (input: { email: string; role: Role; project?: string }) =>
    viaSdk<InviteEntry>(() => cms.users.invite(input)),
  pendingInvites: () => viaSdk<PendingInviteEntry[]>(() => cms.users.pendingInvites()),
  withdrawInvite: (id: string) => viaSdk<{ withdrawn: boolean; id: string }>(() => cms.users.withdrawInvite(id)),
  sessions: () => viaSdk<SessionEntry[]>(() => cms.auth.sessions()),
  endSession: (id: string) => viaSdk<{ deleted: boolean; id: string; current: boolean }>(() => cms.auth.endSession(id)),
};

export interface PromotePlanEntry {
  documentId: string;
  path: string;
  locale: string;
  action: 'create' | 'update' | 'unchanged' | 'conflict';
  reason?: string;
}

export const environments = {
  list: (project: string) => viaSdk<Environment[]>(() => at({ project }).environments.list()),
  create: (project: string, input: { name: string; extends?: string; cloneFrom?: string }) =>
    viaSdk<Environment>(() => at({ project }).environments.create(input)),
  remove: (project: string, name: string) =>
    viaSdk<{ deleted: boolean; name: string }>(() => at({ project }).environments.delete(name)),
  promote: (project: string, source: string, body: { target: string; dryRun?: boolean; documentIds?: string[] }) =>
    viaSdk<{ plan: PromotePlanEntry[]; applied: boolean }>(() => at({ project }).environments.promote(source, body)),
};
