/**
 * The image work, done by sharp (libvips): reading an upload's pixel size, and producing one
 * variant from an original (docs/api.md "Image transforms"). Nothing here knows HTTP or storage.
 */
import { CmsError } from '@cms/core';
import type { Sharp } from 'sharp';

type SharpModule = typeof import('sharp')['default'];
let loading: Promise<SharpModule> | null = null;

/**
 * sharp (libvips, a native library of its own) loads at the first image read or transform, not at
 * start: about 17 MiB of a server's memory that a site without images never uses
 * (docs/benchmarks.md "Footprint: idle memory").
 */
function loadSharp(): Promise<SharpModule> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // One libvips thread per image and a small operation cache: with the transform queue's concurrency
    // these bound native memory, which the V8 heap limit does not see (docs/operations.md "Image transforms").
    sharp.concurrency(1);
    sharp.cache({ memory: 32, files: 0, items: 50 });
    return sharp;
  });
  return loading as Promise<SharpModule>;
}

/** Mime types sharp decodes here; others (SVG, HEIC, PDF...) are IMAGE_NOT_TRANSFORMABLE. */
export const TRANSFORMABLE_MIME_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/avif',
  'image/gif',
  'image/tiff',
]);

/** Output encodings and their Content-Type. */
export const OUTPUT_TYPES = { webp: 'image/webp', avif: 'image/avif', jpeg: 'image/jpeg', png: 'image/png' } as const;
export type OutputFormat = keyof typeof OUTPUT_TYPES;

/** Quality when the request names none. */
export const DEFAULT_QUALITY: Record<OutputFormat, number | null> = { webp: 80, avif: 55, jpeg: 80, png: null };

/** A fully resolved transform: what one variant is. */
export interface TransformPlan {
  w: number | null;
  h: number | null;
  fit: 'cover' | 'contain' | 'inside';
  format: OutputFormat;
  /** null for PNG (lossless). */
  q: number | null;
  /** Where a cover crop centres, 0..1 of the displayed image. */
  focal: { x: number; y: number };
}

/** The pixel size as displayed (EXIF orientation applied), or null when `head` is no image sharp reads. */
export async function readImageSize(head: Buffer): Promise<{ width: number; height: number } | null> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(head, { failOn: 'none', limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) return null;
    const turned = (meta.orientation ?? 1) >= 5;
    return turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  } catch {
    return null;
  }
}

/**
 * Produces one variant. The original's header is read first: more pixels than `maxInputPixels` is
 * IMAGE_TOO_LARGE before any decoding (a decompression bomb costs a header read); libvips enforces
 * the same limit while decoding. A file sharp cannot decode is IMAGE_NOT_TRANSFORMABLE.
 */
export async function transformImage(
  input: Buffer,
  plan: TransformPlan,
  limits: { maxInputPixels: number },
): Promise<Buffer> {
  // 'truncated': a file cut short fails; recoverable damage (a CRC error browsers shrug off too) does not.
  const options = { limitInputPixels: limits.maxInputPixels, failOn: 'truncated' as const, sequentialRead: true };
  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    // The header alone, with no pixel limit: an image over it is told apart from a broken file.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) throw notTransformable();
    if (meta.width * meta.height > limits.maxInputPixels) throw tooLarge(meta.width * meta.height, limits);
    const turned = (meta.orientation ?? 1) >= 5;
    width = turned ? meta.height : meta.width;
    height = turned ? meta.width : meta.height;
  } catch (error: unknown) {
    throw error instanceof CmsError ? error : notTransformable();
  }
  try {
    const image = sharp(input, options).rotate();
    resize(image, plan, width, height);
    return await encode(image, plan).toBuffer();
  } catch (error: unknown) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooLarge(width * height, limits);
    throw notTransformable();
  }
}

function resize(image: Sharp, plan: TransformPlan, width: number, height: number): void {
  const { w, h } = plan;
  if (w === null && h === null) return;
  if (w === null || h === null || plan.fit === 'inside') {
    image.resize(w, h, { fit: 'inside', withoutEnlargement: true });
    return;
  }
  if (plan.fit === 'contain') {
    const background = plan.format === 'jpeg' ? '#ffffff' : { r: 0, g: 0, b: 0, alpha: 0 };
    image.resize(w, h, { fit: 'contain', background });
    return;
  }
  // cover: scale so the box is filled, then cut the box out around the focal point.
  const scale = Math.max(w / width, h / height);
  const scaledW = Math.max(w, Math.round(width * scale));
  const scaledH = Math.max(h, Math.round(height * scale));
  const left = clamp(Math.round(plan.focal.x * scaledW - w / 2), 0, scaledW - w);
  const top = clamp(Math.round(plan.focal.y * scaledH - h / 2), 0, scaledH - h);
  image.resize(scaledW, scaledH, { fit: 'fill' }).extract({ left, top, width: w, height: h });
}

function encode(image: Sharp, plan: TransformPlan): Sharp {
  const quality = plan.q ?? undefined;
  switch (plan.format) {
    case 'webp':
      return image.webp({ quality, effort: 3 });
    case 'avif':
      return image.avif({ quality, effort: 2 });
    case 'jpeg':
      return image.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: false });
    case 'png':
      return image.png({ compressionLevel: 6 });
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

function notTransformable(): CmsError {
  return new CmsError(
    'IMAGE_NOT_TRANSFORMABLE',
    'The stored file could not be decoded as an image: link its url instead, or upload it again.',
  );
}

function tooLarge(pixels: number, limits: { maxInputPixels: number }): CmsError {
  return new CmsError(
    'IMAGE_TOO_LARGE',
    `The original has ${pixels} pixels, over this project's limit of ${limits.maxInputPixels} (project setting mediaImageMaxInputPixels): upload a smaller image or raise the setting.`,
    { pixels, maxInputPixels: limits.maxInputPixels },
  );
}
