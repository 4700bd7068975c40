import { describe, expect, it } from 'vitest';
import { contentDispositionFor, sanitizeFilename } from '../../src/media/media-filename.js';

const bytes = (value: string) => Buffer.byteLength(value);

describe('sanitizeFilename', () => {
  it.each([
    ['../../etc/passwd', 'passwd', '../../etc/passwd'],
    ['C:\\Users\\me\\photo.png', 'photo.png', 'C:\\Users\\me\\photo.png'],
    ['a\u0000b.png', 'ab.png', 'ab.png'],
    ['.htaccess', 'htaccess', '.htaccess'],
    ['..', 'file', '..'],
    ['', 'file', 'file'],
    ['  \u0007 ', 'file', 'file'],
    ['  my   holiday\tphoto\r\n.jpg ', 'my holiday photo .jpg', 'my holiday photo .jpg'],
    ['photo\u202Egnp.exe', 'photognp.exe', 'photognp.exe'],
    ['a<b>:c"d|e?f*.txt', 'a_b__c_d_e_f_.txt', 'a<b>:c"d|e?f*.txt'],
    ['Résumé 履歴書 📄.pdf', 'Résumé 履歴書 📄.pdf', 'Résumé 履歴書 📄.pdf'],
    ['dir/', 'file', 'dir/'],
  ])('%j becomes %j shown as %j', (input, storageName, displayName) => {
    expect(sanitizeFilename(input)).toEqual({ storageName, displayName });
  });

  it('normalises to NFC', () => {
    const decomposed = 'Cafe\u0301.txt';
    expect(sanitizeFilename(decomposed).storageName).toBe('Café.txt');
    expect(sanitizeFilename(decomposed).storageName).toHaveLength(8);
  });

  it('shortens long names to 200 bytes (255 characters shown), keeping the extension', () => {
    const { storageName, displayName } = sanitizeFilename(`${'x'.repeat(300)}.jpeg`);
    expect(bytes(storageName)).toBe(200);
    expect(storageName.endsWith('x.jpeg')).toBe(true);
    expect([...displayName]).toHaveLength(255);
    expect(displayName.endsWith('x.jpeg')).toBe(true);
  });

  it('cuts multi-byte names on character boundaries', () => {
    const { storageName } = sanitizeFilename(`${'日'.repeat(100)}.png`);
    expect(bytes(storageName)).toBeLessThanOrEqual(200);
    expect(storageName).toBe(`${'日'.repeat(65)}.png`);
    const family = '👩‍👩‍👧';
    const emoji = sanitizeFilename(`${family.repeat(20)}.gif`).storageName;
    expect(bytes(emoji)).toBeLessThanOrEqual(200);
    expect(emoji.replace('.gif', '').replaceAll(family, '')).toBe('');
  });

  it('truncates names without a usable extension as a whole', () => {
    expect(sanitizeFilename('a'.repeat(500)).storageName).toBe('a'.repeat(200));
    const longExtension = sanitizeFilename(`${'a'.repeat(300)}.${'b'.repeat(30)}`).storageName;
    expect(longExtension).toBe('a'.repeat(200));
  });

  it('never yields a lone surrogate', () => {
    const { storageName } = sanitizeFilename('bad\uD800name.txt');
    expect(storageName).toBe('bad\uFFFDname.txt');
  });
});

describe('contentDispositionFor', () => {
  it('keeps a plain ASCII name as is', () => {
    expect(contentDispositionFor('report-2024.pdf', 'attachment')).toBe('attachment; filename="report-2024.pdf"');
    expect(contentDispositionFor('photo.png', 'inline')).toBe('inline; filename="photo.png"');
  });

  it('replaces quotes in the ASCII fallback and keeps them in filename*', () => {
    expect(contentDispositionFor('my "quoted" file.txt', 'attachment')).toBe(
      `attachment; filename="my _quoted_ file.txt"; filename*=UTF-8''my%20%22quoted%22%20file.txt`,
    );
    expect(contentDispositionFor("it's (1)*.txt", 'attachment')).toBe(`attachment; filename="it's (1)*.txt"`);
    expect(contentDispositionFor('100%.txt', 'attachment')).toBe(
      `attachment; filename="100_.txt"; filename*=UTF-8''100%25.txt`,
    );
  });

  it('encodes non-ASCII names as UTF-8 with an ASCII fallback', () => {
    expect(contentDispositionFor('résumé.pdf', 'inline')).toBe(
      `inline; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`,
    );
    expect(contentDispositionFor('日本語 (1).txt', 'attachment')).toBe(
      `attachment; filename="___ (1).txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%20%281%29.txt`,
    );
  });

  it.each([
    'a\r\nSet-Cookie: x=1.txt',
    '../../etc/passwd',
    '',
    '\\"\\',
    'bad\uD800.txt',
    '👩‍👩‍👧 "x"; filename=evil.exe',
  ])('yields one safe header value for %j', (name) => {
    const header = contentDispositionFor(name, 'attachment');
    expect(header).toMatch(
      /^attachment; filename="[\x20\x21\x23-\x7E]*"(; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]+)?$/,
    );
    const encoded = /filename\*=UTF-8''(.+)$/.exec(header)?.[1];
    const shown = encoded ? decodeURIComponent(encoded) : /filename="(.*)"/.exec(header)?.[1];
    expect(shown).not.toMatch(/[\p{Cc}/\\]/u);
    expect(shown).not.toBe('');
  });
});
