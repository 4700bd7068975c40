/**
 * Project settings (projects.settings jsonb), read where they apply and set through
 * `PUT /api/v1/settings`. One place says what a stored value means.
 */

/** The setting that limits image uploads; absent means no extra limit. */
export const MEDIA_IMAGE_LIMIT_SETTING = 'mediaImageMaxBytes';

/** The image upload limit a stored value sets: only a positive integer counts, anything else is none. */
export function mediaImageLimitOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}
