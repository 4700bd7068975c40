/**
 * Image transforms of media assets (decisions.md §8 "Media"; docs/api.md "Image transforms"):
 * `GET /api/v1/media/{id}/image` and the project settings that bound it (presets, size limits).
 * Browser-safe: the SDK builds image addresses from these names.
 */
import { type Static, Type } from 'typebox';
import { defineRoute } from './define-route.js';
import { StringEnum, StringMap, Uuid } from './shapes.js';

/** How the image fills a `w`×`h` box: crop to fill (around the focal point), fit inside with padding, or fit inside. */
export const IMAGE_FITS = ['cover', 'contain', 'inside'] as const;
export type ImageFit = (typeof IMAGE_FITS)[number];

/** Output formats; `auto` picks AVIF or WebP from the request's `Accept` (WebP when it names neither). */
export const IMAGE_FORMATS = ['auto', 'webp', 'avif', 'jpeg', 'png'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Largest side any transform may ask for, whatever the project allows (libvips' WebP limit). */
export const IMAGE_DIMENSION_CAP = 16_383;
/** Default of the project setting `mediaImageMaxDimension`. */
export const DEFAULT_IMAGE_MAX_DIMENSION = 4096;
/** Default of the project setting `mediaImageMaxInputPixels`: originals above it are not transformed. */
export const DEFAULT_IMAGE_MAX_INPUT_PIXELS = 50_000_000;
/** Highest `mediaImageMaxInputPixels` a project may set (16383²). */
export const IMAGE_INPUT_PIXELS_CAP = 268_402_689;

/** A preset name, as used in `?preset=`. */
export const IMAGE_PRESET_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,39}$';
/** Most presets a project may name. */
export const IMAGE_PRESETS_MAX = 30;

/** What a preset (or a free request) asks for. */
export const ImageTransformSchema = Type.Object(
  {
    w: Type.Optional(Type.Integer({ minimum: 1, maximum: IMAGE_DIMENSION_CAP })),
    h: Type.Optional(Type.Integer({ minimum: 1, maximum: IMAGE_DIMENSION_CAP })),
    fit: Type.Optional(StringEnum(IMAGE_FITS)),
    format: Type.Optional(StringEnum(IMAGE_FORMATS)),
    q: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type ImageTransform = Static<typeof ImageTransformSchema>;

/** The presets of a project that sets none (`mediaImagePresets: null`). */
export const DEFAULT_IMAGE_PRESETS: Readonly<Record<string, ImageTransform>> = {
  thumbnail: { w: 320, h: 320, fit: 'cover' },
  small: { w: 640 },
  medium: { w: 1280 },
  large: { w: 1920 },
};

/** The `mediaImagePresets` project setting: preset name to transform. */
export const ImagePresetsSchema = StringMap(
  { pattern: IMAGE_PRESET_NAME_PATTERN, description: 'a preset name' },
  ImageTransformSchema,
  { maxProperties: IMAGE_PRESETS_MAX },
);
export type ImagePresets = Static<typeof ImagePresetsSchema>;

/** `GET /api/v1/media/{id}/image` query; unknown parameters are rejected. */
export const MediaImageQuerySchema = Type.Object(
  {
    w: Type.Optional(Type.Integer({ minimum: 1, maximum: IMAGE_DIMENSION_CAP })),
    h: Type.Optional(Type.Integer({ minimum: 1, maximum: IMAGE_DIMENSION_CAP })),
    fit: Type.Optional(StringEnum(IMAGE_FITS)),
    format: Type.Optional(StringEnum(IMAGE_FORMATS)),
    q: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    preset: Type.Optional(Type.String({ pattern: IMAGE_PRESET_NAME_PATTERN })),
  },
  { additionalProperties: false },
);
export type MediaImageQuery = Static<typeof MediaImageQuerySchema>;

export const mediaImageRoute = defineRoute({
  id: 'media.image',
  kind: 'query',
  method: 'GET',
  path: '/api/v1/media/{id}/image',
  summary:
    'An image asset resized, cropped around its focal point and re-encoded (w, h, fit, format, q, or a preset); without credentials, presets only',
  target: 'none',
  auth: 'optional',
  request: { params: Type.Object({ id: Uuid }), query: MediaImageQuerySchema },
  response: { status: 200, envelope: 'raw', contentType: 'image/*', conditional: true },
  errors: ['IMAGE_NOT_TRANSFORMABLE', 'IMAGE_TOO_LARGE'],
});
