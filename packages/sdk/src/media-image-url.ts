/**
 * Addresses of transformed images (docs/sdk.md "Images"): `media.imageUrl(asset, options)` and
 * `media.srcset(asset, entries)`. Plain strings for `<img src>` and `srcset`: a browser sends no
 * API key with them, so a public site uses presets; free sizes need a key with `media:read`.
 */
import type { In } from './route-call.js';

/** What `imageUrl` takes: `w`, `h`, `fit`, `format`, `q`, or a `preset` (with `format` at most). */
export type ImageOptions = In<'media.image', 'query'>;

/** Widths of the server's default presets (a project may name others: pass their widths to `srcset`). */
export const DEFAULT_PRESET_WIDTHS: Readonly<Record<string, number>> = { small: 640, medium: 1280, large: 1920 };

/** One `srcset` candidate: a preset (its width from `width` or the defaults) or free options with `w`. */
export type SrcsetEntry = (ImageOptions & { preset: string; width?: number }) | (ImageOptions & { w: number });

/** The image address of an asset (or asset id) on the server at `baseUrl`. */
export function imageUrl(baseUrl: string, asset: { id: string } | string, options: ImageOptions = {}): string {
  const id = typeof asset === 'string' ? asset : asset.id;
  const params = new URLSearchParams();
  for (const name of ['preset', 'w', 'h', 'fit', 'format', 'q'] as const) {
    const value = options[name];
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const query = params.toString();
  return `${baseUrl.replace(/\/+$/, '')}/api/v1/media/${encodeURIComponent(id)}/image${query ? `?${query}` : ''}`;
}

/**
 * A `srcset` value: one `<url> <width>w` candidate per entry, widest last. The server never
 * enlarges a width-only request, so when the asset states its width, wider entries count as that
 * width and only the first of them is kept. Without entries: the default presets `small`, `medium`, `large`.
 */
export function srcset(
  baseUrl: string,
  asset: { id: string; width?: number | null },
  entries?: readonly SrcsetEntry[],
  shared: Pick<ImageOptions, 'format' | 'q'> = {},
): string {
  const list: readonly SrcsetEntry[] =
    entries ?? Object.keys(DEFAULT_PRESET_WIDTHS).map((preset) => ({ preset }) as SrcsetEntry);
  const candidates = new Map<number, string>();
  for (const entry of list) {
    const { width: declared, ...options } = entry as SrcsetEntry & { width?: number };
    const wanted = 'w' in options && options.w ? options.w : (declared ?? DEFAULT_PRESET_WIDTHS[options.preset ?? '']);
    if (!wanted) throw new Error(`srcset: give the width of preset "${options.preset}" ({ preset, width }).`);
    const original = asset.width ?? null;
    const width = original !== null ? Math.min(wanted, original) : wanted;
    if (!candidates.has(width)) candidates.set(width, imageUrl(baseUrl, asset, { ...shared, ...options }));
  }
  return [...candidates.entries()]
    .sort(([a], [b]) => a - b)
    .map(([width, url]) => `${url} ${width}w`)
    .join(', ');
}
