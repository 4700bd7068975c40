import type { MediaCategory } from '@cms/core';

export { contentDispositionFor, type SanitizedFilename, sanitizeFilename } from './media-filename.js';
export { peekStream } from './peek-stream.js';

/** Bytes of content that mime detection looks at (file-type's recommended sample size). */
export const MIME_SNIFF_BYTES = 4100;
/** The type of anything not recognised. */
export const OCTET_STREAM = 'application/octet-stream';

/** Derived media category, the `category` filter of the media list. */
export type { MediaCategory };

const SVG = 'image/svg+xml';

// Text formats carry no magic number; the extension is trusted only once the bytes look like text.
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  svg: SVG,
};

// file-type sees only the container in 4100 bytes when a zip or OLE file lists its parts late.
const CONTAINER_TYPES: Record<string, Record<string, string>> = {
  'application/zip': {
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    odt: 'application/vnd.oasis.opendocument.text',
    ods: 'application/vnd.oasis.opendocument.spreadsheet',
    odp: 'application/vnd.oasis.opendocument.presentation',
    epub: 'application/epub+zip',
  },
  'application/x-cfb': {
    doc: 'application/msword',
    xls: 'application/vnd.ms-excel',
    ppt: 'application/vnd.ms-powerpoint',
  },
};

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/msword',
  'application/rtf',
  'application/json',
  'application/xml',
  'application/epub+zip',
]);
const DOCUMENT_TYPE_PREFIXES = [
  'text/',
  'application/vnd.openxmlformats-officedocument.',
  'application/vnd.oasis.opendocument.',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.ms-word',
];
const ARCHIVE_TYPES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/x-tar',
  'application/gzip',
  'application/x-gzip',
  'application/x-bzip2',
  'application/x-xz',
  'application/zstd',
  'application/x-7z-compressed',
  'application/vnd.rar',
  'application/x-rar-compressed',
  'application/x-lzip',
  'application/x-lz4',
  'application/x-compress',
  'application/x-cpio',
  'application/vnd.ms-cab-compressed',
  'application/java-archive',
]);
const DOCUMENT_EXTENSIONS = new Set(
  'pdf doc docx xls xlsx ppt pptx odt ods odp rtf txt md markdown mdx csv tsv json xml epub'.split(' '),
);
const ARCHIVE_EXTENSIONS = new Set('zip tar gz tgz bz2 tbz2 xz txz zst 7z rar lz lz4 cab jar'.split(' '));

/**
 * The mime type of a file from its first bytes; the client's declared type is never used.
 * The name only refines what the content allows (a zip named `.docx`, text named `.csv`).
 */
export async function detectMimeType(firstBytes: Uint8Array, filename: string): Promise<string> {
  const sample = firstBytes.subarray(0, MIME_SNIFF_BYTES);
  const extension = extensionOf(filename);
  // file-type (and its tokenizer packages) loads at the first upload, not at start.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(sample);
  if (detected) {
    if (detected.mime === 'application/xml' && extension === 'svg' && looksLikeSvg(sample)) return SVG;
    return CONTAINER_TYPES[detected.mime]?.[extension] ?? detected.mime;
  }
  const textType = TEXT_TYPES[extension];
  if (!textType || !looksLikeText(sample)) return OCTET_STREAM;
  if (textType === SVG && !looksLikeSvg(sample)) return 'text/plain';
  return textType;
}

/** The category of a file from its detected mime type, then its extension for unrecognised content. */
export function mediaCategory(mimeType: string, filename: string): MediaCategory {
  const mime = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  for (const kind of ['image', 'video', 'audio'] as const) {
    if (mime.startsWith(`${kind}/`)) return kind;
  }
  if (ARCHIVE_TYPES.has(mime)) return 'archive';
  if (DOCUMENT_TYPES.has(mime) || DOCUMENT_TYPE_PREFIXES.some((prefix) => mime.startsWith(prefix))) {
    return 'document';
  }
  // Only document and archive: an unrecognised file must not pass as an image, video or audio.
  const extension = extensionOf(filename);
  if (DOCUMENT_EXTENSIONS.has(extension)) return 'document';
  if (ARCHIVE_EXTENSIONS.has(extension)) return 'archive';
  return 'other';
}

/** The lower-cased extension of the last path segment, without the dot; `''` when there is none. */
function extensionOf(filename: string): string {
  const base = (filename.split(/[/\\]/).pop() ?? '').trim();
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** UTF-8 (a sequence cut at the end of the sample is fine) without NUL bytes. */
function looksLikeText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch (error: unknown) {
    if (error instanceof TypeError) return false;
    throw error;
  }
}

function looksLikeSvg(sample: Uint8Array): boolean {
  return /<svg[\s>]/i.test(new TextDecoder('utf-8').decode(sample));
}
