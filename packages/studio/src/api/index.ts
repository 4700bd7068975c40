/**
 * Every API call the Studio makes, by area, each through the SDK's session client (`sdk.ts`).
 * Pages import from here only.
 */

import type { ReleaseAction, ReleaseStatus, RouteBody } from '@cms/core';
import type { SchemaType } from '@cms/core/frontmatter';
import type { ContentListQuery, MediaListQuery } from '@cms/sdk';
import { at, cms, type Target, viaSdk } from './sdk.js';
import type { ApiKeyCreateBody, Grant } from './types.js';

export type { MediaAsset, MediaListQuery, Page } from '@cms/sdk';
export { CmsError, fieldMessages, setUnauthorizedHandler, toApiError } from './errors.js';
export type { Target } from './sdk.js';
export * from './types.js';

export const auth = {
  providers: () => viaSdk(() => cms.auth.providers(), { public: true }),
  /** `{ session }`, or `{ mfa }` when the account has a second factor: then `loginMfa` with a code. */
  login: (email: string, password: string) => viaSdk(() => cms.auth.login({ email, password }), { public: true }),
  loginMfa: (challengeToken: string, code: string) =>
    viaSdk(() => cms.auth.loginMfa({ challengeToken, code }), { public: true }),
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

/** The signed-in user's own second factor (`/api/v1/me/mfa/*`). */
export const mfa = {
  status: () => viaSdk(() => cms.auth.mfa.status()),
  enrol: () => viaSdk(() => cms.auth.mfa.enrol()),
  confirm: (code: string) => viaSdk(() => cms.auth.mfa.confirm(code)),
  disable: (currentPassword: string) => viaSdk(() => cms.auth.mfa.disable({ currentPassword })),
  /** Ten new recovery codes in place of the old ones, proven by a current TOTP or recovery code. */
  renewRecoveryCodes: (code: string) => viaSdk(() => cms.auth.mfa.renewRecoveryCodes(code)),
};

/** The signed-in person's own password (`POST /api/v1/me/password`); their other sessions end. */
export const account = {
  changePassword: (currentPassword: string, password: string) =>
    viaSdk(() => cms.me.changePassword({ currentPassword, password })),
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
export type ListQuery = Omit<ContentListQuery<string, never>, 'draft' | 'resolve' | 'includeBody'>;

/** Body of `content.create` (core's route input). */
export type DocumentInput = RouteBody<'content.create'>;
/** Body of `content.update` (core's route input). */
export type DocumentUpdate = RouteBody<'content.update'>;

const withHash = (schemaHash: string) => ({ headers: { 'x-cms-schema-hash': schemaHash } });

export const content = {
  overview: (target: Target) => viaSdk(() => at(target).content.overview()),
  /** A page of a type's drafts without their text: lists show fields, never bodies. */
  list: (target: Target, query: ListQuery) => viaSdk(() => at(target).content.listSummaries({ ...query, draft: true })),
  /** The `limit` latest changed documents of a type, without their text. */
  recent: (target: Target, type: string, limit: number) =>
    viaSdk(() => at(target).content.listSummaries({ type, draft: true, sort: 'updatedAt', order: 'desc', limit })),
  search: (
    target: Target,
    q: string,
    options: {
      type?: string;
      locale?: string;
      published?: boolean;
      hasUnpublishedChanges?: boolean;
      limit?: number;
      offset?: number;
    } = {},
  ) => viaSdk(() => at(target).search.query({ q, draft: true, ...options })),
  /** The draft; with `release`, the document as that release would publish it (`release=<id>`, no `draft`). */
  get: (target: Target, id: string, options: { resolve?: string[]; release?: string | null } = {}) =>
    viaSdk(() =>
      at(target).content.get(id, {
        ...(options.release ? { release: options.release } : { draft: true }),
        ...(options.resolve?.length ? { resolve: options.resolve } : {}),
      }),
    ),
  create: (target: Target, schemaHash: string, input: DocumentInput) =>
    viaSdk(() => at(target).content.create(input, withHash(schemaHash))),
  update: (target: Target, schemaHash: string, id: string, input: DocumentUpdate) =>
    viaSdk(() => at(target).content.update(id, input, withHash(schemaHash))),
  publish: (target: Target, id: string, changeSummary?: string) =>
    viaSdk(() => at(target).content.publish(id, changeSummary ? { changeSummary } : {})),
  unpublish: (target: Target, id: string) => viaSdk(() => at(target).content.unpublish(id)),
  remove: (target: Target, id: string) => viaSdk(() => at(target).content.delete(id)),
  restoreDeleted: (target: Target, id: string) => viaSdk(() => at(target).content.restore(id)),
  duplicate: (target: Target, id: string) => viaSdk(() => at(target).content.duplicate(id)),
  versions: (target: Target, id: string, offset = 0) =>
    viaSdk(() => at(target).content.versions(id, { limit: 100, offset })),
  version: (target: Target, id: string, version: number) => viaSdk(() => at(target).content.getVersion(id, version)),
  restoreVersion: (target: Target, id: string, version: number) =>
    viaSdk(() => at(target).content.restoreVersion(id, version)),
  variants: (target: Target, id: string) => viaSdk(() => at(target).content.variants(id)),
  /** The live documents whose reference fields point at a document (for the delete warning). */
  referrers: (target: Target, id: string, query: { limit?: number; offset?: number } = {}) =>
    viaSdk(() => at(target).content.referrers(id, query)),
  /** Marks the document as open here; answers who else has it open. */
  presence: (target: Target, id: string) => viaSdk(() => at(target).content.presence(id)),
  /** Removes this person's presence mark (the editor was closed). */
  leave: (target: Target, id: string) => viaSdk(() => at(target).content.leave(id)),
  previewToken: (target: Target, id: string, previewUrl?: string, release?: string | null) =>
    viaSdk(() =>
      at(target).content.previewToken(id, { ...(previewUrl ? { previewUrl } : {}), ...(release ? { release } : {}) }),
    ),
};

export const projects = {
  /** The settings of the target's project (the live preview's `previewUrl` among them). */
  settings: (target: Target) => viaSdk(() => at(target).projects.settings()),
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
  create: (input: RouteBody<'users.create'>) => viaSdk(() => cms.users.create(input)),
  update: (id: string, input: RouteBody<'users.update'>) => viaSdk(() => cms.users.update(id, input)),
  grants: (id: string) => viaSdk(() => cms.users.grants(id)),
  replaceGrants: (id: string, grants: Grant[]) => viaSdk(() => cms.users.replaceGrants(id, grants)),
  /** The answer's `inviteUrl` is the only time the link is shown. */
  invite: (input: RouteBody<'invites.create'>) => viaSdk(() => cms.users.invite(input)),
  /** Invites neither accepted nor expired, without their links. */
  pendingInvites: () => viaSdk(() => cms.users.pendingInvites()),
  withdrawInvite: (id: string) => viaSdk(() => cms.users.withdrawInvite(id)),
  sessions: () => viaSdk(() => cms.auth.sessions()),
  endSession: (id: string) => viaSdk(() => cms.auth.endSession(id)),
};

export const environments = {
  list: (project: string) => viaSdk(() => at({ project }).environments.list()),
  create: (project: string, input: RouteBody<'environments.create'>) =>
    viaSdk(() => at({ project }).environments.create(input)),
  remove: (project: string, name: string) => viaSdk(() => at({ project }).environments.delete(name)),
  promote: (project: string, source: string, body: RouteBody<'environments.promote'>) =>
    viaSdk(() => at({ project }).environments.promote(source, body)),
};

// ---- Releases (pages/releases, the editor's "Add to release" and "Schedule") ----

export const releases = {
  /** Releases of the environment, newest first, optionally of one status. */
  list: (target: Target, query: { status?: ReleaseStatus; limit?: number; offset?: number } = {}) =>
    viaSdk(() => at(target).releases.list(query)),
  get: (target: Target, id: string) => viaSdk(() => at(target).releases.get(id)),
  create: (target: Target, input: RouteBody<'releases.create'>) => viaSdk(() => at(target).releases.create(input)),
  addItems: (target: Target, id: string, items: { documentId: string; action: ReleaseAction }[]) =>
    viaSdk(() => at(target).releases.addItems(id, items)),
  removeItem: (target: Target, id: string, documentId: string) =>
    viaSdk(() => at(target).releases.removeItem(id, documentId)),
  /** Schedules for a UTC instant (ISO 8601); `timeZone` is the IANA zone it was chosen in. */
  schedule: (target: Target, id: string, scheduledAt: string, timeZone: string) =>
    viaSdk(() => at(target).releases.schedule(id, { scheduledAt, timeZone })),
  unschedule: (target: Target, id: string) => viaSdk(() => at(target).releases.unschedule(id)),
  publish: (target: Target, id: string) => viaSdk(() => at(target).releases.publish(id)),
  revert: (target: Target, id: string) => viaSdk(() => at(target).releases.revert(id)),
};
