/**
 * The change feed's cursor (docs/api.md "Change feed"): opaque to clients, it holds a position in one
 * environment's feed and a short mark of that environment, so a cursor carried to another environment
 * (or to one deleted and made again under the same name) is told apart from a position of this one.
 */
import { CmsError, invalidQueryParam } from '@cms/core';

/** The mark of an environment in its cursors: the first hex digits of its id. */
const MARK_LENGTH = 8;
const CURSOR_TEXT = /^([0-9a-z]{1,12})\.([0-9a-f]{8})$/;

function markOf(environmentId: string): string {
  return environmentId.replaceAll('-', '').slice(0, MARK_LENGTH).toLowerCase();
}

/** The cursor of position `position` in the environment's feed. */
export function encodeChangeCursor(environmentId: string, position: number): string {
  return Buffer.from(`${position.toString(36)}.${markOf(environmentId)}`, 'utf8').toString('base64url');
}

/** What a cursor says: its position, and whether it was given by this environment. */
export interface DecodedCursor {
  position: number;
  sameEnvironment: boolean;
}

/** Reads a cursor; INVALID_QUERY_PARAM (on `since`) when it is none the server gave. */
export function decodeChangeCursor(cursor: string, environmentId: string): DecodedCursor {
  const match = CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const position = match ? Number.parseInt(match[1] as string, 36) : Number.NaN;
  if (!match || !Number.isSafeInteger(position)) {
    throw invalidQueryParam(
      { since: 'is not a cursor of the change feed' },
      "The cursor is not one the change feed gave: pass `pagination.nextCursor` (or a webhook event's `cursor`) back as it is, or leave `since` out to start from the oldest change kept.",
    );
  }
  return { position, sameEnvironment: match[2] === markOf(environmentId) };
}

/** Why a cursor cannot be followed: `details.reason` of CHANGES_CURSOR_EXPIRED. */
export type CursorExpiry = 'retention' | 'other-environment' | 'ahead';

const EXPIRY_REASONS: Record<CursorExpiry, string> = {
  retention: 'This change feed cursor is older than the changes the server keeps (CMS_CHANGES_RETENTION_DAYS)',
  'other-environment': 'This change feed cursor was given by another environment, or by one deleted since',
  ahead: 'This change feed cursor is past the end of the feed (was the database restored from a backup?)',
};

/**
 * CHANGES_CURSOR_EXPIRED (410): the changes after the cursor are no longer all kept, or the cursor is
 * another environment's; `details.cursor` is where the feed ends now, to follow once everything is
 * loaded again.
 */
export function cursorExpired(reason: CursorExpiry, headCursor: string): CmsError {
  const why = EXPIRY_REASONS[reason];
  return new CmsError(
    'CHANGES_CURSOR_EXPIRED',
    `${why}: load all content again, then follow the feed from \`details.cursor\` (where it ended when this answer was made).`,
    { reason, cursor: headCursor },
  );
}
