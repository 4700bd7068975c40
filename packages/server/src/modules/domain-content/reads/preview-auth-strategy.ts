import { CmsError } from '@cms/core';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../../clock.js';
import type { AuthStrategy } from '../../../http/authenticate.js';
import { previewPrincipal, verifyPreviewToken } from './preview-tokens.js';

/** The one action a preview token may call (decisions.md §5). */
export const PREVIEW_READ_ACTION_ID = 'content.get';
/** A release preview token lists too: a site preview shows index pages as the release leaves them. */
const RELEASE_PREVIEW_ACTION_IDS: ReadonlySet<string> = new Set([PREVIEW_READ_ACTION_ID, 'content.list']);

const PREVIEW_SCHEME = /^Preview\s+(\S+)\s*$/i;

/**
 * Authenticates `Authorization: Preview <token>` (decisions.md §5). A bad or expired token is
 * UNAUTHORIZED; a valid one on any route but `GET /content/{documentId}` is FORBIDDEN, so a token
 * can neither list content nor mint further tokens; a release preview token may also list
 * (`GET /content`). Which document, revision or release it reads is checked by the reads service.
 */
export function createPreviewAuthStrategy(deps: { secret: string | null; clock: Clock }): AuthStrategy {
  return async (request: FastifyRequest) => {
    const match = PREVIEW_SCHEME.exec(request.headers.authorization ?? '');
    const action = request.routeOptions.config.action;
    if (!match || !action) return null;
    if (!deps.secret) throw new CmsError('PREVIEW_TOKEN_UNAVAILABLE');
    const claims = await verifyPreviewToken(deps.secret, match[1] as string, deps.clock());
    if (!claims) {
      throw new CmsError('UNAUTHORIZED', 'The preview token is invalid or has expired: request a new preview token.');
    }
    const allowed =
      claims.release === undefined ? action.id === PREVIEW_READ_ACTION_ID : RELEASE_PREVIEW_ACTION_IDS.has(action.id);
    if (!allowed) {
      // A valid token refused: the audit entry of the attempt names the token, not an anonymous caller.
      request.ctx.principal = previewPrincipal(claims);
      throw new CmsError(
        'FORBIDDEN',
        'A preview token only reads the draft of its document: GET /api/v1/content/{documentId}?draft=true.',
      );
    }
    return previewPrincipal(claims);
  };
}
