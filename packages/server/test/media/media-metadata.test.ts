import { describe, expect, it } from 'vitest';
import { detectMimeType, MIME_SNIFF_BYTES, mediaCategory, OCTET_STREAM } from '../../src/media/media-metadata.js';

const text = (value: string) => new TextEncoder().encode(value);
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
  0, 0,
]);
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** One stored zip entry: enough for content detection to see a zip container. */
function zipWith(name: string, content: string): Uint8Array {
  const nameBytes = Buffer.from(name);
  const data = Buffer.from(content);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes, data]);
}

describe('detectMimeType', () => {
  it('trusts content over the file name', async () => {
    expect(await detectMimeType(PNG, 'photo.png')).toBe('image/png');
    expect(await detectMimeType(PNG, 'notes.txt')).toBe('image/png');
    expect(await detectMimeType(text('%PDF-1.7\n%...'), 'upload.bin')).toBe('application/pdf');
  });

  it('uses the extension only for text formats, and only for text', async () => {
    expect(await detectMimeType(text('hello'), 'notes.txt')).toBe('text/plain');
    expect(await detectMimeType(text('# Title'), 'README.md')).toBe('text/markdown');
    expect(await detectMimeType(text('a,b\n1,2'), 'data.CSV')).toBe('text/csv');
    expect(await detectMimeType(text('{"a":1}'), 'data.json')).toBe('application/json');
    expect(await detectMimeType(Uint8Array.from([0x68, 0, 0x69]), 'notes.txt')).toBe(OCTET_STREAM);
    expect(await detectMimeType(Uint8Array.from([0x61, 0xc3, 0x28, 0x62]), 'notes.txt')).toBe(OCTET_STREAM);
    expect(await detectMimeType(text('<!doctype html><script>alert(1)</script>'), 'page.html')).toBe(OCTET_STREAM);
    expect(await detectMimeType(text('hello'), 'no-extension')).toBe(OCTET_STREAM);
    expect(await detectMimeType(new Uint8Array(), 'empty.bin')).toBe(OCTET_STREAM);
  });

  it('recognises SVG only when the content is SVG', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>';
    expect(await detectMimeType(text(svg), 'logo.svg')).toBe('image/svg+xml');
    expect(await detectMimeType(text(`<?xml version="1.0"?>\n${svg}`), 'logo.svg')).toBe('image/svg+xml');
    expect(await detectMimeType(text('<?xml version="1.0"?><note/>'), 'logo.svg')).toBe('application/xml');
    expect(await detectMimeType(text('just text'), 'logo.svg')).toBe('text/plain');
    expect(await detectMimeType(text(svg), 'logo.txt')).toBe('text/plain');
  });

  it('looks at the first 4100 bytes only, tolerating a character cut at the edge', async () => {
    const cut = text(`${'a'.repeat(MIME_SNIFF_BYTES - 1)}é and more`);
    expect(await detectMimeType(cut, 'long.txt')).toBe('text/plain');
    const binaryLater = new Uint8Array(MIME_SNIFF_BYTES + 10).fill(0x61);
    binaryLater[MIME_SNIFF_BYTES + 5] = 0;
    expect(await detectMimeType(binaryLater, 'long.txt')).toBe('text/plain');
  });

  it('names a zip container by its office extension', async () => {
    const zip = zipWith('word/unknown.bin', 'hello');
    expect(await detectMimeType(zip, 'archive.zip')).toBe('application/zip');
    expect(await detectMimeType(zip, 'report.docx')).toBe(DOCX);
    expect(await detectMimeType(zip, 'report.exe')).toBe('application/zip');
  });
});

describe('mediaCategory', () => {
  it.each([
    ['image/png', 'a.png', 'image'],
    ['image/svg+xml', 'a.svg', 'image'],
    ['video/mp4', 'a.mp4', 'video'],
    ['audio/mpeg', 'a.mp3', 'audio'],
    ['application/pdf', 'a.pdf', 'document'],
    [DOCX, 'a.docx', 'document'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'a.xlsx', 'document'],
    ['application/vnd.oasis.opendocument.text', 'a.odt', 'document'],
    ['application/msword', 'a.doc', 'document'],
    ['application/rtf', 'a.rtf', 'document'],
    ['text/plain; charset=utf-8', 'a.txt', 'document'],
    ['text/markdown', 'a.md', 'document'],
    ['text/csv', 'a.csv', 'document'],
    ['application/json', 'a.json', 'document'],
    ['application/zip', 'a.zip', 'archive'],
    ['application/gzip', 'a.tar.gz', 'archive'],
    ['application/x-tar', 'a.tar', 'archive'],
    ['application/x-7z-compressed', 'a.7z', 'archive'],
    ['application/x-rar-compressed', 'a.rar', 'archive'],
    ['application/vnd.rar', 'a.rar', 'archive'],
    ['application/x-bzip2', 'a.bz2', 'archive'],
    [OCTET_STREAM, 'backup.tgz', 'archive'],
    [OCTET_STREAM, 'notes.md', 'document'],
    [OCTET_STREAM, 'photo.png', 'other'],
    [OCTET_STREAM, 'setup.exe', 'other'],
    ['application/x-msdownload', 'setup.exe', 'other'],
    ['font/woff2', 'a.woff2', 'other'],
  ])('%s named %s is %s', (mimeType, filename, category) => {
    expect(mediaCategory(mimeType, filename)).toBe(category);
  });
});
