import { CmsError, documentTitle, invalidInput, notFound } from '@cms/core';
import { noteAuditTarget } from '../../../audit/audit-scope.js';
import type { Clock } from '../../../clock.js';
import type { EnvironmentContext } from '../../../http/request-context.js';
import type { Queryable } from '../../../storage/db.js';
import { findReadableDocument } from '../../../storage/repositories/content-reads.repository.js';
import { hasRelease } from '../../../storage/repositories/release-view.js';
import { signPreviewToken } from './preview-tokens.js';

/** Issues preview tokens for drafts. */
export interface PreviewTokensService {
  issue(
    ctx: EnvironmentContext,
    input: { documentId: string; previewUrl?: string; release?: string },
  ): Promise<{ token: string; expiresAt: Date }>;
}

/** A preview URL must be absolute http(s): the host page the token is meant for. */
function assertPreviewUrl(previewUrl: string): void {
  let url: URL | null = null;
  try {
    url = new URL(previewUrl);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw invalidInput({ 'body.previewUrl': 'must be an absolute http or https URL' });
  }
}

/**
 * Creates the service. `secret` null (no CMS_PREVIEW_TOKEN_SECRET) answers PREVIEW_TOKEN_UNAVAILABLE;
 * deleted or absent documents are NOT_FOUND (decisions.md §3).
 */
export function createPreviewTokensService(deps: {
  db: Queryable;
  secret: string | null;
  clock: Clock;
  /** Token lifetime (CMS_PREVIEW_TOKEN_TTL_SECONDS); the default is decisions.md §5's 10 minutes. */
  ttlSeconds?: number;
}): PreviewTokensService {
  const { clock } = deps;
  return {
    async issue(ctx, input) {
      if (!deps.secret) throw new CmsError('PREVIEW_TOKEN_UNAVAILABLE');
      if (input.previewUrl !== undefined) assertPreviewUrl(input.previewUrl);
      const { target } = ctx;
      const row = await findReadableDocument(deps.db, target, { id: input.documentId }, { draft: true });
      if (!row) throw notFound(`Document ${input.documentId}`);
      // The entry names the document as a change's does (docs/audit.md "Routine entries").
      noteAuditTarget({ type: row.type, locale: row.locale, label: documentTitle(row.frontmatter) ?? row.path });
      if (input.release !== undefined && !(await hasRelease(deps.db, target, input.release))) {
        throw notFound(`Release ${input.release} in this project and environment`);
      }
      return signPreviewToken(
        deps.secret,
        {
          documentId: row.id,
          project: target.projectSlug,
          environment: target.environmentName,
          locale: row.locale,
          path: row.path,
          draftRevision: row.draftRevision,
          ...(input.previewUrl === undefined ? {} : { previewUrl: input.previewUrl }),
          ...(input.release === undefined ? {} : { release: input.release }),
        },
        clock(),
        deps.ttlSeconds,
      );
    },
  };
}
