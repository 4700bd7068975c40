/**
 * From an image request to the one variant it names (docs/api.md "Image transforms"): presets
 * resolved, limits checked, defaults filled in, `format=auto` settled from `Accept`, and the
 * variant's hash over everything that changes its bytes.
 */
import { createHash } from 'node:crypto';
import { type ImageFormat, type ImageTransform, invalidQueryParam, type MediaImageQuery } from '@cms/core';
import { DEFAULT_QUALITY, type OutputFormat, type TransformPlan } from '../../../media/image-transform.js';
import type { ImageTransformSettings } from '../../../tenancy/project-settings.js';

/** Bumped when the same parameters would give different bytes (new encoder settings): old variants are then left unused. */
const TRANSFORM_VERSION = 1;

/** A resolved request: the plan, its variant hash, and whether the answer depends on `Accept`. */
export interface ImageRequestPlan {
  plan: TransformPlan;
  /** Hex hash of the normalised parameters: the variant's key and ETag. */
  variant: string;
  /** `format=auto` was asked for: the answer varies with `Accept`. */
  negotiated: boolean;
  /** A named preset was asked for (allowed without credentials). */
  preset: string | null;
}

const FREE_PARAMS = ['w', 'h', 'fit', 'q'] as const;

/** Resolves the query against the project's settings; INVALID_QUERY_PARAM with field details on a bad one. */
export function planImageRequest(
  query: MediaImageQuery,
  settings: ImageTransformSettings,
  accept: string | undefined,
  focalPoint: { x: number; y: number } | null,
): ImageRequestPlan {
  let transform: ImageTransform;
  if (query.preset !== undefined) {
    const combined = FREE_PARAMS.filter((name) => query[name] !== undefined);
    if (combined.length > 0) {
      throw invalidQueryParam(
        Object.fromEntries(combined.map((name) => [name, 'cannot be combined with preset (only format can)'])),
      );
    }
    const preset = settings.presets[query.preset];
    if (!preset) {
      const names = Object.keys(settings.presets).sort().join(', ') || 'none';
      throw invalidQueryParam({ preset: `is not a preset of this project (presets: ${names})` });
    }
    transform = { ...preset, ...(query.format !== undefined ? { format: query.format } : {}) };
  } else {
    transform = query;
  }
  const over = (['w', 'h'] as const).filter((name) => (transform[name] ?? 0) > settings.maxDimension);
  if (over.length > 0) {
    throw invalidQueryParam(
      Object.fromEntries(
        over.map((name) => [name, `must be at most ${settings.maxDimension} (project setting mediaImageMaxDimension)`]),
      ),
    );
  }

  const asked: ImageFormat = transform.format ?? 'auto';
  const format = asked === 'auto' ? negotiateFormat(accept) : asked;
  const w = transform.w ?? null;
  const h = transform.h ?? null;
  const fit = w !== null && h !== null ? (transform.fit ?? 'cover') : 'inside';
  const q = DEFAULT_QUALITY[format] === null ? null : (transform.q ?? DEFAULT_QUALITY[format]);
  // Only a cover crop of both sides depends on the focal point: other variants survive its change.
  const cropped = fit === 'cover';
  const focal = cropped && focalPoint ? focalPoint : { x: 0.5, y: 0.5 };
  const plan: TransformPlan = { w, h, fit, format, q, focal };
  const variant = createHash('sha256')
    .update(JSON.stringify([TRANSFORM_VERSION, w, h, fit, format, q, focal.x, focal.y]))
    .digest('hex')
    .slice(0, 32);
  return { plan, variant, negotiated: asked === 'auto', preset: query.preset ?? null };
}

/** AVIF when `Accept` names it, else WebP (which every current browser takes). */
export function negotiateFormat(accept: string | undefined): OutputFormat {
  const types = (accept ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
    .filter((part) => !/;\s*q=0(\.0*)?\s*$/.test(part))
    .map((part) => part.split(';')[0]?.trim());
  return types.includes('image/avif') ? 'avif' : 'webp';
}
