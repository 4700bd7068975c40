/**
 * Project settings (projects.settings jsonb), read where they apply and set through
 * `PUT /api/v1/settings`. One place says what a stored value means.
 */
import {
  DEFAULT_IMAGE_MAX_DIMENSION,
  DEFAULT_IMAGE_MAX_INPUT_PIXELS,
  DEFAULT_IMAGE_PRESETS,
  type ImagePresets,
} from '@cms/core';

/** The setting that limits image uploads; absent means no extra limit. */
export const MEDIA_IMAGE_LIMIT_SETTING = 'mediaImageMaxBytes';
/** Named image transforms (`?preset=`); absent means `DEFAULT_IMAGE_PRESETS`. */
export const MEDIA_IMAGE_PRESETS_SETTING = 'mediaImagePresets';
/** Largest `w`/`h` of a transform; absent means `DEFAULT_IMAGE_MAX_DIMENSION`. */
export const MEDIA_IMAGE_MAX_DIMENSION_SETTING = 'mediaImageMaxDimension';
/** Largest original (in pixels) that is transformed; absent means `DEFAULT_IMAGE_MAX_INPUT_PIXELS`. */
export const MEDIA_IMAGE_MAX_INPUT_PIXELS_SETTING = 'mediaImageMaxInputPixels';

/** Live preview address template (decisions.md §8); absent means no live preview. */
export const PREVIEW_URL_SETTING = 'previewUrl';
/** Per type, a template replacing `previewUrl`; absent means none. */
export const PREVIEW_URLS_SETTING = 'previewUrls';

/** The settings a PUT may leave out (kept as they are): images, and the live preview addresses. */
export const OPTIONAL_SETTINGS = [
  MEDIA_IMAGE_PRESETS_SETTING,
  MEDIA_IMAGE_MAX_DIMENSION_SETTING,
  MEDIA_IMAGE_MAX_INPUT_PIXELS_SETTING,
  PREVIEW_URL_SETTING,
  PREVIEW_URLS_SETTING,
] as const;

/** A stored string setting, or null. */
export function stringSetting(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A stored map of strings (per type), or null. */
export function stringMapSetting(value: unknown): Record<string, string> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The image upload limit a stored value sets: only a positive integer counts, anything else is none. */
export function mediaImageLimitOf(value: unknown): number | null {
  return positiveInteger(value);
}

/** The presets a stored value sets, or null (the defaults apply). Values are validated when set. */
export function mediaImagePresetsOf(value: unknown): ImagePresets | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as ImagePresets) : null;
}

/** The stored value of a positive integer setting, or null when unset or malformed. */
export function positiveInteger(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** What the image route applies: stored values, or the defaults. */
export interface ImageTransformSettings {
  presets: ImagePresets;
  maxDimension: number;
  maxInputPixels: number;
}

/** The image transform settings of a project's stored settings. */
export function imageTransformSettingsOf(settings: Record<string, unknown>): ImageTransformSettings {
  return {
    presets: mediaImagePresetsOf(settings[MEDIA_IMAGE_PRESETS_SETTING]) ?? { ...DEFAULT_IMAGE_PRESETS },
    maxDimension: positiveInteger(settings[MEDIA_IMAGE_MAX_DIMENSION_SETTING]) ?? DEFAULT_IMAGE_MAX_DIMENSION,
    maxInputPixels: positiveInteger(settings[MEDIA_IMAGE_MAX_INPUT_PIXELS_SETTING]) ?? DEFAULT_IMAGE_MAX_INPUT_PIXELS,
  };
}
