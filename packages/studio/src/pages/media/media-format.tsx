/** How the media library names sizes, categories and files, and the icons of non-image categories. */
import type { MediaAsset, MediaCategory } from '../../api/media.js';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** `1536` -> `1.5 KB` (1024-based, as file managers show), `1` -> `1 byte`. */
export function formatBytes(bytes: number): string {
  if (bytes === 1) return '1 byte';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(value) : value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${UNITS[unit]}`;
}

export const CATEGORY_LABELS: Record<MediaCategory, string> = {
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
  document: 'Document',
  archive: 'Archive',
  other: 'Other',
};

/** The file's extension in capitals (`report.final.PDF` -> `PDF`), or the category's label. */
export function extensionOf(asset: Pick<MediaAsset, 'filename' | 'category'>): string {
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(asset.filename);
  return match ? (match[1] as string).toUpperCase() : CATEGORY_LABELS[asset.category];
}

const GLYPHS: Record<MediaCategory, string> = {
  // A film strip, a note, lines of text, a zipper, a plain page.
  image: 'M6 20l5-6 3 4 2-2 4 4z',
  video: 'M8 12h16v12H8z M24 16l6-3v10l-6-3',
  audio: 'M14 24a3 3 0 1 1-2-2.8V12l10-2v11a3 3 0 1 1-2-2.8V13l-6 1.2z',
  document: 'M10 12h14 M10 16h14 M10 20h14 M10 24h9',
  archive: 'M17 8v2 M17 12v2 M17 16v2 M15 20h4v5h-4z',
  other: 'M12 17h10 M12 21h10',
};

/** A page-shaped icon with the category's glyph and the file's extension; hidden from assistive technology. */
export function CategoryIcon({ asset }: { asset: Pick<MediaAsset, 'filename' | 'category'> }) {
  return (
    <svg className={`media-icon media-icon-${asset.category}`} viewBox="0 0 34 40" aria-hidden="true" focusable="false">
      <path d="M3 1h20l8 8v30H3z" fill="#fff" stroke="currentColor" strokeWidth="1.5" />
      <path d="M23 1v8h8" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d={GLYPHS[asset.category]} fill="none" stroke="currentColor" strokeWidth="1.5" />
      <text x="17" y="36" textAnchor="middle" fontSize="6" fill="currentColor">
        {extensionOf(asset).slice(0, 5)}
      </text>
    </svg>
  );
}
