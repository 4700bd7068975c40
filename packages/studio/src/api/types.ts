/**
 * Wire shapes the Studio reads: the SDK's types, each an alias of core's one declaration (and core's
 * own where the SDK names none). Type-only imports, so no code of core or the SDK comes with them.
 */
import type { Document, DocumentSummary, Overview } from '@cms/core';

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

/** A document as the API answers it (core's wire shape). */
export type ContentDocument = Document;

/** A document of a list read without its text (`includeBody=false`): what lists and the dashboard show. */
export type ContentSummary = DocumentSummary;

export const DEFAULT_LOCALE = '__cms_default__';
