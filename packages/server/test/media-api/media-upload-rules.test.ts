import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  countMediaRows,
  fileUrl,
  type MediaTestServer,
  multipartBody,
  PNG,
  startMediaServer,
  upload,
  uploadOk,
} from './media-api-support.js';

let m: MediaTestServer;
beforeAll(async () => {
  m = await startMediaServer('fs');
});
afterAll(() => m?.close());

function post(body: string | Uint8Array | undefined, contentType?: string) {
  return m.t.request('POST', '/api/v1/media/upload', {
    ...(body === undefined ? {} : { rawBody: body }),
    headers: contentType ? { 'content-type': contentType } : {},
  });
}

async function expectNothingStored() {
  expect(await countMediaRows(m.t)).toBe(0);
  expect(await m.storedKeys()).toEqual([]);
}

describe('upload content type', () => {
  it.each([
    ['application/json', '{"file":"x"}'],
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'file=x'],
    ['multipart/mixed; boundary=x', '--x--\r\n'],
  ])('answers %s with UNSUPPORTED_MEDIA_TYPE', async (type, body) => {
    const response = await post(body, type);
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    await expectNothingStored();
  });

  it('answers a request without a body with UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await post(undefined);
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('upload parts', () => {
  afterEach(expectNothingStored);

  const file = { name: 'file', filename: 'a.txt', contentType: 'text/plain', content: 'hello' };
  it.each([
    ['no part at all', []],
    ['only a field', [{ name: 'title', content: 'x' }]],
    ['a field named file', [{ name: 'file', content: 'not a file' }]],
    ['a file part with another name', [{ ...file, name: 'upload' }]],
    ['a field before the file', [{ name: 'title', content: 'x' }, file]],
    ['a field after the file', [file, { name: 'title', content: 'x' }]],
    ['two files', [file, { ...file, filename: 'b.txt' }]],
    ['three files', [file, file, file]],
  ])('refuses %s with INVALID_INPUT', async (_, parts) => {
    const { contentType, body } = multipartBody(parts);
    const response = await post(body, contentType);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
    expect(response.body.error.message).toMatch(/"file"/);
  });

  it('refuses malformed multipart with INVALID_INPUT', async () => {
    const noBoundary = await post('--x\r\n', 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.error.code).toBe('INVALID_INPUT');

    const { contentType, body } = multipartBody([file]);
    const truncated = await post(body.subarray(0, body.length - 30), contentType);
    expect(truncated.status).toBe(400);
    expect(truncated.body.error.code).toBe('INVALID_INPUT');
  });

  it('accepts an empty multipart body only as a missing part', async () => {
    const response = await post('', 'multipart/form-data; boundary=nothing');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('upload content detection and names', () => {
  afterEach(async () => {
    const listed = await m.t.request('GET', '/api/v1/media?limit=100');
    for (const asset of listed.body.data) await m.t.request('DELETE', `/api/v1/media/${asset.id}`);
  });

  it('detects the type from the content, never from the client', async () => {
    const png = await uploadOk(m.t, { filename: 'evil.txt', content: PNG, contentType: 'text/plain' });
    expect(png).toMatchObject({ filename: 'evil.txt', mimeType: 'image/png', category: 'image' });
    expect((await fetch(fileUrl(m.t, png))).headers.get('content-type')).toBe('image/png');

    const fakeImage = await uploadOk(m.t, { filename: 'photo.png', content: 'plain words', contentType: 'image/png' });
    expect(fakeImage).toMatchObject({ mimeType: 'application/octet-stream', category: 'other' });

    const html = await uploadOk(m.t, {
      filename: 'page.html',
      content: '<html><script>alert(1)</script></html>',
      contentType: 'text/html',
    });
    expect(html.mimeType).toBe('application/octet-stream');
    const served = await fetch(fileUrl(m.t, html));
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="page.html"');

    const pdf = await uploadOk(m.t, { filename: 'report.pdf', content: '%PDF-1.4\n%...\n' });
    expect(pdf).toMatchObject({ mimeType: 'application/pdf', category: 'document' });

    const csv = await uploadOk(m.t, { filename: 'table.csv', content: 'a,b\n1,2\n' });
    expect(csv).toMatchObject({ mimeType: 'text/csv', category: 'document' });
  });

  it('keeps the given name for display and stores a sanitised one', async () => {
    const asset = await uploadOk(m.t, { filename: '../../etc/passwd', content: 'root:x:0:0\n' });
    expect(asset.filename).toBe('../../etc/passwd');
    expect(new URL(asset.url).pathname).toMatch(new RegExp(`/${asset.id}/passwd$`));
    const keys = await m.storedKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`/${asset.id}/passwd$`));
    const served = await fetch(fileUrl(m.t, asset));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="passwd"');
    expect(await served.text()).toBe('root:x:0:0\n');

    const hidden = await uploadOk(m.t, { filename: '..\\..\\.htaccess', content: 'x' });
    expect(new URL(hidden.url).pathname).toMatch(new RegExp(`/${hidden.id}/htaccess$`));
  });

  it('serves names with spaces, unicode and url-reserved characters', async () => {
    const asset = await uploadOk(m.t, { filename: 'Résumé #1 100% final?.txt', content: 'cv' });
    expect(asset.filename).toBe('Résumé #1 100% final?.txt');
    const served = await fetch(fileUrl(m.t, asset));
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('cv');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''/);
  });

  it('serves a name longer than a router parameter allows', async () => {
    const asset = await uploadOk(m.t, { filename: `${'long-name-'.repeat(30)}.txt`, content: 'long' });
    const storageName = decodeURIComponent(new URL(asset.url).pathname.split('/').pop() ?? '');
    expect(storageName.length).toBeGreaterThan(150);
    expect(Buffer.byteLength(storageName)).toBeLessThanOrEqual(200);
    expect(storageName.endsWith('.txt')).toBe(true);
    expect(await (await fetch(fileUrl(m.t, asset))).text()).toBe('long');
  });

  it('never lets ../, NUL or a 5,000-character name reach the storage key or the disk outside the media root', async () => {
    const names = ['../../../outside.txt', 'nul\u0000byte/../../x.txt', `${'n'.repeat(5000)}.txt`, '..\u0000'];
    for (const [index, filename] of names.entries()) {
      const content = `hostile-${index}`;
      const asset = await uploadOk(m.t, { filename, content });
      expect(asset.filename).not.toContain('\u0000');
      expect([...asset.filename].length).toBeLessThanOrEqual(255);
      const storageName = decodeURIComponent(new URL(asset.url).pathname.split('/').pop() ?? '');
      for (const forbidden of ['/', '\\', '\u0000']) expect(storageName).not.toContain(forbidden);
      expect(storageName.startsWith('.')).toBe(false);
      expect(Buffer.byteLength(storageName)).toBeLessThanOrEqual(200);
      expect(await (await fetch(fileUrl(m.t, asset))).text()).toBe(content);
    }
    const keys = await m.storedKeys();
    for (const key of keys) {
      expect(key).not.toContain('..');
      expect(key).not.toContain('\u0000');
    }
    // Nothing was written next to the media root, in the data dir or above it.
    const outside = await readdir(join(m.t.dataDir, '..'));
    expect(outside).not.toContain('outside.txt');
    expect(await readdir(m.t.dataDir)).not.toContain('outside.txt');
  });

  it('stores an empty file and a file part without a name', async () => {
    const empty = await uploadOk(m.t, { filename: 'empty.txt', content: '' });
    expect(empty.sizeBytes).toBe(0);
    const { contentType, body } = multipartBody([
      { name: 'file', contentType: 'application/octet-stream', content: 'anonymous' },
    ]);
    const anonymous = await post(body, contentType);
    expect(anonymous.status).toBe(201);
    expect(anonymous.body.data.filename).toBe('file');
  });
});

describe('upload access', () => {
  afterEach(expectNothingStored);

  it('needs credentials, routing headers and the media:upload scope', async () => {
    const file = { filename: 'a.txt', content: 'a' };
    expect((await upload(m.t, file, { key: null })).body.error.code).toBe('UNAUTHORIZED');
    expect((await upload(m.t, file, { environment: null })).body.error.code).toBe('TARGET_REQUIRED');
    const reader = await m.t.createKey({ scopes: ['media:read', 'media:delete'] });
    const forbidden = await upload(m.t, file, { key: reader });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
  });

  it('lists and deletes only with media:read and media:delete', async () => {
    const uploader = await m.t.createKey({ scopes: ['media:upload'] });
    const asset = await uploadOk(m.t, { filename: 'a.txt', content: 'a' }, { key: uploader });
    expect((await m.t.request('GET', '/api/v1/media', { key: uploader })).status).toBe(403);
    expect((await m.t.request('GET', `/api/v1/media/${asset.id}`, { key: uploader })).status).toBe(403);
    expect((await m.t.request('DELETE', `/api/v1/media/${asset.id}`, { key: uploader })).status).toBe(403);
    const deleter = await m.t.createKey({ scopes: ['media:delete'] });
    expect((await m.t.request('DELETE', `/api/v1/media/${asset.id}`, { key: deleter })).status).toBe(200);
  });

  it('answers ids that are not uuids with INVALID_INPUT', async () => {
    const response = await m.t.request('GET', '/api/v1/media/not-a-uuid');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_INPUT');
  });
});
