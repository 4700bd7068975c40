/**
 * Every API call the Studio makes, by area, each through the SDK's session client (`sdk.ts`).
 * Pages import from here only.
 */

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
