/**
 * Every API call the Studio makes, by area, each through the SDK's session client (`sdk.ts`).
 * Pages import from here only.
 */

import type { Role } from '@cms/core';
import type { ContentListQuery, MediaListQuery, Page } from '@cms/sdk';
import type { SchemaType } from '../editor/core-schema.js';
import { at, cms, type Target, viaSdk } from './sdk.js';
import type { ApiKeyCreateBody, ContentDocument, Grant } from './types.js';

export type { MediaAsset, MediaListQuery, Page } from '@cms/sdk';
export { ApiError, fieldMessages, setUnauthorizedHandler } from './errors.js';
export type { Target } from './sdk.js';
export * from './types.js';

export const auth = {
  providers: () => viaSdk(() => cms.auth.providers(), { public: true }),
  login: (email: string, password: string) => viaSdk(() => cms.auth.login({ email, password }), { public: true }),
  logout: () => viaSdk(() => cms.auth.logout(), { public: true }),
  setup: (token: string, email: string, password: string) =>
    viaSdk(() => cms.auth.setup({ token, email, password }), { public: true }),
  acceptInvite: (token: string, password: string) =>
    viaSdk(() => cms.auth.acceptInvite({ token, password }), { public: true }),
  /** Starts single sign-on with a provider; the browser then goes to `redirectUrl`. */
  startSso: (provider: string) => viaSdk(() => cms.auth.sso.start(provider), { public: true }),
  cliChallenge: (challengeId: string) => viaSdk(() => cms.auth.cli.challenge(challengeId)),
  /** The one-time code, for the command line waiting at the challenge's `callbackUrl` (or for the person to paste). */
  cliAuthorize: (challengeId: string) => viaSdk(() => cms.auth.cli.authorize(challengeId)),
  /** Refuses the sign-in on the server, so the waiting command line stops at once. */
  cliDeny: (challengeId: string) => viaSdk(() => cms.auth.cli.deny(challengeId)),
};

export const studio = {
  bootstrap: (project?: string | null) => viaSdk(() => at(project ? { project } : null).studio.bootstrap()),
  me: (target: Target) => viaSdk(() => at(target).me.get()),
  environments: (project: string) => viaSdk(() => at({ project }).environments.list()),
};

export const schema = {
  /** The schema in force, its fields read as the editor's field metadata. */
  get: (target: Target) =>
    viaSdk(() => at(target).schema.get() as Promise<{ types: SchemaType[]; schemaHash: string }>),
};

/** Query of a type's list (drafts included: the Studio always lists drafts). */
export type ListQuery = Omit<ContentListQuery<string, never>, 'draft' | 'resolve'>;

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
/** Core's document read with its resolve errors typed (ContentDocument). */
const asDocument = (answer: Promise<unknown>) => answer as Promise<ContentDocument>;
const asDocuments = (answer: Promise<unknown>) => answer as Promise<Page<ContentDocument>>;

export const content = {
  overview: (target: Target) => viaSdk(() => at(target).content.overview()),
  list: (target: Target, query: ListQuery) =>
    viaSdk(() => asDocuments(at(target).content.list({ ...query, draft: true }))),
  recent: (target: Target, type: string, limit: number) =>
    viaSdk(() => asDocuments(at(target).content.list({ type, draft: true, sort: 'updatedAt', order: 'desc', limit }))),
  search: (target: Target, q: string, options: { type?: string; limit?: number; offset?: number } = {}) =>
    viaSdk(() => at(target).search.query({ q, draft: true, ...options })),
  get: (target: Target, id: string, options: { resolve?: string[] } = {}) =>
    viaSdk(() =>
      asDocument(
        at(target).content.get(id, { draft: true, ...(options.resolve?.length ? { resolve: options.resolve } : {}) }),
      ),
    ),
  create: (target: Target, schemaHash: string, input: DocumentInput) =>
    viaSdk(() => asDocument(at(target).content.create(input, withHash(schemaHash)))),
  update: (
    target: Target,
    schemaHash: string,
    id: string,
    input: { frontmatter: Record<string, unknown>; body: string; draftRevision: number },
  ) => viaSdk(() => asDocument(at(target).content.update(id, input, withHash(schemaHash)))),
  publish: (target: Target, id: string, changeSummary?: string) =>
    viaSdk(() => at(target).content.publish(id, changeSummary ? { changeSummary } : {})),
  unpublish: (target: Target, id: string) => viaSdk(() => at(target).content.unpublish(id)),
  remove: (target: Target, id: string) => viaSdk(() => at(target).content.delete(id)),
  restoreDeleted: (target: Target, id: string) => viaSdk(() => at(target).content.restore(id)),
  duplicate: (target: Target, id: string) => viaSdk(() => asDocument(at(target).content.duplicate(id))),
  versions: (target: Target, id: string, offset = 0) =>
    viaSdk(() => at(target).content.versions(id, { limit: 100, offset })),
  version: (target: Target, id: string, version: number) => viaSdk(() => at(target).content.getVersion(id, version)),
  restoreVersion: (target: Target, id: string, version: number) =>
    viaSdk(() => at(target).content.restoreVersion(id, version)),
  variants: (target: Target, id: string) => viaSdk(() => at(target).content.variants(id)),
  previewToken: (target: Target, id: string, previewUrl?: string) =>
    viaSdk(() => at(target).content.previewToken(id, previewUrl ? { previewUrl } : {})),
};

export const media = {
  /** One page of the project's media library. */
  list: (target: Target, query: MediaListQuery) => viaSdk(() => at(target).media.list(query)),
};

// ---- Administration: API keys, people, environments (pages/api-keys, pages/people, pages/environments) ----

export const apiKeys = {
  /** Keys as listed (never their secret); `kind` is `live` (automation), `cli` (device flow) or `preview`. */
  list: () => viaSdk(() => cms.apiKeys.list()),
  /** The answer's `apiKey` is the only time the full key is shown. */
  create: (input: ApiKeyCreateBody) => viaSdk(() => cms.apiKeys.create(input)),
  revoke: (id: string) => viaSdk(() => cms.apiKeys.revoke(id)),
};

export const people = {
  list: (offset: number, limit: number) => viaSdk(() => cms.users.list({ offset, limit })),
  create: (input: { email: string; role: Role; password?: string }) => viaSdk(() => cms.users.create(input)),
  update: (id: string, input: { role?: Role; disabled?: boolean }) => viaSdk(() => cms.users.update(id, input)),
  grants: (id: string) => viaSdk(() => cms.users.grants(id)),
  replaceGrants: (id: string, grants: Grant[]) => viaSdk(() => cms.users.replaceGrants(id, grants)),
  /** The answer's `inviteUrl` is the only time the link is shown. */
  invite: (input: { email: string; role: Role; project?: string }) => viaSdk(() => cms.users.invite(input)),
  /** Invites neither accepted nor expired, without their links. */
  pendingInvites: () => viaSdk(() => cms.users.pendingInvites()),
  withdrawInvite: (id: string) => viaSdk(() => cms.users.withdrawInvite(id)),
  sessions: () => viaSdk(() => cms.auth.sessions()),
  endSession: (id: string) => viaSdk(() => cms.auth.endSession(id)),
};

export const environments = {
  list: (project: string) => viaSdk(() => at({ project }).environments.list()),
  create: (project: string, input: { name: string; extends?: string; cloneFrom?: string }) =>
    viaSdk(() => at({ project }).environments.create(input)),
  remove: (project: string, name: string) => viaSdk(() => at({ project }).environments.delete(name)),
  promote: (project: string, source: string, body: { target: string; dryRun?: boolean; documentIds?: string[] }) =>
    viaSdk(() => at({ project }).environments.promote(source, body)),
};
