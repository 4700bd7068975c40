import { readdir, readlink } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DRIVERS,
  eventually,
  fileUrl,
  type MediaTestServer,
  PNG,
  startMediaServer,
  uploadOk,
} from './media-api-support.js';

const DIGITS = '0123456789';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

describe.each(DRIVERS)('serving media files on the %s driver', (driver) => {
  let m: MediaTestServer;
  let png: any;
  let digits: any;
  beforeAll(async () => {
    m = await startMediaServer(driver);
    png = await uploadOk(m.t, { filename: 'pixel.png', content: PNG });
    digits = await uploadOk(m.t, { filename: 'digits.txt', content: DIGITS });
  });
  afterAll(() => m?.close());

  const get = (asset: any, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(fileUrl(m.t, asset), { method, headers });

  it('sends validators, caching and safety headers', async () => {
    const response = await get(png);
    expect(response.status).toBe(200);
    const headers = Object.fromEntries(response.headers);
    expect(headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      etag: `"${png.id}"`,
      'last-modified': new Date(png.uploadedAt).toUTCString(),
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="pixel.png"',
      'cross-origin-resource-policy': 'cross-origin',
    });
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['set-cookie']).toBeUndefined();
  });

  it('adds a charset to text and sends non-media files as attachments', async () => {
    const response = await get(digits);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="digits.txt"');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(await response.text()).toBe(DIGITS);
  });

  it('sandboxes SVG and PDF shown inline', async () => {
    const svg = await uploadOk(m.t, { filename: 'logo.svg', content: SVG });
    expect(svg.mimeType).toBe('image/svg+xml');
    const served = await get(svg);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-disposition')).toBe('inline; filename="logo.svg"');
    expect(served.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );

    const pdf = await uploadOk(m.t, { filename: 'doc.pdf', content: '%PDF-1.7\n' });
    const pdfServed = await get(pdf);
    expect(pdfServed.headers.get('content-disposition')).toBe('inline; filename="doc.pdf"');
    expect(pdfServed.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
  });

  it('answers 304 when If-None-Match or If-Modified-Since says the copy is current', async () => {
    for (const tag of [`"${png.id}"`, `W/"${png.id}"`, `"other", "${png.id}"`, '*']) {
      const response = await get(png, { 'if-none-match': tag });
      expect(response.status, tag).toBe(304);
      expect(response.headers.get('etag')).toBe(`"${png.id}"`);
      expect(response.headers.get('cache-control')).toContain('immutable');
      expect(await response.text()).toBe('');
    }
    expect((await get(png, { 'if-none-match': '"something-else"' })).status).toBe(200);

    const uploaded = new Date(png.uploadedAt).getTime();
    expect((await get(png, { 'if-modified-since': new Date(uploaded + 60_000).toUTCString() })).status).toBe(304);
    expect((await get(png, { 'if-modified-since': new Date(uploaded - 60_000).toUTCString() })).status).toBe(200);
    expect((await get(png, { 'if-modified-since': 'not a date' })).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    const both = await get(png, {
      'if-none-match': '"something-else"',
      'if-modified-since': new Date(uploaded + 60_000).toUTCString(),
    });
    expect(both.status).toBe(200);
  });

  it.each([
    ['bytes=0-4', 0, 4],
    ['bytes=5-', 5, 9],
    ['bytes=-3', 7, 9],
    ['bytes=8-100', 8, 9],
    ['bytes=-100', 0, 9],
    ['bytes=3-3', 3, 3],
  ])('serves the range %s with 206', async (range, start, end) => {
    const response = await get(digits, { range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/10`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(response.headers.get('etag')).toBe(`"${digits.id}"`);
    expect(await response.text()).toBe(DIGITS.slice(start, end + 1));
  });

  it.each(['bytes=10-', 'bytes=10-20', 'bytes=-0', 'bytes=99999999999999999999-'])(
    'answers the unsatisfiable range %s with 416',
    async (range) => {
      const response = await get(digits, { range });
      expect(response.status).toBe(416);
      expect(response.headers.get('content-range')).toBe('bytes */10');
      expect(await response.text()).toBe('');
    },
  );

  it.each(['bytes=abc', 'items=0-1', 'bytes=5-2', 'bytes=0-1,3-4', 'bytes=-', 'bytes 0-1'])(
    'ignores the malformed or multiple range %s and sends the whole file',
    async (range) => {
      const response = await get(digits, { range });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-range')).toBeNull();
      expect(await response.text()).toBe(DIGITS);
    },
  );

  it('honours If-Range only while the validator matches', async () => {
    const matching = await get(digits, { range: 'bytes=0-1', 'if-range': `"${digits.id}"` });
    expect(matching.status).toBe(206);
    expect(await matching.text()).toBe('01');
    const stale = await get(digits, { range: 'bytes=0-1', 'if-range': '"old"' });
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(DIGITS);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await get(digits, {}, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('10');
    expect(response.headers.get('etag')).toBe(`"${digits.id}"`);
    expect(await response.text()).toBe('');
  });

  it('answers 404 unless every part of the url names the file', async () => {
    const { pathname } = new URL(digits.url);
    const [, , projectId, environmentId, mediaId, name] = pathname.split('/');
    const other = '00000000-0000-4000-8000-000000000000';
    for (const wrong of [
      `/media/${projectId}/${environmentId}/${mediaId}/other.txt`,
      `/media/${projectId}/${environmentId}/${mediaId}/${name}/extra`,
      `/media/${projectId}/${environmentId}/${mediaId}`,
      `/media/${projectId}/${environmentId}/${other}/${name}`,
      `/media/${projectId}/${other}/${mediaId}/${name}`,
      `/media/${other}/${environmentId}/${mediaId}/${name}`,
      `/media/${projectId}/${environmentId}/not-a-uuid/${name}`,
      `/media/${projectId}/${environmentId}/${mediaId}x/${name}`,
    ]) {
      const response = await fetch(`${m.t.url}${wrong}`);
      expect(response.status, wrong).toBe(404);
      expect(((await response.json()) as any).error.code).toBe('NOT_FOUND');
    }
  });

  it('stops serving a deleted file at once, cached validators included', async () => {
    const asset = await uploadOk(m.t, { filename: 'gone.txt', content: 'bye' });
    expect((await get(asset)).status).toBe(200);
    expect((await m.t.request('DELETE', `/api/v1/media/${asset.id}`)).status).toBe(200);
    expect((await get(asset)).status).toBe(404);
    expect((await get(asset, { 'if-none-match': `"${asset.id}"` })).status).toBe(404);
    expect((await get(asset, { range: 'bytes=0-1' })).status).toBe(404);
  });
});

describe('a download the client abandons', () => {
  let m: MediaTestServer;
  beforeAll(async () => {
    m = await startMediaServer('fs');
  });
  afterAll(() => m?.close());

  /** Open descriptors of this process on the file, read from /proc (Linux). */
  async function openDescriptorsOn(file: string): Promise<number> {
    let count = 0;
    for (const fd of await readdir('/proc/self/fd')) {
      const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
      if (target === file) count++;
    }
    return count;
  }

  it.skipIf(process.platform !== 'linux')('closes the storage stream when the client goes away', async () => {
    const asset = await uploadOk(m.t, { filename: 'large.bin', content: Buffer.alloc(32 * 1024 * 1024, 7) });
    const [, , projectId, environmentId, mediaId, name] = new URL(asset.url).pathname.split('/');
    const file = path.join(m.t.dataDir, 'media', projectId!, environmentId!, mediaId!, name!);

    await new Promise<void>((resolve, reject) => {
      const request = http.get(fileUrl(m.t, asset), { agent: false }, (response) => {
        response.once('data', async () => {
          try {
            // The server is streaming the file, paused by the socket's backpressure.
            expect(await openDescriptorsOn(file)).toBe(1);
            request.destroy();
            resolve();
          } catch (error: unknown) {
            reject(error);
          }
        });
      });
      request.on('error', () => undefined);
    });
    await eventually(async () => (await openDescriptorsOn(file)) === 0);
    // And the server still serves.
    expect((await fetch(fileUrl(m.t, asset), { headers: { range: 'bytes=0-0' } })).status).toBe(206);
  });
});
