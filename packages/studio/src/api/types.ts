/**
 * Wire shapes the Studio reads: the SDK's types, each an alias of core's one declaration (and core's
 * own where the SDK names none). Type-only imports, so no code of core or the SDK comes with them.
 */
import type { Document, Overview } from '@cms/core';

export type {
  CreatedApiKey,
  PendingInvite,
  PromotePlanItem,
  SearchHit,
  StudioBootstrap as Bootstrap,
  Variant,
  VersionEntry,
  VersionSnapshot,
} from '@cms/core';
export type {
  ApiKey,
  ApiKeyCreateBody,
  AuthProvider,
  CliChallenge,
  Environment,
  Grant,
  Invite,
  Principal,
  Project,
  Session,
  User,
} from '@cms/sdk';

/** One content type's counts of the overview. */
export type OverviewCount = Overview['counts'][number];

/** A reference `resolve=` could not follow, as the API reports it in `resolveErrors`. */
export interface ResolveError {
  code: string;
  message: string;
  ref: { documentId: string; type: string };
}

/** A document as the API answers it (core's wire shape), with its resolve errors typed. */
export type ContentDocument = Omit<Document, 'resolveErrors'> & { resolveErrors: Record<string, ResolveError> };

export const DEFAULT_LOCALE = '__cms_default__';
