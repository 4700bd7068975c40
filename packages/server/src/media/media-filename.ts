/** Longest stored file name in UTF-8 bytes: leaves room in a 255-byte filesystem name and a 1024-byte S3 key. */
export const MAX_STORAGE_NAME_BYTES = 200;
/** Longest display name, in characters (code points). */
export const MAX_DISPLAY_NAME_CHARS = 255;
/** Used when nothing of the given name survives sanitising. */
export const FALLBACK_FILENAME = 'file';
/** An extension longer than this is treated as part of the name when truncating. */
const MAX_EXTENSION_CHARS = 16;

// Control characters, line/paragraph separators and bidi overrides: an override can show
// `photo\u202Egnp.exe` as `photoexe.png`, so they are dropped like controls.
const INVISIBLE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Reserved on Windows and awkward in URLs and headers; replaced so a data dir stays portable.
const RESERVED = /[<>:"|?*]/g;

/** Names derived from an uploaded file's name. */
export interface SanitizedFilename {
  /** Safe as the last segment of a storage key: no directories, no leading dot, at most 200 bytes. */
  storageName: string;
  /** The name as the user gave it, minus invisible characters, for listings and downloads. */
  displayName: string;
}

/**
 * Derives a storage-safe name and a display name from a client-supplied file name.
 * @example sanitizeFilename('../../etc/passwd') // { storageName: 'passwd', displayName: '../../etc/passwd' }
 */
export function sanitizeFilename(name: string): SanitizedFilename {
  const visible = stripInvisible(name);
  const base = visible.split(/[/\\]/).pop() ?? '';
  const storageName = truncateKeepingExtension(
    base.replace(RESERVED, '_').replace(/^[.\s]+/u, ''),
    MAX_STORAGE_NAME_BYTES,
    (text) => Buffer.byteLength(text),
  );
  const displayName = truncateKeepingExtension(visible, MAX_DISPLAY_NAME_CHARS, (text) => [...text].length);
  return { storageName: storageName || FALLBACK_FILENAME, displayName: displayName || FALLBACK_FILENAME };
}

/**
 * A `Content-Disposition` value for any file name (RFC 6266): an ASCII `filename` for old clients
 * and a UTF-8 `filename*` (RFC 8187) when the name is not plain ASCII.
 * @example contentDispositionFor('résumé.pdf', 'attachment') // attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf
 */
export function contentDispositionFor(filename: string, disposition: 'inline' | 'attachment'): string {
  const name = stripInvisible(filename).split(/[/\\]/).pop() || FALLBACK_FILENAME;
  const fallback = asciiFallback(name);
  const header = `${disposition}; filename="${fallback}"`;
  return fallback === name ? header : `${header}; filename*=UTF-8''${encodeRfc8187(name)}`;
}

/** Drops invisible characters, turns whitespace runs into one space, trims, and normalises to NFC. */
function stripInvisible(name: string): string {
  return name.replace(LONE_SURROGATE, '\uFFFD').replace(/\s+/gu, ' ').replace(INVISIBLE, '').trim().normalize('NFC');
}

/** Cuts `name` to `limit` (as measured) on grapheme boundaries, keeping a short extension. */
function truncateKeepingExtension(name: string, limit: number, measure: (text: string) => number): string {
  if (measure(name) <= limit) return name;
  const dot = name.lastIndexOf('.');
  const candidate = dot > 0 ? name.slice(dot) : '';
  const extension = candidate.length <= MAX_EXTENSION_CHARS + 1 && !/\s/u.test(candidate) ? candidate : '';
  const room = limit - measure(extension);
  let stem = '';
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(
    name.slice(0, name.length - extension.length),
  )) {
    if (measure(stem + segment) > room) break;
    stem += segment;
  }
  return stem.trimEnd() + extension;
}

/** Latin letters lose their accents; any other non-printable-ASCII or quoting character becomes `_`. */
function asciiFallback(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    // `%` would be percent-decoded by some browsers; `"` and `\` would need quoting that clients get wrong.
    .replace(/[^\x20-\x7E]|["\\%]/g, '_');
  return ascii.trim() || FALLBACK_FILENAME;
}

/** Percent-encodes everything outside RFC 8187 `attr-char`. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
