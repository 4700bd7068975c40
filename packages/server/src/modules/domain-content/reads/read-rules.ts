/**
 * Rules shared by the content reads: who may read drafts, which locale a request asks for, and
 * what a preview token may read.
 */
import { CmsError, invalidInput, invalidQueryParam, type PreviewClaims } from '@cms/core';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { DocumentContentRow } from '../../../storage/repositories/document-row.js';
import { canonicalLocale, DEFAULT_LOCALE } from '../documents/path-rules.js';

/** Draft reads (`draft=true`) need `content:read:draft` besides the action's `content:read`. */
export function assertCanReadDraft(ctx: EnvironmentContext): void {
  const { target } = ctx;
  const scopes = ctx.principal.scopesIn({ projectSlug: target.projectSlug, environmentName: target.environmentName });
  if (!scopes.has('content:read:draft')) {
    throw new CmsError('FORBIDDEN', 'Reading drafts (draft=true) needs the content:read:draft permission.', {
      missing: ['content:read:draft'],
    });
  }
}

/**
 * The locale a read asks for: the `locale` query wins over `X-CMS-Locale` (decisions.md §3).
 * Tags are canonicalised as documents store them (`en-us` is `en-US`).
 */
export function requestedLocale(input: { locale?: string; headerLocale?: string }): string | undefined {
  if (input.locale !== undefined) {
    return canonicalOrThrow(input.locale, (message) => invalidQueryParam({ locale: message }));
  }
  if (input.headerLocale !== undefined && input.headerLocale !== '') {
    return canonicalOrThrow(input.headerLocale, (message) => invalidInput({ 'headers.x-cms-locale': message }));
  }
  return undefined;
}

function canonicalOrThrow(sent: string, error: (message: string) => CmsError): string {
  if (sent === DEFAULT_LOCALE) return sent;
  const locale = canonicalLocale(sent);
  if (!locale) {
    throw error(
      `must be a BCP 47 language tag such as "en" or "de-CH", or "${DEFAULT_LOCALE}"; got ${JSON.stringify(sent)}`,
    );
  }
  return locale;
}

/**
 * The release a read previews: `release=` as sent, or the release of a release preview token (which
 * reads nothing else: not drafts, not another release). Undefined: not a release preview.
 */
export function previewedRelease(
  claims: PreviewClaims | null,
  input: { draft: boolean; release?: string },
): string | undefined {
  const release = input.release?.toLowerCase();
  if (claims?.release === undefined) {
    if (release !== undefined && input.draft) {
      throw invalidQueryParam(
        { release: 'cannot be combined with draft=true' },
        'A release preview already shows the drafts of the release: leave out draft=true.',
      );
    }
    return release;
  }
  if (input.draft) {
    throw new CmsError('FORBIDDEN', 'A release preview token reads its release only: leave out draft=true.');
  }
  if (release !== undefined && release !== claims.release) {
    throw new CmsError('FORBIDDEN', 'This preview token is for another release.');
  }
  return claims.release;
}

/** A preview token reads drafts only, and only of its own document (decisions.md §5). */
export function assertPreviewRequest(claims: PreviewClaims, input: { documentId: string; draft: boolean }): void {
  if (!input.draft) {
    throw new CmsError('FORBIDDEN', 'A preview token reads drafts only: add draft=true.');
  }
  if (input.documentId.toLowerCase() !== claims.documentId) {
    throw new CmsError('FORBIDDEN', 'This preview token is for another document.');
  }
}

/**
 * The document read must be the token's, at the token's revision: a token stops working as soon
 * as the draft moves on (FORBIDDEN, not NOT_FOUND: the document exists, the preview is stale).
 */
export function assertPreviewMayRead(claims: PreviewClaims, row: DocumentContentRow): void {
  if (row.id !== claims.documentId) {
    throw new CmsError('FORBIDDEN', 'This preview token is for another document (locale variant).');
  }
  if (row.draftRevision !== claims.draftRevision || row.path !== claims.path || row.locale !== claims.locale) {
    throw new CmsError(
      'FORBIDDEN',
      'This preview is outdated: the draft changed after the token was issued. Request a new preview token.',
      { reason: 'PREVIEW_OUTDATED', tokenDraftRevision: claims.draftRevision, draftRevision: row.draftRevision },
    );
  }
}
